/* A table closed under a reader that may come late: main starts the
 * reader, marks the table closed under the write lock, then destroys the
 * lock and frees the table before it joins. The reader takes the lock
 * before main does, or after main has let it go: only a switch at main's
 * unlock puts the reader's lock between the unlock and the destroy, and
 * only the schedules that run the reader once main is done show it
 * touching freed memory. The table is main's alone until the reader first
 * touches it, so the exploration learns what main did to it (the destroy,
 * the free) only if the detector makes the next run record it.
 *
 * expect: race
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct table {
	pthread_rwlock_t lock;
	int closed;
	int rows[4];
};

static void *reader(void *arg) {
	struct table *tb = arg;
	int sum = 0;
	pthread_rwlock_rdlock(&tb->lock); // race: destroyed // race: freed
	if (!tb->closed) // race: closed
		for (int i = 0; i < 4; i++)
			sum += tb->rows[i];
	pthread_rwlock_unlock(&tb->lock);
	return (void *)(long)sum;
}

int main(void) {
	struct table *tb = calloc(1, sizeof *tb);
	pthread_rwlock_init(&tb->lock, NULL);
	for (int i = 0; i < 4; i++)
		tb->rows[i] = i + 1;
	pthread_t t;
	pthread_create(&t, NULL, reader, tb);
	pthread_rwlock_wrlock(&tb->lock);
	tb->closed = 1;
	pthread_rwlock_unlock(&tb->lock);
	pthread_rwlock_destroy(&tb->lock); // race: destroyed
	free(tb); // race: freed // race: closed
	void *sum;
	pthread_join(t, &sum);
	printf("sum %ld\n", (long)sum);
	return 0;
}
