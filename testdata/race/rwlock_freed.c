/* A table closed under its reader. main fills the table under its write
 * lock, starting the reader meanwhile, marks the table closed, and then
 * destroys the lock and frees the table before it joins the reader. The
 * reader, blocked on the lock until main lets it go, takes a read-write
 * lock main is about to destroy, in memory main is about to free: its
 * lock races with the destroy and with the free, and its read of the flag
 * with the free. Each race's other order is a use after free. */
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
	pthread_rwlock_rdlock(&tb->lock); // race: destroyed spec-violated // race: freed spec-violated
	if (!tb->closed) // race: closed spec-violated
		for (int i = 0; i < 4; i++)
			sum += tb->rows[i];
	pthread_rwlock_unlock(&tb->lock);
	return (void *)(long)sum;
}

int main(void) {
	struct table *tb = calloc(1, sizeof *tb);
	pthread_rwlock_init(&tb->lock, NULL);
	pthread_rwlock_wrlock(&tb->lock);
	pthread_t t;
	pthread_create(&t, NULL, reader, tb);
	for (int i = 0; i < 4; i++)
		tb->rows[i] = i + 1;
	tb->closed = 1;
	pthread_rwlock_unlock(&tb->lock);
	pthread_rwlock_destroy(&tb->lock); // race: destroyed spec-violated
	free(tb); // race: freed spec-violated // race: closed spec-violated
	void *sum;
	pthread_join(t, &sum);
	printf("sum %ld\n", (long)sum);
	return 0;
}
