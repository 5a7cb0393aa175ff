/* A two-step update read half done, among 99 peers: each recorder stamps
 * under one lock, then derives a checksum from the stamp under another;
 * the auditor reads both and finds the checksum missing only when every
 * recorder that stamped is still between its two steps. PCT must stop all
 * of them there at once, a chance that falls with the number of peers;
 * a schedule that gathers the recorders where they all pass (the second
 * lock) reaches it among the first of its kind.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define RECORDERS 99

static pthread_mutex_t stamp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static int stamp, checksum;

static void *recorder(void *arg) {
	(void)arg;
	pthread_mutex_lock(&stamp_lock);
	stamp = 7; // race: stamp k-witness-harmless
	pthread_mutex_unlock(&stamp_lock);
	pthread_mutex_lock(&sum_lock);
	checksum = stamp * 3; // race: stamp k-witness-harmless
	pthread_mutex_unlock(&sum_lock);
	return NULL;
}

static void *auditor(void *arg) {
	(void)arg;
	pthread_mutex_lock(&stamp_lock);
	int s = stamp;
	pthread_mutex_unlock(&stamp_lock);
	if (s == 0)
		return NULL;
	pthread_mutex_lock(&sum_lock);
	int c = checksum;
	pthread_mutex_unlock(&sum_lock);
	assert(c == s * 3); // bug: assert
	return NULL;
}

int main(void) {
	pthread_t rec[RECORDERS], aud;
	for (int i = 0; i < RECORDERS; i++)
		pthread_create(&rec[i], NULL, recorder, NULL);
	pthread_create(&aud, NULL, auditor, NULL);
	for (int i = 0; i < RECORDERS; i++)
		pthread_join(rec[i], NULL);
	pthread_join(aud, NULL);
	puts("audited");
	return 0;
}
