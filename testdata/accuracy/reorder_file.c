/* Three workers append their steps to a log file, each line under a lock,
 * so the lines interleave as the schedule goes. main reads a flag another
 * thread clears, without synchronization, and on the old value only takes
 * and drops a lock twice more before joining.
 *
 * pending: k-witness-harmless. The flag's value changes nothing the
 * program writes; the extra lock calls change where the schedule
 * switches threads, and so the order of the log's lines, which any
 * schedule may change anyway. The classifier steers each order toward
 * the other's order of writes to the log, as it does for printed lines
 * (reorder_shift.c), and both get there. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
static FILE *logf;
static int pending = 1;

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 4; i++) {
		pthread_mutex_lock(&out);
		fprintf(logf, "worker %ld step %d\n", id, i);
		fflush(logf);
		pthread_mutex_unlock(&out);
	}
	return NULL;
}

static void *finisher(void *arg) {
	(void)arg;
	pending = 0; // race: pending k-witness-harmless
	return NULL;
}

int main(void) {
	logf = fopen("steps.log", "w");
	if (logf == NULL)
		return 1;
	pthread_t f, w[3];
	pthread_create(&f, NULL, finisher, NULL);
	for (long i = 0; i < 3; i++)
		pthread_create(&w[i], NULL, worker, (void *)(i + 1));
	if (pending) { // race: pending k-witness-harmless
		pthread_mutex_lock(&other);
		pthread_mutex_unlock(&other);
		pthread_mutex_lock(&other);
		pthread_mutex_unlock(&other);
	}
	pthread_join(f, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(w[i], NULL);
	fclose(logf);
	printf("done\n");
	return 0;
}
