/* A relaxation on a grid whose size comes from the arguments, in phases
 * separated by a barrier, as SPLASH-2 ocean's is: "-nN" sets the side
 * (258 without it, as ocean's), "-h" or anything else prints a usage line.
 * Two workers sweep half the rows each, from one copy of the grid into
 * the other (Jacobi: no row is written while the other reads it); between
 * sweeps each publishes its residual in a slot of its own and reads the
 * other's after the barrier: pairs ordered by the barrier and by no lock
 * both hold (potential races race-directed runs try in vain). Given
 * "-n16", the exploration of the arguments finds the default grid (an
 * empty argument, which is skipped), whose runs outgrow the instruction
 * budget, and usage paths with one thread: neither gets race-directed
 * runs or exploration schedules, and only two of the long ones are run
 * under the detector (cmd/augur's BenchmarkDetectionWithLongInputs prints
 * detection's time and peak RSS against a run). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int arrived, cycle;
static int n = 258, sweeps = 200;
static double *grid[2];
static double residual[2];
static double total;

static void barrier(void) {
	pthread_mutex_lock(&m);
	int c = cycle;
	if (++arrived == 2) {
		arrived = 0;
		cycle = !cycle;
		pthread_cond_broadcast(&cv);
	} else {
		while (c == cycle)
			pthread_cond_wait(&cv, &m);
	}
	pthread_mutex_unlock(&m);
}

static void *worker(void *arg) {
	long me = (long)arg;
	int lo = 1 + me * (n - 2) / 2, hi = 1 + (me + 1) * (n - 2) / 2;
	for (int s = 0; s < sweeps; s++) {
		double r = 0, *from = grid[s % 2], *to = grid[1 - s % 2];
		for (int i = lo; i < hi; i++)
			for (int j = 1; j < n - 1; j++) {
				double *c = &from[i * n + j];
				double v = (c[-1] + c[1] + c[-n] + c[n]) / 4;
				r += v > *c ? v - *c : *c - v;
				to[i * n + j] = v;
			}
		residual[me] = r;
		barrier();
		if (me == 0)
			total += residual[0] + residual[1];
		barrier();
	}
	return NULL;
}

int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == 0) /* an empty argument, as getopt skips it */
			continue;
		if (argv[i][0] == '-' && argv[i][1] == 'n') {
			n = atoi(argv[i] + 2);
		} else {
			printf("usage: %s [-nSIDE]\n", argv[0]);
			return 1;
		}
	}
	if (n < 4) {
		printf("usage: %s [-nSIDE], SIDE at least 4\n", argv[0]);
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		grid[k] = calloc((size_t)n * n, sizeof(double));
		for (int j = 0; j < n; j++)
			grid[k][j] = 1;
	}
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d %.6f\n", n, total);
	free(grid[0]);
	free(grid[1]);
	return 0;
}
