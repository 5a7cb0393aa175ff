/* An SV-COMP style harness: nondet inputs, an assumption, and the error
 * location reached only when x * x == 144 with x positive. */
// expect: assert "reach_error"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

int main(void) {
	int x = __VERIFIER_nondet_int();
	__VERIFIER_assume(x > 0 && x < 100);
	if (x * x == 144)
		reach_error();
	return 0;
}
