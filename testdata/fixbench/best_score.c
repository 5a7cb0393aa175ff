/* The best score so far: the judge updates it under its mutex, the
 * bonus round compares and stores without it, and a lower score can
 * overwrite a higher one. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t best_lock = PTHREAD_MUTEX_INITIALIZER;
static int best; // fix: atomic rejected

static void *judge(void *arg) {
	int scores[3] = {40, 90, 60};
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&best_lock);
		if (scores[i] > best)
			best = scores[i];
		pthread_mutex_unlock(&best_lock);
	}
	return NULL;
}

static void *bonus(void *arg) {
	int score = 70;
	if (score > best) // fix: lock best_lock verified
		best = score;
	return NULL;
}

int main(void) {
	pthread_t j, b;
	pthread_create(&j, NULL, judge, NULL);
	pthread_create(&b, NULL, bonus, NULL);
	pthread_join(j, NULL);
	pthread_join(b, NULL);
	printf("best %d\n", best);
	return 0;
}
