/* A bytecode interpreter dispatching with labels as values (GCC's
 * computed goto), as CPython's and many others' do: a static table of
 * label addresses indexed by opcode, a jump through a pointer held in a
 * local, label addresses compared and stored, and two threads running
 * the same interpreter on their own programs. The output must be
 * native's. */
#include <pthread.h>
#include <stdio.h>

enum { PUSH, ADD, MUL, LOAD, STORE, JNZ, DEC, PRINT, HALT };

static long run(const long *code, const char *who) {
	static void *const dispatch[] = {&&push, &&add, &&mul, &&load, &&store, &&jnz, &&dec, &&print, &&halt};
	long stack[16], reg[4];
	int sp = 0, pc = 0;
	void *target;
#define NEXT() do { target = dispatch[code[pc++]]; goto *target; } while (0)
	NEXT();
push:
	stack[sp++] = code[pc++];
	NEXT();
add:
	sp--;
	stack[sp - 1] += stack[sp];
	NEXT();
mul:
	sp--;
	stack[sp - 1] *= stack[sp];
	NEXT();
load:
	stack[sp++] = reg[code[pc++]];
	NEXT();
store:
	reg[code[pc++]] = stack[--sp];
	NEXT();
jnz: {
	long to = code[pc++];
	if (stack[--sp] != 0)
		pc = (int)to;
	NEXT();
}
dec:
	stack[sp - 1]--;
	NEXT();
print:
	printf("%s: %ld\n", who, stack[sp - 1]);
	NEXT();
halt:
	printf("%s: the last jump was %s\n", who, target == &&halt ? "to halt" : "elsewhere");
	return stack[sp - 1];
#undef NEXT
}

/* acc = 1; n = 5; do { acc *= n; n--; } while (n); print acc */
static const long factorial[] = {PUSH, 1, STORE, 0, PUSH, 5, STORE, 1, LOAD, 0, LOAD, 1, MUL, STORE, 0, LOAD, 1, DEC,
                                 STORE, 1, LOAD, 1, JNZ, 8, LOAD, 0, PRINT, HALT};
static const long sum[] = {PUSH, 2, PUSH, 3, ADD, PUSH, 4, MUL, PRINT, HALT};

static void *worker(void *arg) {
	return (void *)run((const long *)arg, arg == factorial ? "factorial" : "sum");
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)factorial);
	pthread_join(a, NULL);
	pthread_create(&b, NULL, worker, (void *)sum);
	void *r;
	pthread_join(b, &r);
	printf("main: %ld\n", (long)r);
	return 0;
}
