/* Recursion: fibonacci, Ackermann, mutual recursion, Towers of Hanoi. */
#include <stdio.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) {
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}
static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int moves;
static void hanoi(int n, char from, char to, char via) {
	if (n == 0)
		return;
	hanoi(n - 1, from, via, to);
	moves++;
	if (n == 4)
		printf("move disk 4 %c->%c\n", from, to);
	hanoi(n - 1, via, to, from);
}

int main(void) {
	printf("fib %ld\n", fib(20));
	printf("ack %d\n", ack(2, 3));
	printf("parity %d %d\n", is_even(100), is_odd(77));
	hanoi(6, 'A', 'C', 'B');
	printf("moves %d\n", moves);
	return 0;
}
