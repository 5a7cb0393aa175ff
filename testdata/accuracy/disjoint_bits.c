/* A status word packs a ready bit and a 7-bit count. A worker sets the
 * ready bit (a read-modify-write of the whole byte) while a reporter reads
 * the count bits. The pattern of disjoint bit manipulation (seed paper
 * 001): the accesses touch the same byte, but not the same bits.
 *
 * status: k-witness-harmless. The reporter reads count 5 whether the
 * ready bit is set before or after. */
#include <pthread.h>
#include <stdio.h>

struct status {
	unsigned char ready : 1;
	unsigned char count : 7;
};

static struct status st = {0, 5};

static void *worker(void *arg) {
	(void)arg;
	st.ready = 1; // race: status k-witness-harmless
	return NULL;
}

static void *reporter(void *arg) {
	(void)arg;
	printf("count %d\n", st.count); // race: status k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, reporter, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
