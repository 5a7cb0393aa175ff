/* A partial program: checksum() is declared but defined nowhere (the
 * harness links it from elsewhere). augur cannot follow the call, so the
 * analysis is incomplete there; with --undefined=havoc the call returns an
 * unconstrained value and the analysis goes on to the race on total after
 * it.
 *
 * expect(stop):  incomplete at line 23 naming checksum, exit 4
 * expect(havoc): race on total, havoc lists checksum, exit 0
 */
#include <pthread.h>
#include <stdio.h>

int checksum(const char *buf, int n);

int total;

static void *worker(void *arg) {
	total += *(int *)arg;
	return NULL;
}

int main(void) {
	int c = checksum("abc", 3);
	pthread_t t;
	pthread_create(&t, NULL, worker, &c);
	total += 1;
	pthread_join(t, NULL);
	printf("%d\n", total > 0);
	return 0;
}
