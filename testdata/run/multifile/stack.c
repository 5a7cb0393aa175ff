#include <stdlib.h>
#include "stack.h"

struct stack {
	int *items;
	int n, cap;
};

int stack_pushes;

struct stack *stack_new(int cap) {
	struct stack *s = malloc(sizeof *s);
	s->items = malloc(cap * sizeof *s->items);
	s->n = 0;
	s->cap = cap;
	return s;
}

void stack_push(struct stack *s, int v) {
	if (s->n == s->cap) {
		s->cap *= 2;
		s->items = realloc(s->items, s->cap * sizeof *s->items);
	}
	s->items[s->n++] = v;
	stack_pushes++;
}

int stack_pop(struct stack *s) { return s->items[--s->n]; }
int stack_size(const struct stack *s) { return s->n; }

void stack_free(struct stack *s) {
	free(s->items);
	free(s);
}
