/* A session table with a mutex per slot: logins count under the slot's
 * lock; the expiry sweep resets the count without it, and a login in
 * between is lost or counted after the reset. */
#include <pthread.h>
#include <stdio.h>

struct session {
	pthread_mutex_t lock;
	int logins; // fix: atomic rejected
	int expired;
};

static struct session table[2] = {{PTHREAD_MUTEX_INITIALIZER, 0, 0}, {PTHREAD_MUTEX_INITIALIZER, 0, 0}};

static void *login(void *arg) {
	for (int i = 0; i < 4; i++) {
		struct session *s = &table[i % 2];
		pthread_mutex_lock(&s->lock);
		s->logins++;
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

static void *expire(void *arg) {
	struct session *victim = &table[1];
	int n = victim->logins; // fix: lock victim->lock verified
	victim->expired += n;
	victim->logins = 0;
	return NULL;
}

int main(void) {
	pthread_t l, e;
	pthread_create(&l, NULL, login, NULL);
	pthread_create(&e, NULL, expire, NULL);
	pthread_join(l, NULL);
	pthread_join(e, NULL);
	printf("live+expired %d\n", table[1].logins + table[1].expired);
	return 0;
}
