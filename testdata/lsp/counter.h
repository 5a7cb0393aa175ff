/* A hit counter whose increment is not atomic. Included by counter_main.c;
 * opened alone in an editor, it belongs to no program until that file is
 * analyzed, and then its race is shown here. */
#ifndef COUNTER_H
#define COUNTER_H

static long hits;

static inline void hit(void) {
	hits++; // race: hits output-differs
}

#endif
