/* A check-then-use of a shared index: taker checks next < N, then indexes
 * use[next] with a second read of next; advancer increments next. Only an
 * increment between the check and the use writes out of bounds, which the
 * usual two post-race schedules rarely hit; because the racing value is
 * compared and indexes memory, classification tries more of them. The
 * read of next in the use races with the increment too; the exploration's
 * PCT schedules, which switch at the accesses of the races found, reach
 * it. */
#include <pthread.h>
#include <stdio.h>
#define N 4
int use[N];
int next;
void *taker(void *a) {
	for (int i = 0; i < 3; i++) {
		if (next < N) // race: check spec-violated
			use[next]++; // race: use spec-violated
	}
	return 0;
}
void *advancer(void *a) {
	for (int i = 0; i < 4; i++)
		next++; // race: check spec-violated // race: use spec-violated
	return 0;
}
int main(void) {
	pthread_t t, u;
	pthread_create(&t, 0, taker, 0);
	pthread_create(&u, 0, advancer, 0);
	pthread_join(t, 0);
	pthread_join(u, 0);

	return 0;
}
