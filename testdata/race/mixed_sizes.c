/* The same memory accessed at different sizes: a struct copied whole and
 * then written field by field, a long written whole and one of its bytes
 * written alone. Only the overlapping accesses race; the detector must see
 * them whatever size the memory was first accessed at. */
#include <pthread.h>
#include <stdio.h>

struct pair {
	int a;
	int b;
};

static struct pair p;
static long word;

static void *child(void *arg) {
	p.b = 2;                // race: pair_b output-differs
	((char *)&word)[3] = 1; // race: word_byte output-differs
	return NULL;
}

int main(void) {
	struct pair init = {0, 0};
	p = init; /* a whole-struct copy before the thread exists: no race */
	pthread_t t;
	pthread_create(&t, NULL, child, NULL);
	p.a = 1;       /* another field than the child's: no race */
	int x = p.b;   // race: pair_b output-differs
	word = 5;      // race: word_byte output-differs
	pthread_join(t, NULL);
	printf("%d %d %ld\n", p.a, x, word);
	return 0;
}
