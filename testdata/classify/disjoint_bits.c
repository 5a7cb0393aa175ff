/* One thread sets bit 0 of a status word; the other reads only bit 1 of
 * it. The accesses race on the word, but the reader's result cannot depend
 * on the writer's bit. */
#include <pthread.h>
#include <stdio.h>

static unsigned status = 2;
static int saw_bit1;

static void *writer(void *arg) {
	(void)arg;
	status |= 1; // race: bits k-witness-harmless // pattern: disjoint-bits
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	saw_bit1 = (status & 2) != 0; // race: bits k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("bit 1 seen: %d\n", saw_bit1);
	return 0;
}
