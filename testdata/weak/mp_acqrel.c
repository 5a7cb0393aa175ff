/* Message passing with a release store and an acquire load of the flag:
 * the atomics keep their ordering, so a reader that sees the flag set sees
 * the data too, under either model.
 *
 * outcomes sc: 0,0 0,1 1,1
 * outcomes weak: 0,0 0,1 1,1
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static int data;
static atomic_int flag;
static int r1, r2;

static void *writer(void *arg) {
	(void)arg;
	data = 1;
	atomic_store_explicit(&flag, 1, memory_order_release);
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	r1 = atomic_load_explicit(&flag, memory_order_acquire);
	r2 = data;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d,%d\n", r1, r2);
	return 0;
}
