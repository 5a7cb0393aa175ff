/* An order violation: main starts the logger, then sets up the log
 * buffer the logger writes to. The logger does some work first, so it
 * usually finds the buffer; when it runs ahead of main it writes through
 * a null pointer.
 *
 * expect: crash (the line marked `bug:`)
 */
#include <pthread.h>
#include <stdlib.h>

static char *logbuf;
static int work[64];

static void *logger(void *arg) {
	(void)arg;
	int sum = 0;
	for (int i = 0; i < 64; i++)
		sum += work[i];
	logbuf[0] = (char)sum; // bug: crash
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, logger, 0);
	for (int i = 0; i < 64; i++)
		work[i] = i;
	logbuf = malloc(16);
	pthread_join(t, 0);
	free(logbuf);
	return 0;
}
