/* A bank account updated by two tellers without a lock, a flag both set to
 * the same value, and a receipt buffer freed by whichever teller finishes
 * last, checked without a lock. Both tellers can pass the check, so the
 * receipt's check and its free each race with the other teller's clearing
 * (a double free), and the two clearings race harmlessly with each other.
 * Used by the language server's tests: each race's category is written on
 * its access lines, two on a line that has two kinds of race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long balance = 100;
static int audited;
static char *receipt;

static void *teller(void *arg) {
	long amount = (long)arg;
	balance = balance + amount; // race: balance output-differs
	audited = 1; // race: audited k-witness-harmless
	if (receipt != NULL) { // race: receipt spec-violated
		free(receipt); // race: receipt spec-violated
		receipt = NULL; // race: receipt spec-violated // race: receipt k-witness-harmless
	}
	return NULL;
}

int main(void) {
	receipt = malloc(16);
	pthread_t a, b;
	pthread_create(&a, NULL, teller, (void *)10L);
	pthread_create(&b, NULL, teller, (void *)20L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("balance %ld audited %d\n", balance, audited);
	return 0;
}
