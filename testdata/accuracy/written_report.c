/* The race's consequence is in a file, not on the terminal: the worker
 * reads the mode main sets and writes it to report.txt, and the program
 * prints the same "done" either way. Which order ran shows only in the
 * file, so a comparison of what the program printed would call the race
 * harmless; augur compares the files a run leaves written too. */
#include <pthread.h>
#include <stdio.h>

static int mode = 1;

static void *worker(void *arg) {
	(void)arg;
	int m = mode; // race: mode output-differs
	FILE *f = fopen("report.txt", "w");
	if (f == NULL)
		return NULL;
	fprintf(f, "mode %d\n", m);
	fclose(f);
	return NULL;
}

int main(void) {
	pthread_t w;
	pthread_create(&w, NULL, worker, NULL);
	mode = 2; // race: mode output-differs
	pthread_join(w, NULL);
	puts("done");
	return 0;
}
