/* Hidden behind lock order. A cache is refreshed every 16 lookups by the
 * thread that notices (under the lock), but the refresher bumps
 * `generation` after it drops the lock; a reader reads `generation`
 * unlocked to tag its result. The two accesses happen only when the
 * refresher's 16th lookup meets the other thread between two of its own
 * lock sections. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int lookups, cached = 7, generation;

static int lookup(void) {
	pthread_mutex_lock(&lock);
	int refresh = ++lookups % 16 == 0;
	if (refresh)
		cached++;
	int v = cached;
	pthread_mutex_unlock(&lock);
	if (refresh)
		generation++; // race: gen k-witness-harmless
	return v;
}

static void *client(void *arg) {
	long id = (long)arg;
	int sum = 0;
	for (int i = 0; i < 12; i++)
		sum += lookup();
	if (id == 1)
		sum += generation; // race: gen k-witness-harmless
	return (void *)(long)(sum > 0);
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, client, (void *)0L);
	pthread_create(&b, NULL, client, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("lookups %d\n", lookups);
	return 0;
}
