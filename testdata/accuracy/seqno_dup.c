/* Two threads take sequence numbers from a shared counter without the
 * lock and main checks that the numbers differ.
 *
 * seq: spec-violated. When one thread's read and write of the counter
 * surround the other's read, both take the same number and main's
 * assertion fails.
 * seqw: spec-violated. The two writes race too: holding the first
 * thread before its write while the second reads and writes, the first
 * then writes the number the second took. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int seq;

static void *taker(void *arg) {
	int *mine = arg;
	*mine = seq; // race: seq spec-violated
	seq = *mine + 1; // race: seq spec-violated // race: seqw spec-violated
	return NULL;
}

int main(void) {
	int a_no = -1, b_no = -1;
	pthread_t a, b;
	pthread_create(&a, NULL, taker, &a_no);
	pthread_create(&b, NULL, taker, &b_no);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(a_no != b_no);
	printf("numbers %d and %d\n", a_no < b_no ? a_no : b_no, a_no < b_no ? b_no : a_no);
	return 0;
}
