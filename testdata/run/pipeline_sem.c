/* A three-stage pipeline connected by single-slot buffers guarded by
 * semaphores: generate, square, accumulate. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define ITEMS 30

struct slot {
	long v;
	sem_t full, empty;
};

static struct slot s1, s2;
static long result;

static void slot_init(struct slot *s) {
	sem_init(&s->full, 0, 0);
	sem_init(&s->empty, 0, 1);
}

static void put(struct slot *s, long v) {
	sem_wait(&s->empty);
	s->v = v;
	sem_post(&s->full);
}

static long take(struct slot *s) {
	sem_wait(&s->full);
	long v = s->v;
	sem_post(&s->empty);
	return v;
}

static void *gen(void *a) {
	(void)a;
	for (long i = 1; i <= ITEMS; i++)
		put(&s1, i);
	put(&s1, -1);
	return NULL;
}

static void *square(void *a) {
	(void)a;
	for (;;) {
		long v = take(&s1);
		put(&s2, v < 0 ? v : v * v);
		if (v < 0)
			return NULL;
	}
}

static void *acc(void *a) {
	(void)a;
	for (long v; (v = take(&s2)) >= 0;)
		result = result * 31 + v;
	return NULL;
}

int main(void) {
	slot_init(&s1);
	slot_init(&s2);
	pthread_t t[3];
	pthread_create(&t[0], NULL, acc, NULL);
	pthread_create(&t[1], NULL, square, NULL);
	pthread_create(&t[2], NULL, gen, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("pipeline result %ld\n", result);
	return 0;
}
