/* Each worker writes its half's sum to a file main opened before it made
 * them, and main reads the file back after joining them: the order of the
 * two lines in the file, which main then prints, follows the schedule.
 * Writing a file, unlike printing, makes every schedule worth running.
 *
 * expect: not only
 */
#include <pthread.h>
#include <stdio.h>

#define N 4096

static int table[N];
static FILE *sums;

static void *sum(void *arg) {
	long k = (long)arg;
	long s = 0;
	for (int i = k * N / 2; i < (k + 1) * N / 2; i++)
		s += table[i];
	fprintf(sums, "half %ld: %ld\n", k, s);
	return NULL;
}

int main(void) {
	for (int i = 0; i < N; i++)
		table[i] = i % 7;
	sums = fopen("/tmp/sums.txt", "w+");
	if (!sums)
		return 1;
	pthread_t t[2];
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, sum, (void *)k);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	rewind(sums);
	char line[64];
	if (fgets(line, sizeof line, sums))
		printf("first: %s", line);
	fclose(sums);
	return 0;
}
