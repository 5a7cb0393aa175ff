/* A read-write lock protecting a table read by many and written by one;
 * then what locking it again says to the thread that holds it for
 * writing: a try fails with EBUSY, a lock that would wait for itself with
 * EDEADLK, as glibc's do. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int table[8];
static long reads_ok;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *reader(void *arg) {
	(void)arg;
	for (int i = 0; i < 20; i++) {
		pthread_rwlock_rdlock(&rw);
		int s = 0;
		for (int k = 0; k < 8; k++)
			s += table[k];
		pthread_rwlock_unlock(&rw);
		pthread_mutex_lock(&mu);
		reads_ok += s % 8 == 0;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 10; i++) {
		pthread_rwlock_wrlock(&rw);
		for (int k = 0; k < 8; k++)
			table[k] += 1;
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

int main(void) {
	pthread_t r[3], w;
	pthread_create(&w, NULL, writer, NULL);
	for (int i = 0; i < 3; i++)
		pthread_create(&r[i], NULL, reader, NULL);
	pthread_join(w, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(r[i], NULL);
	printf("table[0] %d consistent reads %ld\n", table[0], reads_ok);

	pthread_rwlock_wrlock(&rw);
	int tryrd = pthread_rwlock_tryrdlock(&rw);
	int trywr = pthread_rwlock_trywrlock(&rw);
	int rd = pthread_rwlock_rdlock(&rw);
	int wr = pthread_rwlock_wrlock(&rw);
	pthread_rwlock_unlock(&rw);
	printf("held for writing: tryrdlock %s, trywrlock %s\n", strerror(tryrd), strerror(trywr));
	printf("held for writing: rdlock %s, wrlock %s\n", strerror(rd), strerror(wr));
	return 0;
}
