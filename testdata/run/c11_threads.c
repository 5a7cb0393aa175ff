/* C11 threads (<threads.h>): thrd_create and thrd_join with the thread's
 * int result, mutexes plain, recursive and timed (trylock busy, timedlock
 * timing out), condition variables with a timed wait, thread-specific
 * storage with its destructor, call_once, thrd_sleep, thrd_current and
 * thrd_detach. They are the pthread calls underneath, so the counts below
 * hold under every schedule. Prints the same natively and under augur. */
#include <stdio.h>
#include <threads.h>
#include <time.h>

#define WORKERS 4
#define ROUNDS 100

static mtx_t lock, rec;
static cnd_t cond;
static long total;
static int arrived;
static once_flag once = ONCE_FLAG_INIT;
static int inits;
static tss_t key;
static int destroyed;

static void init(void) { inits++; }
static void dtor(void *p) {
	mtx_lock(&lock);
	destroyed++;
	mtx_unlock(&lock);
}

static void nested(int depth) {
	mtx_lock(&rec);
	if (depth > 0)
		nested(depth - 1);
	mtx_unlock(&rec);
}

static int worker(void *arg) {
	int id = (int)(long)arg;
	call_once(&once, init);
	tss_set(key, &total);
	for (int i = 0; i < ROUNDS; i++) {
		mtx_lock(&lock);
		total += id;
		mtx_unlock(&lock);
	}
	nested(3);
	mtx_lock(&lock);
	arrived++;
	cnd_broadcast(&cond);
	mtx_unlock(&lock);
	return id * 10;
}

static int sleeper(void *arg) {
	struct timespec d = {0, 1000000};
	return thrd_sleep(&d, NULL);
}

static struct timespec after(long ms) {
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	ts.tv_nsec += ms * 1000000;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

int main(void) {
	thrd_t t[WORKERS];
	printf("init %d %d %d\n", mtx_init(&lock, mtx_plain), mtx_init(&rec, mtx_plain | mtx_recursive),
	       cnd_init(&cond));
	printf("tss %d\n", tss_create(&key, dtor));
	for (long i = 0; i < WORKERS; i++)
		thrd_create(&t[i], worker, (void *)(i + 1));
	mtx_lock(&lock);
	while (arrived < WORKERS)
		cnd_wait(&cond, &lock);
	mtx_unlock(&lock);
	int sum = 0;
	for (int i = 0; i < WORKERS; i++) {
		int r;
		thrd_join(t[i], &r);
		sum += r;
	}
	printf("total %ld results %d inits %d destroyed %d\n", total, sum, inits, destroyed);

	mtx_t timed;
	mtx_init(&timed, mtx_timed);
	mtx_lock(&timed);
	printf("trylock while held %s\n", mtx_trylock(&timed) == thrd_busy ? "busy" : "?");
	mtx_unlock(&timed);
	printf("trylock free %d\n", mtx_trylock(&timed));
	mtx_unlock(&timed);
	mtx_lock(&lock);
	struct timespec soon = after(5);
	printf("cnd_timedwait %s\n", cnd_timedwait(&cond, &lock, &soon) == thrd_timedout ? "timedout" : "?");
	mtx_unlock(&lock);

	thrd_t s;
	int slept = -1;
	thrd_create(&s, sleeper, NULL);
	thrd_join(s, &slept);
	printf("sleeper %d equal-self %d\n", slept, thrd_equal(thrd_current(), thrd_current()) != 0);
	tss_delete(key);
	mtx_destroy(&timed);
	mtx_destroy(&rec);
	mtx_destroy(&lock);
	cnd_destroy(&cond);
	return 0;
}
