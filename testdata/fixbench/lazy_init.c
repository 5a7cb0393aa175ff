/* Lazy initialization: the slow path loads the table under a mutex, the
 * fast path in the report thread checks and loads without it, and the
 * table can be loaded twice. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int *table;
static int loads; // fix: atomic rejected

static int *load(void) {
	loads++; // fix: lock init_lock rejected
	int *t = calloc(4, sizeof *t);
	t[0] = 7;
	return t;
}

static void *worker(void *arg) {
	pthread_mutex_lock(&init_lock);
	if (table == NULL)
		table = load();
	pthread_mutex_unlock(&init_lock);
	return NULL;
}

static void *report(void *arg) {
	if (table == NULL) // fix: lock init_lock verified
		table = load();
	return NULL;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&r, NULL, report, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("loads %d, first %d\n", loads, table[0]);
	return 0;
}
