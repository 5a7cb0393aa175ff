/* Lazy initialization without a lock: the check races with the publication,
 * and the table's contents, written before publication, race with the
 * readers that find it through the unsynchronized pointer. Either order of
 * the check and the publication builds an equal table, so those races are
 * harmless (a table may leak); a reader reads the contents only through
 * the pointer published after them, so that race has one order.
 * When both threads find the pointer null, their two publications race
 * too (found by the exploration's PCT schedules). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int *table;

static int *get_table(void) {
	int *cur = table; // race: publish k-witness-harmless
	if (cur == NULL) {
		int *t = malloc(16 * sizeof *t);
		for (int i = 0; i < 16; i++)
			t[i] = i * i; // race: contents single-ordering
		table = t; // race: publish k-witness-harmless // race: republish k-witness-harmless
		cur = t;
	}
	return cur;
}

static void *reader(void *arg) {
	int *t = get_table();
	return (void *)(long)t[(long)arg]; // race: contents single-ordering
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, reader, (void *)3L);
	pthread_create(&b, NULL, reader, (void *)4L);
	void *ra, *rb;
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	printf("%ld %ld\n", (long)ra, (long)rb);
	return 0;
}
