#ifndef STACK_H
#define STACK_H
struct stack;
extern int stack_pushes;
struct stack *stack_new(int cap);
void stack_push(struct stack *s, int v);
int stack_pop(struct stack *s);
int stack_size(const struct stack *s);
void stack_free(struct stack *s);
#endif
