#ifndef TALLY_H
#define TALLY_H

struct tally;

struct tally *tally_start(int workers);
void tally_wait(struct tally *t);
int tally_total(struct tally *t);
void log_line(const char *what, int n);

#endif
