/* A single-producer single-consumer ring buffer whose producer advances
 * the head before it writes the slot: a consumer that sees the new head
 * reads the slot's old contents.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>

#define SLOTS 4

static int ring[SLOTS];
static volatile unsigned head, tail;

static void *producer(void *arg) {
	(void)arg;
	for (int v = 1; v <= 6; v++) {
		while (head - tail == SLOTS)
			sched_yield();
		unsigned h = head;
		head = h + 1; /* published before the value is in place */
		ring[h % SLOTS] = v;
	}
	return 0;
}

static void *consumer(void *arg) {
	(void)arg;
	for (int want = 1; want <= 6; want++) {
		while (head == tail)
			sched_yield();
		int v = ring[tail % SLOTS];
		assert(v == want); // bug: assert
		tail = tail + 1;
	}
	return 0;
}

int main(void) {
	pthread_t p, c;
	pthread_create(&c, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(p, 0);
	pthread_join(c, 0);
	return 0;
}
