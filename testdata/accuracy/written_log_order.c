/* Files whose contents follow the schedule, beside a harmless race. Two
 * workers append a line each to log.txt under a mutex, in whichever turn
 * they get, and both set the same flag without it (a redundant write,
 * harmless in either order). The two orders of the flag's race can leave
 * the log's lines in either turn, as any two runs can: that is the
 * schedule's doing, not the race's, and must not make it output-differs. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *logf;
static int started;

static void *worker(void *arg) {
	started = 1; // race: started k-witness-harmless
	pthread_mutex_lock(&mu);
	fprintf(logf, "worker %ld\n", (long)arg);
	fflush(logf);
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void) {
	logf = fopen("log.txt", "w");
	if (logf == NULL)
		return 1;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)1);
	pthread_create(&b, NULL, worker, (void *)2);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	fclose(logf);
	printf("started %d\n", started);
	return 0;
}
