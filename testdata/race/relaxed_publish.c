/* Publishing data through a relaxed atomic flag: the flag itself does not
 * race, but it does not order the data either, so the data races. Under
 * sequential consistency the reader still cannot read the data before the
 * writer sets the flag (single-ordering); weak memory is another matter.
 * The same pattern with release/acquire (published) is correct. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static int data, published;
static atomic_int flag, good_flag;

static void *writer(void *arg) {
	(void)arg;
	data = 1; // race: relaxed single-ordering // pattern: ad-hoc-synchronization
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	published = 2;
	atomic_store_explicit(&good_flag, 1, memory_order_release);
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		;
	int d = data; // race: relaxed single-ordering
	while (!atomic_load_explicit(&good_flag, memory_order_acquire))
		;
	printf("%d %d\n", d, published);
	return NULL;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
