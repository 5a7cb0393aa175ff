/* Two threads each drive a coroutine of their own (ucontext) that counts
 * into a shared counter without a lock: the race is between the two
 * coroutines' increments, made on the stacks makecontext gave them, and
 * the count printed depends on it. Each coroutine's own tally, touched
 * only by its thread, does not race; main reads them after the joins. */
#include <pthread.h>
#include <stdio.h>
#include <ucontext.h>

static int counter;

struct coroutine {
	ucontext_t self, caller;
	char stack[32768];
	int tally;
};

static void body(struct coroutine *c) {
	for (int i = 0; i < 3; i++) {
		counter++; // race: counter output-differs
		c->tally++;
		swapcontext(&c->self, &c->caller);
	}
}

static void *drive(void *arg) {
	struct coroutine *c = arg;
	getcontext(&c->self);
	c->self.uc_stack.ss_sp = c->stack;
	c->self.uc_stack.ss_size = sizeof c->stack;
	c->self.uc_link = &c->caller;
	makecontext(&c->self, (void (*)(void))body, 1, c);
	for (int i = 0; i < 4; i++)
		swapcontext(&c->caller, &c->self);
	return NULL;
}

int main(void) {
	static struct coroutine a, b;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, drive, &a);
	pthread_create(&t2, NULL, drive, &b);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	printf("%d %d %d\n", counter, a.tally, b.tally);
	return 0;
}
