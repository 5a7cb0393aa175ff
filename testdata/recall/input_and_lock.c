/* Hidden behind an input and lock order together. The input picks the
 * iteration at which the writer publishes `checkpoint` outside the lock
 * (no iteration when it is out of range, as with the default input 0),
 * and the reader reads it outside the lock at its second iteration. The
 * exploration of inputs finds an iteration that publishes; then only
 * race-directed scheduling brings the two accesses together. */
#include <pthread.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int at, work, checkpoint;

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 30; i++) {
		pthread_mutex_lock(&m);
		work++;
		pthread_mutex_unlock(&m);
		if (i == at && i > 20)
			checkpoint = i; // race: checkpoint output-differs
	}
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	for (int j = 0; j < 30; j++) {
		pthread_mutex_lock(&m);
		work++;
		pthread_mutex_unlock(&m);
		if (j == 1)
			printf("checkpoint %d\n", checkpoint); // race: checkpoint output-differs
	}
	return NULL;
}

int main(void) {
	at = __VERIFIER_nondet_int();
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
