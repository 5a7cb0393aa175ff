/* errno from library calls and its messages through strerror and perror. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
	errno = 0;
	strtol("123456789012345678901234567890", NULL, 10);
	printf("strtol overflow: %s\n", strerror(errno));
	errno = EINVAL;
	perror("perror says");
	printf("codes: %s | %s | %s\n", strerror(ENOENT), strerror(EBUSY), strerror(0));
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&m);
	printf("trylock: %s\n", strerror(pthread_mutex_trylock(&m)));
	pthread_mutex_unlock(&m);
	FILE *f = fopen("/nonexistent/dir/file", "r");
	printf("fopen: %s (%s)\n", f ? "opened" : "failed", strerror(errno));
	return 0;
}
