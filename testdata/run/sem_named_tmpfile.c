/* Named semaphores shared by threads (sem_open of one name gives one
 * semaphore; O_EXCL on an existing name fails with EEXIST, opening an
 * unlinked name without O_CREAT with ENOENT; an unlinked semaphore stays
 * usable until its last sem_close), and a temporary file (tmpfile, in
 * /tmp, which exists as on every system) read back line by line with
 * getline and getdelim. Prints the same natively and under augur. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "/augur-test-sem-named"
#define WORKERS 3

static long counter;

static void *worker(void *arg) {
	sem_t *s = sem_open(NAME, 0);
	if (s == SEM_FAILED)
		return (void *)1;
	for (int i = 0; i < 100; i++) {
		sem_wait(s);
		counter++;
		sem_post(s);
	}
	sem_close(s);
	return NULL;
}

int main(void) {
	sem_unlink(NAME); /* a leftover of an interrupted native run */
	sem_t *s = sem_open(NAME, O_CREAT | O_EXCL, 0600, 1);
	printf("created %d\n", s != SEM_FAILED);
	sem_t *again = sem_open(NAME, O_CREAT | O_EXCL, 0600, 1);
	printf("exclusive again: %s\n", again == SEM_FAILED && errno == EEXIST ? "EEXIST" : "?");
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	long failed = 0;
	for (int i = 0; i < WORKERS; i++) {
		void *r;
		pthread_join(t[i], &r);
		failed += (long)r;
	}
	printf("counter %ld failed %ld\n", counter, failed);
	printf("unlink %d\n", sem_unlink(NAME));
	sem_t *gone = sem_open(NAME, 0);
	printf("open unlinked: %s\n", gone == SEM_FAILED && errno == ENOENT ? "ENOENT" : "?");
	sem_post(s);
	int v = -1;
	sem_getvalue(s, &v);
	printf("still usable: value %d\n", v);
	printf("close %d\n", sem_close(s));

	FILE *f = tmpfile();
	printf("tmpfile %d\n", f != NULL);
	fputs("first line\nsecond, longer line with more text than the first\n\nlast without newline", f);
	rewind(f);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) != -1)
		printf("getline %zd [%.*s]\n", n, (int)(n && line[n - 1] == '\n' ? n - 1 : n), line);
	rewind(f);
	n = getdelim(&line, &cap, ',', f);
	printf("getdelim %zd [%s]\n", n, line);
	free(line);
	fclose(f);
	return 0;
}
