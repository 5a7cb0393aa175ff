// args: 3
/* Double-checked initialization of a table whose scale comes from the
 * command line (seed paper 001's double check): a thread that sees the
 * table unbuilt takes the lock and checks again before building it.
 *
 * built: k-witness-harmless. The unlocked check races with the build's
 * publication; a thread that reads 0 checks again under the lock, one
 * that reads 1 uses the finished table: the same output either way, for
 * any scale.
 * table: single-ordering. A thread that skips the lock reads the table
 * only after seeing it built, and the build writes the table before it
 * sets the flag: the read cannot come before the write. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int built;
static int table[4];
static int scale = 1;

static int lookup(int i) {
	if (!built) { // race: built k-witness-harmless
		pthread_mutex_lock(&mu);
		if (!built) {
			for (int k = 0; k < 4; k++)
				table[k] = k * scale; // race: table single-ordering
			built = 1; // race: built k-witness-harmless
		}
		pthread_mutex_unlock(&mu);
	}
	return table[i]; // race: table single-ordering
}

static void *user(void *arg) {
	long i = (long)arg;
	return (void *)(long)lookup((int)i);
}

int main(int argc, char **argv) {
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		scale = argv[1][0] - '0';
	pthread_t a, b;
	void *x, *y;
	pthread_create(&a, NULL, user, (void *)1L);
	pthread_create(&b, NULL, user, (void *)3L);
	pthread_join(a, &x);
	pthread_join(b, &y);
	printf("%ld %ld\n", (long)x, (long)y);
	return 0;
}
