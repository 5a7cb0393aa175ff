// args: 1
/* Figure 6 of the Portend+ paper, with the request on the command line:
 * a request number is handed from a producer to a consumer through `slot`
 * without synchronization, and the consumer uses the slot as an index
 * into a table of four entries.
 *
 * slot: spec-violated. With the seed request 1 both orders are harmless
 * (the consumer reads 0 or 1). With a request from 4 to 9, the order in
 * which the consumer reads after the producer's write indexes past the
 * table. Only an analysis that explores the argument sees the harm. */
#include <pthread.h>
#include <stdio.h>

static int table[4];
static int slot;
static int request;

static void *producer(void *arg) {
	(void)arg;
	slot = request; // race: slot spec-violated
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	int i = slot; // race: slot spec-violated
	table[i] += 1;
	return NULL;
}

int main(int argc, char **argv) {
	request = 0;
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		request = argv[1][0] - '0';
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("%d %d\n", table[0], table[1]);
	return 0;
}
