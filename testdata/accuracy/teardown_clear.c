/* Teardown while a consumer may still loop: main waits until the last
 * item is consumed, then frees the queue and clears the pointer to it.
 * The consumer, after handing over its last item, goes round its loop
 * once more to see that the queue is done, reading the pointer again.
 *
 * fifo: spec-violated. If the consumer reads the pointer before main
 * clears it, the queue it locks may already be freed (a use after free);
 * if main clears it first, the consumer locks through a null pointer.
 * Both orders crash at the same line, but not for the same reason: the
 * crash is this race's, not a failure both orders share.
 *
 * items: spec-violated. main frees the queue without taking its lock, so
 * the consumer's last look at the count can come after the free.
 *
 * destroyed: spec-violated. main destroys the queue's mutex while the
 * consumer may still lock it (a read of the mutex, as ThreadSanitizer
 * counts it): after the destroy its lock takes nothing, and the count it
 * reads next can be freed already.
 *
 * lockfreed: spec-violated. The same lock against main's free: in the
 * order where the free comes first, the lock is a use after free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct queue {
	pthread_mutex_t mut;
	pthread_cond_t taken;
	int items;
	int consumed;
};

static struct queue *fifo;

static void *consumer(void *arg) {
	(void)arg;
	for (;;) {
		struct queue *q = fifo; // race: fifo spec-violated
		pthread_mutex_lock(&q->mut); // race: destroyed spec-violated // race: lockfreed spec-violated
		if (q->items == 0) { // race: items spec-violated
			pthread_mutex_unlock(&q->mut);
			return NULL;
		}
		q->items--;
		q->consumed++;
		pthread_cond_signal(&q->taken);
		pthread_mutex_unlock(&q->mut);
	}
}

int main(void) {
	struct queue *q = malloc(sizeof *q);
	pthread_mutex_init(&q->mut, NULL);
	pthread_cond_init(&q->taken, NULL);
	q->items = 2;
	q->consumed = 0;
	fifo = q;
	pthread_t t;
	pthread_create(&t, NULL, consumer, NULL);
	pthread_mutex_lock(&q->mut);
	while (q->consumed < 2)
		pthread_cond_wait(&q->taken, &q->mut);
	pthread_mutex_unlock(&q->mut);
	printf("consumed %d\n", q->consumed);
	pthread_mutex_destroy(&q->mut); // race: destroyed spec-violated
	pthread_cond_destroy(&q->taken);
	free(q); // race: items spec-violated // race: lockfreed spec-violated
	fifo = NULL; // race: fifo spec-violated
	pthread_join(t, NULL);
	return 0;
}
