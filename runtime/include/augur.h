/* augur.h: the interface between an analyzed program and augur.
 *
 * A program that includes this header still compiles natively: outside augur
 * the functions fall back to plain behaviour (see the #else branch). */
#ifndef AUGUR_H
#define AUGUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __AUGUR__
/* Marks size bytes at addr as program input named name. */
void augur_make_symbolic(void *addr, size_t size, const char *name);
/* Fails the execution (a spec violation) when cond is false. */
void augur_assert(int cond, const char *message);
/* Restricts the inputs explored to those for which cond holds. */
void augur_assume(int cond);
#else
static inline void augur_make_symbolic(void *addr, size_t size, const char *name) { (void)addr; (void)size; (void)name; }
static inline void augur_assume(int cond) { (void)cond; }
#include <stdio.h>
#include <stdlib.h>
static inline void augur_assert(int cond, const char *message) {
	if (!cond) { fprintf(stderr, "augur_assert failed: %s\n", message); abort(); }
}
#endif

#ifdef __cplusplus
}
#endif
#endif
