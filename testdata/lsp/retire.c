/* A reporter thread peeks at the current job while a finisher retires it:
 * the job is freed under the reporter's feet. The editor test checks that
 * each race diagnostic points at everything the race involves: the other
 * access, where the job was allocated, where the harmful order crashes,
 * where it freed the job, and who called the racing functions. (The read
 * of the pointer after the free, before it is cleared, fails too; `failure:` marks the use after free.) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	int id;
	int done;
};

static struct job *current;

static struct job *new_job(int id) {
	struct job *j = malloc(sizeof *j); // allocated
	j->id = id;
	j->done = 0;
	return j;
}

static void retire(void) {
	struct job *j = current;
	free(j);        // race: job spec-violated
	current = NULL; // race: current spec-violated
}

static int peek(void) {
	struct job *j = current; // race: current spec-violated
	if (j == NULL)
		return -1;
	return j->id; // race: job spec-violated // failure: memory-error
}

static void *finisher(void *arg) {
	(void)arg;
	retire();
	return NULL;
}

static void *reporter(void *arg) {
	(void)arg;
	printf("job %d\n", peek());
	return NULL;
}

int main(void) {
	current = new_job(7);
	pthread_t a, b;
	pthread_create(&a, NULL, reporter, NULL);
	pthread_create(&b, NULL, finisher, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
