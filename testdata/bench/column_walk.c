/* Two threads walk one matrix down its columns, as matrix codes do: a
 * worker doubles the right half while main sums every column without
 * waiting for it. Each access of a column walk is to another line of the
 * matrix, so the detector soon keeps its shadows in its wide leaf cache
 * (analyzer/detect/race/detector.go, leafOf); the race is found there as
 * it is in the sixteen leaves. */
#include <pthread.h>
#include <stdio.h>

#define N 128

static double m[N][N];

static void *twice(void *arg) {
	(void)arg;
	for (int j = N / 2; j < N; j++)
		for (int i = 0; i < N; i++)
			m[i][j] = 2 * m[i][j]; // race: m output-differs
	return NULL;
}

int main(void) {
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			m[i][j] = i + j;
	pthread_t t;
	pthread_create(&t, NULL, twice, NULL);
	double sum = 0;
	for (int j = 0; j < N; j++)
		for (int i = 0; i < N; i++)
			sum += m[i][j]; // race: m output-differs
	pthread_join(t, NULL);
	printf("%.0f\n", sum);
	return 0;
}
