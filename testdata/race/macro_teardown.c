/* Synchronization calls made through macros, as tracing and hashing
 * libraries wrap theirs. The worker announces it is done through
 * DONE_SIGNAL after letting the lock go, so main, woken by the flag, may
 * tear the condition down before the signal lands: the signal races with
 * the destroy and with the free. The report must name the calls the
 * macros make (pthread_cond_signal, pthread_cond_destroy), though the
 * source text at both places is a macro's name. Nor may it name the
 * memory `j`: that is the pointer the macros follow, not what races. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done;
};

#define DONE_SIGNAL(j) pthread_cond_signal(&(j)->cond)
#define JOB_TEARDOWN(j) pthread_cond_destroy(&(j)->cond)

static void *worker(void *arg) {
	struct job *j = arg;
	pthread_mutex_lock(&j->lock);
	j->done = 1;
	pthread_mutex_unlock(&j->lock);
	DONE_SIGNAL(j); // race: destroyed spec-violated // race: freed spec-violated
	return NULL;
}

int main(void) {
	struct job *j = calloc(1, sizeof *j);
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	pthread_t t;
	pthread_create(&t, NULL, worker, j);
	pthread_mutex_lock(&j->lock);
	while (!j->done)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	JOB_TEARDOWN(j); // race: destroyed spec-violated
	pthread_mutex_destroy(&j->lock);
	free(j); // race: freed spec-violated
	puts("done");
	pthread_join(t, NULL);
	return 0;
}
