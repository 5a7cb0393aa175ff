/* Totals the orders listed in orders.txt, one amount a line, on two
 * threads. augur gives a program only the files it is told to (augur.toml's
 * files), so with no configuration the fopen below finds nothing and the
 * program takes its error path; the file exists in the workspace, and the
 * editor says so at the call, with the augur.toml line that gives it (an
 * information, code file-not-given). The VS Code end-to-end test copies
 * this file and an orders.txt into its workspace and hovers the call. */
#include <pthread.h>
#include <stdio.h>

static long amounts[64];
static int count;
static long totals[2];

static void *sum_half(void *arg) {
	long id = (long)arg;
	for (int i = (int)id; i < count; i += 2)
		totals[id] += amounts[i];
	return NULL;
}

int main(void) {
	FILE *in = fopen("orders.txt", "r");
	if (in == NULL) {
		perror("orders.txt");
		return 1;
	}
	while (count < 64 && fscanf(in, "%ld", &amounts[count]) == 1)
		count++;
	fclose(in);
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, sum_half, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d orders, %ld in all\n", count, totals[0] + totals[1]);
	return 0;
}
