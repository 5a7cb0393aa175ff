/* Two workers each store the process's id in a shared cache that main
 * already filled with the same value; a reporter prints it meanwhile.
 * The pattern of a redundant write (seed paper 001): the write leaves
 * the value that was there.
 *
 * store: k-witness-harmless. The two workers' writes race with each
 * other; either order leaves 7.
 * report: k-witness-harmless. The reporter reads 7 before or after a
 * write of 7: the same output. */
#include <pthread.h>
#include <stdio.h>

static int pid_cache;

static int my_pid(void) { return 7; }

static void *worker(void *arg) {
	(void)arg;
	pid_cache = my_pid(); // race: store k-witness-harmless // race: report k-witness-harmless
	return NULL;
}

static void *reporter(void *arg) {
	(void)arg;
	printf("pid %d\n", pid_cache); // race: report k-witness-harmless
	return NULL;
}

int main(void) {
	pid_cache = my_pid();
	pthread_t a, b, r;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_create(&r, NULL, reporter, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(r, NULL);
	return 0;
}
