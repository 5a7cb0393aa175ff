/* A bug that needs three preemptions. Two peers run a handshake over a
 * shared session, one locked step at a time: offer (initiator), counter
 * (responder), accept (initiator), confirm (responder), commit
 * (initiator). A peer that finds the session is not at its step skips
 * it, assuming the other gave up. The responder takes the channel when
 * it confirms, the initiator when it commits, and the design assumed
 * both never happen: they do when the steps alternate all the way, the
 * initiator stopped after its offer, the responder after its counter,
 * the initiator after its accept. Between steps each peer writes its
 * journal, under a lock of its own, so round robin's switch at every
 * lock does not line the steps up either.
 *
 * The bounded enumeration (two preemptions) and PCT of depths 2 and 3
 * cannot reach it; the exploration's deeper PCT schedules do.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t session = PTHREAD_MUTEX_INITIALIZER;
static int stage;  /* the handshake's next step, under session */
static int owners; /* peers that took the channel, under session */

static pthread_mutex_t journal_lock = PTHREAD_MUTEX_INITIALIZER;
static int journal[2];

static void write_journal(int peer, int entries) {
	for (int i = 0; i < entries; i++) {
		pthread_mutex_lock(&journal_lock);
		journal[peer]++;
		pthread_mutex_unlock(&journal_lock);
	}
}

/* advance moves the handshake past step `at` if it is there. */
static int advance(int at) {
	pthread_mutex_lock(&session);
	int moved = stage == at;
	if (moved)
		stage++;
	pthread_mutex_unlock(&session);
	return moved;
}

static void take_channel(void) {
	pthread_mutex_lock(&session);
	int now = ++owners;
	pthread_mutex_unlock(&session);
	assert(now == 1); // bug: assert
}

static void *initiator(void *arg) {
	advance(0); /* offer */
	write_journal(0, 5);
	advance(2); /* accept */
	write_journal(0, 3);
	if (advance(4)) /* commit */
		take_channel();
	return arg;
}

static void *responder(void *arg) {
	write_journal(1, 6);
	advance(1); /* counter */
	write_journal(1, 4);
	if (advance(3)) /* confirm */
		take_channel();
	return arg;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, initiator, 0);
	pthread_create(&b, 0, responder, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
