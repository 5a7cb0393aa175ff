/* Hidden behind a narrow input: a debug flag bit (0x40) makes the
 * watchdog read the heartbeat counter without the lock. */
#include <pthread.h>
#include <stdio.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static unsigned flags;
static int heartbeat;

static void *beater(void *arg) {
	(void)arg;
	for (int i = 0; i < 4; i++) {
		pthread_mutex_lock(&m);
		heartbeat++; // race: beat output-differs
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static void *watchdog(void *arg) {
	(void)arg;
	int seen;
	if (flags & 0x40) {
		seen = heartbeat; // race: beat output-differs
	} else {
		pthread_mutex_lock(&m);
		seen = heartbeat;
		pthread_mutex_unlock(&m);
	}
	printf("seen %d\n", seen);
	return NULL;
}

int main(void) {
	flags = __VERIFIER_nondet_uchar();
	pthread_t b, w;
	pthread_create(&b, NULL, beater, NULL);
	pthread_create(&w, NULL, watchdog, NULL);
	pthread_join(b, NULL);
	pthread_join(w, NULL);
	return 0;
}
