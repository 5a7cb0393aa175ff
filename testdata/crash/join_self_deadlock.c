// expect: deadlock "all 1 live threads are blocked" line 0
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void) {
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	return 0;
}
