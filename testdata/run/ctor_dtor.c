/* Constructors and destructors with priorities, and atexit and on_exit
 * handlers: the order glibc runs them in (constructors by priority before
 * main, exit handlers last-registered first, on_exit's with the status,
 * then destructors in reverse). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor(102))) static void late_ctor(void) { printf("constructor 102\n"); }
__attribute__((constructor(101))) static void early_ctor(void) { printf("constructor 101\n"); }
__attribute__((constructor)) static void plain_ctor(void) { printf("constructor\n"); }

__attribute__((destructor(101))) static void last_dtor(void) { printf("destructor 101\n"); }
__attribute__((destructor(102))) static void first_dtor(void) { printf("destructor 102\n"); }
__attribute__((destructor)) static void plain_dtor(void) { printf("destructor\n"); }
__attribute__((destructor)) static void plain_dtor2(void) { printf("destructor 2\n"); }

static void handler1(void) { printf("atexit 1\n"); }
static void handler2(void) { printf("atexit 2\n"); }
static void with_status(int status, void *arg) { printf("on_exit %s: status %d\n", (const char *)arg, status); }

int main(void) {
	atexit(handler1);
	on_exit(with_status, "between");
	atexit(handler2);
	printf("main\n");
	return 3;
}
