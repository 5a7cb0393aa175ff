/* Two workers each make a helper for half of their rows and join it:
 * every thread works on memory of its own or memory its creator filled
 * before making it, but the two workers make their helpers in either
 * order, so which helper gets which thread id follows the schedule (a
 * program may act on its ids). Every schedule is worth running.
 *
 * expect: not only
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	double *rows;
	int from, to;
	double out;
};

static void *scale(void *arg) {
	struct job *j = arg;
	for (int i = j->from; i < j->to; i++)
		j->out += j->rows[i] * 0.5;
	return NULL;
}

static void *worker(void *arg) {
	struct job *j = arg;
	struct job half = {j->rows, j->from, (j->from + j->to) / 2, 0};
	pthread_t helper;
	pthread_create(&helper, NULL, scale, &half);
	j->from = half.to;
	scale(j);
	pthread_join(helper, NULL);
	j->out += half.out;
	return NULL;
}

int main(void) {
	double *rows = malloc(1000 * sizeof *rows);
	for (int i = 0; i < 1000; i++)
		rows[i] = i;
	struct job jobs[2] = {{rows, 0, 500, 0}, {rows, 500, 1000, 0}};
	pthread_t t[2];
	for (int k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, &jobs[k]);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("%.1f\n", jobs[0].out + jobs[1].out);
	free(rows);
	return 0;
}
