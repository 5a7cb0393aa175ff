/* A ledger that a clerk posts to while an auditor prints it; main closes
 * the ledger once the clerk is done, forgetting the auditor. The auditor
 * reads the amount posted unlocked (it prints either amount), and it can
 * read the ledger after main freed it (a use after free in one order). The VS Code end-to-end test checks what the editor
 * shows for each racing line below, and for the use after free (`failure:`). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct ledger {
	int entries;
	long total;
};

static struct ledger *book;
static long posted;

static void post(long amount) {
	book->total += amount;
	book->entries++; // race: entries output-differs
	posted += amount; // race: posted output-differs
}

static void *clerk(void *arg) {
	(void)arg;
	post(250);
	return NULL;
}

static void *auditor(void *arg) {
	(void)arg;
	printf("posted %ld\n", posted); // race: posted output-differs
	printf("entries %d\n", book->entries); // race: entries output-differs // race: closed spec-violated // failure: memory-error
	return NULL;
}

int main(void) {
	book = calloc(1, sizeof *book);
	pthread_t c, a;
	pthread_create(&c, NULL, clerk, NULL);
	pthread_create(&a, NULL, auditor, NULL);
	pthread_join(c, NULL);
	free(book); // race: closed spec-violated
	pthread_join(a, NULL);
	return 0;
}
