/* Check-then-act with a free: the sender checks that the connection is
 * open, then writes into its buffer; the closer marks it closed and frees
 * the buffer. A close between the check and the write is a write through
 * a freed buffer.
 *
 * expect: crash (the line marked `bug:`)
 */
#include <pthread.h>
#include <stdlib.h>

struct conn {
	int open;
	char *buf;
	int len;
};

static struct conn c;

static void *sender(void *arg) {
	(void)arg;
	if (c.open) {
		c.buf[c.len] = 'x'; // bug: crash
		c.len++;
	}
	return 0;
}

static void *closer(void *arg) {
	(void)arg;
	c.open = 0;
	free(c.buf);
	c.buf = 0;
	return 0;
}

int main(void) {
	c.buf = malloc(64);
	c.open = 1;
	pthread_t s, k;
	pthread_create(&s, 0, sender, 0);
	pthread_create(&k, 0, closer, 0);
	pthread_join(s, 0);
	pthread_join(k, 0);
	return 0;
}
