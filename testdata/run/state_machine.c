/* A tokenizer written as a state machine with goto and switch, run over a
 * small arithmetic language, then evaluated with a recursive-descent
 * parser. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

enum kind { NUM, OP, LP, RP, END };
struct tok {
	enum kind k;
	long v;
	char op;
};
static struct tok toks[64];
static int ntok, pos;

static void lex(const char *s) {
	ntok = 0;
start:
	while (*s == ' ')
		s++;
	if (!*s) {
		toks[ntok++] = (struct tok){END, 0, 0};
		return;
	}
	if (isdigit((unsigned char)*s))
		goto number;
	switch (*s) {
	case '(':
		toks[ntok++] = (struct tok){LP, 0, '('};
		break;
	case ')':
		toks[ntok++] = (struct tok){RP, 0, ')'};
		break;
	default:
		toks[ntok++] = (struct tok){OP, 0, *s};
	}
	s++;
	goto start;
number:
	toks[ntok].k = NUM;
	toks[ntok].v = strtol(s, (char **)&s, 10);
	ntok++;
	goto start;
}

static long expr(void);
static long atom(void) {
	struct tok t = toks[pos++];
	if (t.k == NUM)
		return t.v;
	if (t.k == OP && t.op == '-')
		return -atom();
	long v = expr();
	pos++; /* ')' */
	return v;
}
static long term(void) {
	long v = atom();
	while (toks[pos].k == OP && (toks[pos].op == '*' || toks[pos].op == '/' || toks[pos].op == '%')) {
		char op = toks[pos++].op;
		long r = atom();
		v = op == '*' ? v * r : op == '/' ? v / r : v % r;
	}
	return v;
}
static long expr(void) {
	long v = term();
	while (toks[pos].k == OP && (toks[pos].op == '+' || toks[pos].op == '-')) {
		char op = toks[pos++].op;
		long r = term();
		v = op == '+' ? v + r : v - r;
	}
	return v;
}

int main(void) {
	const char *inputs[] = {"1 + 2 * 3", "(1 + 2) * 3", "100 / 7 % 5", "-(4 - 10) * -2", "2*(3+(4*(5+6)))"};
	for (int i = 0; i < 5; i++) {
		lex(inputs[i]);
		pos = 0;
		printf("%s = %ld (%d tokens)\n", inputs[i], expr(), ntok);
	}
	return 0;
}
