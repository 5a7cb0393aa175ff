/* A work-stealing queue with the classic bug: the owner pops from the
 * bottom and a thief steals from the top, and the owner's pop does not
 * settle the race for the last item with a compare-and-swap, so the
 * owner and the thief can both take it.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

#define N 4

static int items[N];
static int done[N];
static long topi, bottom;

static void run(int item) {
	int was = __atomic_fetch_add(&done[item], 1, __ATOMIC_SEQ_CST);
	assert(was == 0); // bug: assert
}

static int owner_pop(void) {
	long b = __atomic_load_n(&bottom, __ATOMIC_SEQ_CST) - 1;
	__atomic_store_n(&bottom, b, __ATOMIC_SEQ_CST);
	long t = __atomic_load_n(&topi, __ATOMIC_SEQ_CST);
	if (t > b) {
		__atomic_store_n(&bottom, t, __ATOMIC_SEQ_CST);
		return -1;
	}
	return items[b]; /* bug: the last item needs a compare-and-swap on top */
}

static int steal(void) {
	long t = __atomic_load_n(&topi, __ATOMIC_SEQ_CST);
	long b = __atomic_load_n(&bottom, __ATOMIC_SEQ_CST);
	if (t >= b)
		return -1;
	int it = items[t];
	if (!__atomic_compare_exchange_n(&topi, &t, t + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return -1;
	return it;
}

static void *thief(void *arg) {
	(void)arg;
	for (int tries = 0; tries < 4; tries++) {
		int it = steal();
		if (it >= 0)
			run(it);
	}
	return 0;
}

int main(void) {
	for (int i = 0; i < N; i++)
		items[i] = i;
	bottom = N;
	pthread_t th;
	pthread_create(&th, 0, thief, 0);
	int it;
	while ((it = owner_pop()) >= 0)
		run(it);
	pthread_join(th, 0);
	return 0;
}
