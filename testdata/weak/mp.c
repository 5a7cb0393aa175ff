/* Message passing litmus test: one thread writes data then a flag, the
 * other reads the flag then the data. Under sequential consistency seeing
 * the flag set means seeing the data; under the weak model the reader may
 * see the flag's store before the data's (outcome 1,0).
 *
 * outcomes sc: 0,0 0,1 1,1
 * outcomes weak: 0,0 0,1 1,0 1,1
 */
#include <pthread.h>
#include <stdio.h>

static int data, flag;
static int r1, r2;

static void *writer(void *arg) {
	(void)arg;
	data = 1;
	flag = 1;
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	r1 = flag;
	r2 = data;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d,%d\n", r1, r2);
	return 0;
}
