// args: one
/* A worker appends a record to a log by reading the log's length and
 * writing it back one larger; in append mode (first argument a) main
 * appends one as well, the same way, without the lock. main then prints
 * the length.
 *
 * len, len2: output-differs. With a, when both threads read the length
 * before either writes it back, one record is lost: main prints 1 instead
 * of 2. Each thread's read races with the other's write back: two races
 * on the same two lines.
 * lenw: output-differs. The two write-backs race too; holding one thread
 * before its write lets the other read the old length, and a record is
 * lost the same way.
 * Both need the input a and a switch between a thread's read and its
 * write-back. */
#include <pthread.h>
#include <stdio.h>

static int len;

static void append(void) {
	int n = len; // race: len output-differs // race: len2 output-differs
	len = n + 1; // race: len output-differs // race: len2 output-differs // race: lenw output-differs
}

static void *worker(void *arg) {
	(void)arg;
	append();
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (argc > 1 && argv[1][0] == 'a')
		append();
	pthread_join(t, NULL);
	printf("length %d\n", len);
	return 0;
}
