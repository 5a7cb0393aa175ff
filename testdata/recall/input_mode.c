/* Hidden behind a narrow input. Only in mode 3 does the logger thread
 * touch the shared statistics without the lock; every other mode takes the
 * lock. Detection on the default input (mode 0) sees no race; the
 * exploration of the program's inputs finds mode 3, and detection runs
 * there. */
#include <pthread.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int mode, requests;

static void *logger(void *arg) {
	(void)arg;
	if (mode == 3) {
		printf("requests so far: %d\n", requests); // race: stats output-differs
	} else {
		pthread_mutex_lock(&m);
		printf("requests so far: %d\n", requests);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static void *server(void *arg) {
	(void)arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&m);
		requests++; // race: stats output-differs
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void) {
	mode = __VERIFIER_nondet_int();
	pthread_t l, s;
	pthread_create(&s, NULL, server, NULL);
	pthread_create(&l, NULL, logger, NULL);
	pthread_join(s, NULL);
	pthread_join(l, NULL);
	return 0;
}
