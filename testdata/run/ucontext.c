/* Coroutines over ucontext, as coroutine libraries build them: a
 * generator that yields values to main with swapcontext, keeping its
 * locals (an array too) between the switches; two coroutines that pass
 * control to each other and end through uc_link chains; a pointer passed
 * as makecontext's argument; getcontext then setcontext as a loop; a
 * thread running coroutines of its own beside main's; and a coroutine
 * whose function returns with no successor, which exits the process.
 * The output must be native's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#define STACK (64 * 1024)

static ucontext_t main_ctx, gen_ctx, ping_ctx, pong_ctx, last_ctx;
static int yielded, gen_done;

static void generator(int from, int to) {
	int squares[8];
	for (int i = from; i <= to; i++) {
		squares[i - from] = i * i;
		yielded = squares[i - from];
		swapcontext(&gen_ctx, &main_ctx);
	}
	int sum = 0;
	for (int i = 0; i <= to - from; i++)
		sum += squares[i];
	printf("generator done, sum of squares %d\n", sum);
	gen_done = 1;
}

static void ping(void) {
	for (int i = 0; i < 3; i++) {
		printf("ping %d\n", i);
		swapcontext(&ping_ctx, &pong_ctx);
	}
	printf("ping ends\n");
}

static void pong(void) {
	for (int i = 0; i < 3; i++) {
		printf("pong %d\n", i);
		swapcontext(&pong_ctx, &ping_ctx);
	}
	printf("pong ends\n");
}

struct job {
	const char *name;
	int steps;
};

static void worker(struct job *j) {
	for (int i = 0; i < j->steps; i++)
		printf("%s step %d\n", j->name, i);
}

static ucontext_t t_sched, t_co[2];
static int t_turns[2];
static char t_stacks[2][STACK];

static void t_body(int id) {
	for (int i = 0; i < 2 + id; i++) {
		t_turns[id]++;
		swapcontext(&t_co[id], &t_sched);
	}
}

static void *thread_main(void *arg) {
	(void)arg;
	for (int id = 0; id < 2; id++) {
		getcontext(&t_co[id]);
		t_co[id].uc_stack.ss_sp = t_stacks[id];
		t_co[id].uc_stack.ss_size = STACK;
		t_co[id].uc_link = &t_sched;
		makecontext(&t_co[id], (void (*)(void))t_body, 1, id);
	}
	int done[2] = {0, 0}, switches = 0;
	while (!done[0] || !done[1]) {
		for (int id = 0; id < 2; id++) {
			if (done[id])
				continue;
			int before = t_turns[id];
			swapcontext(&t_sched, &t_co[id]);
			switches++;
			if (t_turns[id] == before)
				done[id] = 1; /* it returned through uc_link */
		}
	}
	return (void *)(long)switches;
}

int main(void) {
	static char gen_stack[STACK], ping_stack[STACK], pong_stack[STACK], job_stack[STACK], last_stack[STACK];

	getcontext(&gen_ctx);
	gen_ctx.uc_stack.ss_sp = gen_stack;
	gen_ctx.uc_stack.ss_size = sizeof gen_stack;
	gen_ctx.uc_link = &main_ctx;
	makecontext(&gen_ctx, (void (*)(void))generator, 2, 3, 7);
	while (!gen_done) {
		swapcontext(&main_ctx, &gen_ctx);
		if (!gen_done)
			printf("yielded %d\n", yielded);
	}

	getcontext(&ping_ctx);
	ping_ctx.uc_stack.ss_sp = ping_stack;
	ping_ctx.uc_stack.ss_size = sizeof ping_stack;
	ping_ctx.uc_link = &pong_ctx;
	makecontext(&ping_ctx, ping, 0);
	getcontext(&pong_ctx);
	pong_ctx.uc_stack.ss_sp = pong_stack;
	pong_ctx.uc_stack.ss_size = sizeof pong_stack;
	pong_ctx.uc_link = &main_ctx;
	makecontext(&pong_ctx, pong, 0);
	swapcontext(&main_ctx, &ping_ctx);
	printf("back in main after ping and pong\n");

	struct job j = {"job", 2};
	ucontext_t job_ctx;
	getcontext(&job_ctx);
	job_ctx.uc_stack.ss_sp = job_stack;
	job_ctx.uc_stack.ss_size = sizeof job_stack;
	job_ctx.uc_link = &main_ctx;
	makecontext(&job_ctx, (void (*)(void))worker, 1, &j);
	swapcontext(&main_ctx, &job_ctx);

	volatile int rounds = 0;
	ucontext_t again;
	getcontext(&again);
	if (++rounds < 3)
		setcontext(&again);
	printf("getcontext resumed %d times\n", rounds - 1);

	pthread_t t;
	void *switches;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, &switches);
	printf("thread's coroutines: %d and %d turns, %ld switches\n", t_turns[0], t_turns[1], (long)switches);

	getcontext(&last_ctx);
	last_ctx.uc_stack.ss_sp = last_stack;
	last_ctx.uc_stack.ss_size = sizeof last_stack;
	last_ctx.uc_link = NULL;
	makecontext(&last_ctx, (void (*)(void))worker, 1, &(struct job){"last", 1});
	setcontext(&last_ctx);
	printf("not reached\n");
	return 1;
}
