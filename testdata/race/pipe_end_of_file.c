/* A worker sums what main writes to a pipe, through a stdio stream, and
 * main reads the worker's results once it has seen the end of file of a
 * second pipe, which the worker closes after writing them; the worker
 * reads main's settings once it has seen the first pipe's end. The kernel
 * orders a close before the end of file it makes, so there is no race,
 * through fclose of an fdopen'd stream and through close alike. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int numbers[2], results[2];
static long total;
static int scale;

static void *worker(void *arg) {
	(void)arg;
	FILE *in = fdopen(numbers[0], "r");
	long sum = 0, x;
	while (fscanf(in, "%ld", &x) == 1)
		sum += x;
	fclose(in);
	total = sum * scale;
	close(results[1]);
	return NULL;
}

int main(void) {
	if (pipe(numbers) != 0 || pipe(results) != 0)
		return 1;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	scale = 3;
	FILE *out = fdopen(numbers[1], "w");
	for (int i = 1; i <= 10; i++)
		fprintf(out, "%d\n", i);
	fclose(out);
	char c;
	while (read(results[0], &c, 1) > 0)
		;
	printf("total %ld\n", total);
	pthread_join(t, NULL);
	return 0;
}
