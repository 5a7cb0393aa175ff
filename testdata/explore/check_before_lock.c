/* Check, then act under the lock: the main thread checks the device's
 * closing flag before it takes the lock to register as a user; the
 * closer sets the flag, drops its own use under the lock and releases
 * the device once no user is left. When the main thread has checked the
 * flag (still clear) and the closer then runs its whole shutdown before
 * the main thread takes the lock, the main thread registers on a released
 * device. The switch that exposes it comes after the read of the flag and
 * before the lock, whose own preemption point is only after it is taken;
 * and the device lives on the main thread's stack, shared by its address.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

struct device {
	pthread_mutex_t lock;
	int users;
	bool closing;
	bool released;
};

static void *closer(void *arg) {
	struct device *d = arg;
	d->closing = true;
	pthread_mutex_lock(&d->lock);
	int left = --d->users;
	pthread_mutex_unlock(&d->lock);
	if (left == 0)
		d->released = true;
	return NULL;
}

int main(void) {
	struct device dev = {PTHREAD_MUTEX_INITIALIZER, 1, false, false};
	pthread_t t;
	pthread_create(&t, NULL, closer, &dev);
	if (!dev.closing) {
		pthread_mutex_lock(&dev.lock);
		dev.users++;
		pthread_mutex_unlock(&dev.lock);
		assert(!dev.released); // bug: assert
		pthread_mutex_lock(&dev.lock);
		dev.users--;
		pthread_mutex_unlock(&dev.lock);
	}
	pthread_join(t, NULL);
	return 0;
}
