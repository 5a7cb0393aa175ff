/* Double-checked locking: the unlocked check races with the locked
 * initialization, but a reader that sees NULL takes the lock and checks
 * again (harmless). The final read can only follow the write: a reader gets
 * there first only through the lock the writer holds (single-ordering). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int *instance;

static int *get(void) {
	if (instance == NULL) { // race: dcl k-witness-harmless
		pthread_mutex_lock(&mu);
		if (instance == NULL) {
			int *p = malloc(sizeof *p);
			*p = 42;
			instance = p; // race: dcl k-witness-harmless // pattern: double-checked-initialization
		}
		pthread_mutex_unlock(&mu);
	}
	return instance; // race: dclret single-ordering
}

static void *user(void *arg) {
	(void)arg;
	return get();
}

int main(void) {
	pthread_t a, b;
	void *x, *y;
	pthread_create(&a, NULL, user, NULL);
	pthread_create(&b, NULL, user, NULL);
	pthread_join(a, &x);
	pthread_join(b, &y);
	printf("same instance %d, value %d\n", x == y, *(int *)x);
	return 0;
}
