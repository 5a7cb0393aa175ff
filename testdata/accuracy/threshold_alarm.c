// args: 9
/* A monitor samples a load figure that a worker raises from 2 to 8 without
 * synchronization, and prints an alarm when it is above the threshold
 * given on the command line (one digit).
 *
 * load: output-differs. With the seed threshold 9 neither value is above
 * it and both orders print "ok"; with a threshold from 2 to 7 the order
 * decides whether the alarm is printed. */
#include <pthread.h>
#include <stdio.h>

static int load = 2;
static int threshold = 9;

static void *worker(void *arg) {
	(void)arg;
	load = 8; // race: load output-differs
	return NULL;
}

static void *monitor(void *arg) {
	(void)arg;
	if (load > threshold) // race: load output-differs
		printf("ALARM\n");
	else
		printf("ok\n");
	return NULL;
}

int main(int argc, char **argv) {
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		threshold = argv[1][0] - '0';
	pthread_t w, m;
	pthread_create(&m, NULL, monitor, NULL);
	pthread_create(&w, NULL, worker, NULL);
	pthread_join(w, NULL);
	pthread_join(m, NULL);
	return 0;
}
