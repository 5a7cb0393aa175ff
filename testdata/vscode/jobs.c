/* A job queue whose two workers each take four jobs under the queue's
 * lock; main waits, under the same lock, until eight jobs are done and
 * frees the queue, while a worker that finished its last job still reads
 * the queue's name to say goodbye. The read is not under the lock, and
 * nothing orders it with the free: a use after free. Its interleaving has
 * dozens of lock and unlock steps before the race, which the timeline
 * folds (the VS Code end-to-end test opens it).
 *
 * name: spec-violated. The free before a worker's read of q->name. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct queue {
	pthread_mutex_t mu;
	int next, done;
	char name[16];
};

static struct queue *q;

static void *worker(void *arg) {
	(void)arg;
	for (int i = 0; i < 4; i++) {
		pthread_mutex_lock(&q->mu);
		q->next++;
		q->done++;
		pthread_mutex_unlock(&q->mu);
	}
	printf("worker leaving %s\n", q->name); // race: name spec-violated
	return NULL;
}

int main(void) {
	q = calloc(1, sizeof *q);
	pthread_mutex_init(&q->mu, NULL);
	strcpy(q->name, "jobs");
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	for (int done = 0; done < 8;) {
		pthread_mutex_lock(&q->mu);
		done = q->done;
		pthread_mutex_unlock(&q->mu);
	}
	free(q); // race: name spec-violated
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
