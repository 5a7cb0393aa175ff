/* Hidden behind two inputs that pick slots of a table larger than the
 * objects augur reads whole at a symbolic offset (96 pointers, 768
 * bytes). Each bucket holds one node; main links bucket a's node to
 * bucket b's, and two sweepers then count hits in every bucket, each
 * under that bucket's lock, one upwards and one downwards. With a != b,
 * bucket b's node is reached under lock a and under lock b: the two
 * sweepers update it under different locks. The default inputs (0 and
 * 0) link nothing. The exploration must keep the slot a load picks
 * symbolic, so the pointer it loads forks over the nodes. Nothing is
 * printed, so the two orders end the same. */
#include <pthread.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

#define BUCKETS 96

struct node {
	long hits;
	struct node *next;
};

static struct node *head[BUCKETS];
static pthread_mutex_t lock[BUCKETS];

static void *sweep(void *arg) {
	int up = arg != NULL;
	for (int i = 0; i < BUCKETS; i++) {
		int k = up ? i : BUCKETS - 1 - i;
		pthread_mutex_lock(&lock[k]);
		for (struct node *n = head[k]; n != NULL; n = n->next)
			n->hits++; // race: hits k-witness-harmless
		pthread_mutex_unlock(&lock[k]);
	}
	return NULL;
}

int main(void) {
	for (int i = 0; i < BUCKETS; i++) {
		head[i] = calloc(1, sizeof(struct node));
		pthread_mutex_init(&lock[i], NULL);
	}
	int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
	if (a < 0 || a >= BUCKETS || b < 0 || b >= BUCKETS)
		return 0;
	if (a != b)
		head[a]->next = head[b];
	pthread_t up, down;
	pthread_create(&up, NULL, sweep, (void *)1);
	pthread_create(&down, NULL, sweep, NULL);
	pthread_join(up, NULL);
	pthread_join(down, NULL);
	return 0;
}
