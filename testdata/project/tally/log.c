/* Part of the tally project (see main.c). */
#include <stdio.h>
#include "tally.h"

void log_line(const char *what, int n) { printf("%s: %d\n", what, n); }
