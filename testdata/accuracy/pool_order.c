/* Two pool workers take tasks from a locked queue and print each as they
 * finish it, so the order of the lines depends on the schedule; they also
 * count finished tasks in a statistic without the lock, which nothing
 * prints. Output that any schedule may reorder is not the race's
 * consequence.
 *
 * finished: k-witness-harmless. Whichever order the two updates take,
 * every schedule prints the same set of lines in some order, and the
 * statistic is never printed. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int next_task;
static int finished;

static void *worker(void *arg) {
	long id = (long)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		int task = next_task < 4 ? next_task++ : -1;
		pthread_mutex_unlock(&mu);
		if (task < 0)
			break;
		printf("worker %ld did task %d\n", id, task);
		finished = finished + 1; // race: finished k-witness-harmless
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)1L);
	pthread_create(&b, NULL, worker, (void *)2L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("all done\n");
	return 0;
}
