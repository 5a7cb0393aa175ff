/* Two threads multiply two 240 by 240 matrices of doubles that main
 * filled before it made them, each computing every other row of the
 * product: compute code whose every read is of memory both threads
 * share, half of it walked down its columns. */
#include <pthread.h>
#include <stdio.h>

#define N 240
#define T 2

static double a[N][N], b[N][N], c[N][N];

static void *rows(void *arg) {
	for (int i = (int)(long)arg; i < N; i += T)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
	return NULL;
}

int main(void) {
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = i + j;
			b[i][j] = i - j;
		}
	pthread_t t[T];
	for (long i = 0; i < T; i++)
		pthread_create(&t[i], NULL, rows, (void *)i);
	for (int i = 0; i < T; i++)
		pthread_join(t[i], NULL);
	double sum = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += c[i][j];
	printf("%.0f\n", sum);
	return 0;
}
