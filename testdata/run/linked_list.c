/* Heap data structures: a linked list with insertion sort, a growable array
 * with realloc, calloc'd counters. */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int v;
	struct node *next;
};

static struct node *insert_sorted(struct node *head, int v) {
	struct node *n = malloc(sizeof *n);
	n->v = v;
	if (!head || v < head->v) {
		n->next = head;
		return n;
	}
	struct node *p = head;
	while (p->next && p->next->v < v)
		p = p->next;
	n->next = p->next;
	p->next = n;
	return head;
}

int main(void) {
	struct node *head = NULL;
	int seed = 17;
	for (int i = 0; i < 30; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		head = insert_sorted(head, seed % 100);
	}
	int prev = -1, sorted = 1, n = 0;
	for (struct node *p = head; p; p = p->next, n++) {
		sorted &= p->v >= prev;
		prev = p->v;
		if (n < 10)
			printf("%d ", p->v);
	}
	printf("... n=%d sorted=%d\n", n, sorted);
	while (head) {
		struct node *next = head->next;
		free(head);
		head = next;
	}
	int cap = 1, len = 0;
	int *arr = malloc(cap * sizeof *arr);
	for (int i = 0; i < 1000; i++) {
		if (len == cap) {
			cap *= 2;
			arr = realloc(arr, cap * sizeof *arr);
		}
		arr[len++] = i * i;
	}
	printf("len %d cap %d last %d\n", len, cap, arr[len - 1]);
	free(arr);
	int *counts = calloc(26, sizeof *counts);
	for (const char *s = "the quick brown fox jumps over the lazy dog"; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			counts[*s - 'a']++;
	printf("o=%d e=%d z=%d\n", counts['o' - 'a'], counts['e' - 'a'], counts['z' - 'a']);
	free(counts);
	return 0;
}
