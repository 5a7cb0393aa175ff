/* A helper translation unit with no main: on its own it is no target. */
int twice(int x) {
	return 2 * x;
}
