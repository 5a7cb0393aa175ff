/* Hidden behind a narrow input: with the default input one worker runs
 * and there is nobody to race with; the race on `slot` needs at least two
 * workers, and the program clamps the count it reads to 1..3. Two workers
 * that both see the slot free both claim it (claim): the program prints
 * "claimed" whichever claim is last. */
#include <pthread.h>
#include <stdio.h>

extern unsigned __VERIFIER_nondet_uint(void);

static int slot;

static void *worker(void *arg) {
	int id = (int)(long)arg;
	if (slot == 0)   // race: slot k-witness-harmless
		slot = id; // race: slot k-witness-harmless // race: claim k-witness-harmless
	return NULL;
}

int main(void) {
	unsigned n = __VERIFIER_nondet_uint();
	if (n < 1 || n > 3)
		n = 1;
	pthread_t t[3];
	for (unsigned i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)(i + 1));
	for (unsigned i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%s\n", slot ? "claimed" : "free");
	return 0;
}
