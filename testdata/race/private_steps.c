/* Two workers, each under a mutex of its own, work on stack and heap
 * objects only they touch: a call's escaping array and a scratch block,
 * whose ids a later call of either thread may be given again. Only the
 * count of finished workers is shared, and racy. The enumeration's
 * reduction finds the workers' steps independent when the detector keeps
 * those objects private to their thread, and runs fewer schedules than
 * when it shadows every object, for the same race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t m[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static int totals[2];
static int hits; /* racy */

static int digest(const char *buf, int n) {
	int h = 0;
	for (int i = 0; i < n; i++)
		h = h * 31 + buf[i];
	return h;
}

static int fill(int id, int round) {
	char line[16]; /* its address escapes: a stack object per call */
	memset(line, 'a' + id + round, sizeof line);
	char *scratch = malloc(sizeof line);
	memcpy(scratch, line, sizeof line);
	int h = digest(scratch, sizeof line);
	free(scratch);
	return h;
}

static void *worker(void *arg) {
	int id = *(int *)arg;
	for (int round = 0; round < 3; round++) {
		int h = fill(id, round);
		pthread_mutex_lock(&m[id]);
		totals[id] += h & 1;
		pthread_mutex_unlock(&m[id]);
	}
	hits++; // race: hits output-differs
	return NULL;
}

int main(void) {
	pthread_t t[2];
	int ids[2] = {0, 1};
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &ids[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d %d\n", totals[0] + totals[1], hits);
	return 0;
}
