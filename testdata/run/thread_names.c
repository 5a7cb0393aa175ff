/* Thread names: the program's file name at first, copied into each new
 * thread from its creator, set with pthread_setname_np (which refuses more
 * than 15 bytes) or prctl's PR_SET_NAME (which truncates to 15). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

static char seen[2][16];

static void *named_later(void *arg) {
	pthread_getname_np(pthread_self(), seen[0], sizeof seen[0]);
	prctl(PR_SET_NAME, "worker-with-a-long-name");
	prctl(PR_GET_NAME, seen[1]);
	return NULL;
}

int main(void) {
	char name[16];
	pthread_getname_np(pthread_self(), name, sizeof name);
	printf("main starts as %s\n", name);
	int tooLong = pthread_setname_np(pthread_self(), "a-name-of-sixteen");
	pthread_setname_np(pthread_self(), "dispatcher");
	pthread_getname_np(pthread_self(), name, sizeof name);
	char small[4];
	int tooSmall = pthread_getname_np(pthread_self(), small, sizeof small);
	printf("too long %s, too small %s, now %s\n", tooLong == ERANGE ? "ERANGE" : "?",
	       tooSmall == ERANGE ? "ERANGE" : "?", name);

	pthread_t t;
	pthread_create(&t, NULL, named_later, NULL);
	pthread_join(t, NULL);
	printf("worker starts as %s, renamed %s\n", seen[0], seen[1]);
	return 0;
}
