/* A singly linked free list: the allocator pushes under the list's
 * mutex, the recycler pushes without it, and a node can be lost. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	int id;
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct node *head;
static struct node nodes[6];

static void *allocator(void *arg) {
	for (int i = 0; i < 3; i++) {
		struct node *n = &nodes[i];
		pthread_mutex_lock(&list_lock);
		n->next = head;
		head = n;
		pthread_mutex_unlock(&list_lock);
	}
	return NULL;
}

static void *recycler(void *arg) {
	for (int i = 3; i < 6; i++) {
		struct node *n = &nodes[i];
		n->next = head; // fix: lock list_lock verified
		head = n;
	}
	return NULL;
}

int main(void) {
	pthread_t a, r;
	pthread_create(&a, NULL, allocator, NULL);
	pthread_create(&r, NULL, recycler, NULL);
	pthread_join(a, NULL);
	pthread_join(r, NULL);
	int count = 0;
	for (struct node *n = head; n; n = n->next)
		count++;
	printf("free nodes %d\n", count);
	return 0;
}
