/* Pancake flipping over every permutation of 1..n, in the style of the
 * Benchmarks Game's fannkuch-redux: integer array work, short loops and
 * many branches. argv[1] is n (default 8). Prints a checksum of the flip
 * counts and the largest count. */
#include <stdio.h>
#include <stdlib.h>

#define MAXN 12

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 8;
	if (n < 2 || n > MAXN)
		return 2;
	int perm[MAXN], work[MAXN];
	for (int i = 0; i < n; i++)
		perm[i] = i;
	long checksum = 0, index = 0;
	int most = 0;
	for (;;) {
		/* Flip the prefix headed by work[0] until 0 comes first. */
		for (int i = 0; i < n; i++)
			work[i] = perm[i];
		int flips = 0;
		for (int head = work[0]; head != 0; head = work[0]) {
			for (int lo = 0, hi = head; lo < hi; lo++, hi--) {
				int t = work[lo];
				work[lo] = work[hi];
				work[hi] = t;
			}
			flips++;
		}
		if (flips > most)
			most = flips;
		checksum += index % 2 == 0 ? flips : -flips;
		index++;
		/* The next permutation in lexicographic order. */
		int i = n - 2;
		while (i >= 0 && perm[i] > perm[i + 1])
			i--;
		if (i < 0)
			break;
		int j = n - 1;
		while (perm[j] < perm[i])
			j--;
		int t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) {
			t = perm[lo];
			perm[lo] = perm[hi];
			perm[hi] = t;
		}
	}
	printf("%ld\nflips(%d) = %d\n", checksum, n, most);
	return 0;
}
