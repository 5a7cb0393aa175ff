/* A spinlock written in inline assembly (xchg, pause), as older C code
 * has it, guards the balance; the count of transfers is bumped outside
 * it. augur must see the xchg as the atomic exchange it is: the balance
 * does not race, the counter does. */
#include <pthread.h>
#include <stdio.h>

static volatile int lock;
static long balance = 100;
static int transfers;

static int xchg(volatile int *p, int v) {
	__asm__ __volatile__("xchgl %0,%1" : "=r"(v), "+m"(*p) : "0"(v) : "memory");
	return v;
}

static void *teller(void *arg) {
	long amount = (long)arg;
	for (int i = 0; i < 3; i++) {
		while (xchg(&lock, 1))
			__asm__ __volatile__("pause");
		balance += amount;
		xchg(&lock, 0);
		transfers++; // race: transfers output-differs
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, teller, (void *)5);
	pthread_create(&b, NULL, teller, (void *)-5);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("balance %ld after %d transfers\n", balance, transfers);
	return 0;
}
