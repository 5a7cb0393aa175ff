/* POSIX regular expressions (regcomp, regexec, regerror, regfree), basic
 * and extended, with glibc's extensions that programs use: \| \+ \? in
 * basic ones, back references in both, REG_ICASE, REG_NEWLINE, REG_NOSUB,
 * REG_NOTBOL, REG_NOTEOL and REG_STARTEND. Bracket expressions take
 * ranges and the character classes ([:alpha:] ...) of the C locale; [=c=]
 * and [.c.] name single characters.
 *
 * A pattern compiles to a tree that regexec matches by backtracking,
 * exhaustively, so the match is POSIX's leftmost-longest: the earliest
 * start, and the longest match from it. Among the longest, the
 * subexpressions are those a backtracking search (greedy repetition,
 * alternatives in order) finds first, as Go's POSIX mode chooses; POSIX's
 * own subexpression rule differs on ambiguous patterns. A repetition
 * whose iteration matches nothing ends there, and a match that takes more
 * than MAX_STEPS steps gives REG_ESPACE rather than running away. */
#define _GNU_SOURCE
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#define WEAK __attribute__((weak))
#define MAX_GROUPS 64
#define MAX_STEPS 5000000

enum { N_CHAR, N_ANY, N_SET, N_BOL, N_EOL, N_GROUP, N_ALT, N_REP, N_BACKREF };

struct node {
	int type;
	struct node *next; /* the node after this one in its sequence */
	int c;             /* N_CHAR */
	unsigned char set[32]; /* N_SET: the bytes that match */
	int group;         /* N_GROUP, N_BACKREF: the subexpression's number */
	struct node *child; /* N_GROUP, N_REP: the body */
	struct node **alts; /* N_ALT: the alternatives */
	int nalts, capalts;
	int min, max;      /* N_REP: max -1 is unbounded */
};

struct program {
	struct node *root;
	struct node **all; /* every node, to free them */
	int nall, capall;
	int ngroups;
	int flags;
};

struct parser {
	const char *p;
	int ext, icase, newline;
	struct program *prog;
	int err;
};

/* push appends n to the array *arr of *len entries with room for *cap,
 * growing it. */
static int push(struct parser *ps, struct node ***arr, int *len, int *cap, struct node *n) {
	if (*len == *cap) {
		int c = *cap ? 2 * *cap : 8;
		struct node **a = realloc(*arr, c * sizeof *a);
		if (!a) {
			ps->err = REG_ESPACE;
			return -1;
		}
		*arr = a;
		*cap = c;
	}
	(*arr)[(*len)++] = n;
	return 0;
}

static struct node *new_node(struct parser *ps, int type) {
	struct node *n = calloc(1, sizeof *n);
	if (!n) {
		ps->err = REG_ESPACE;
		return NULL;
	}
	n->type = type;
	struct program *pr = ps->prog;
	if (push(ps, &pr->all, &pr->nall, &pr->capall, n) < 0) {
		free(n);
		return NULL;
	}
	return n;
}

static void set_add(unsigned char *set, int c) { set[(unsigned char)c >> 3] |= 1 << (c & 7); }
static int set_has(const unsigned char *set, int c) { return set[(unsigned char)c >> 3] >> (c & 7) & 1; }

static const struct {
	const char *name;
	int (*is)(int);
} classes[] = {{"alpha", isalpha}, {"digit", isdigit}, {"alnum", isalnum}, {"upper", isupper},
	       {"lower", islower}, {"space", isspace}, {"blank", isblank}, {"punct", ispunct},
	       {"print", isprint}, {"graph", isgraph}, {"cntrl", iscntrl}, {"xdigit", isxdigit}};

/* bracket parses a bracket expression after its '['. */
static struct node *bracket(struct parser *ps) {
	struct node *n = new_node(ps, N_SET);
	if (!n)
		return NULL;
	int negate = 0;
	if (*ps->p == '^') {
		negate = 1;
		ps->p++;
	}
	int first = 1;
	for (;;) {
		int c = (unsigned char)*ps->p;
		if (!c) {
			ps->err = first ? REG_BADPAT : REG_EBRACK; /* as glibc: "[" alone is no pattern */
			return NULL;
		}
		if (c == ']' && !first) {
			ps->p++;
			break;
		}
		first = 0;
		int lo;
		if (c == '[' && (ps->p[1] == ':' || ps->p[1] == '=' || ps->p[1] == '.')) {
			char kind = ps->p[1];
			const char *end = ps->p + 2;
			while (*end && !(end[0] == kind && end[1] == ']'))
				end++;
			if (!*end) {
				ps->err = REG_EBRACK;
				return NULL;
			}
			size_t len = end - (ps->p + 2);
			if (kind == ':') {
				int found = 0;
				for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
					if (strlen(classes[i].name) == len && strncmp(classes[i].name, ps->p + 2, len) == 0) {
						for (int b = 1; b < 256; b++)
							if (classes[i].is(b))
								set_add(n->set, b);
						found = 1;
					}
				}
				if (!found) {
					ps->err = REG_ECTYPE;
					return NULL;
				}
				ps->p = end + 2;
				continue;
			}
			if (len != 1) {
				ps->err = REG_ECOLLATE;
				return NULL;
			}
			lo = (unsigned char)ps->p[2];
			ps->p = end + 2;
		} else {
			lo = c;
			ps->p++;
		}
		int hi = lo;
		if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
			hi = (unsigned char)ps->p[1];
			ps->p += 2;
			/* An end point is not the start of another range. */
			if (hi < lo || (ps->p[0] == '-' && ps->p[1] != ']')) {
				ps->err = REG_ERANGE;
				return NULL;
			}
		}
		for (int b = lo; b <= hi; b++)
			set_add(n->set, b);
	}
	if (ps->icase) {
		for (int b = 0; b < 256; b++)
			if (set_has(n->set, b)) {
				set_add(n->set, tolower(b));
				set_add(n->set, toupper(b));
			}
	}
	if (negate) {
		for (int i = 0; i < 32; i++)
			n->set[i] = ~n->set[i];
		n->set[0] &= ~1; /* never NUL */
		if (ps->newline)
			n->set['\n' >> 3] &= ~(1 << ('\n' & 7));
	}
	return n;
}

static struct node *alternation(struct parser *ps, int depth);

/* interval parses the counts of {m}, {m,} or {m,n} after the brace. */
static int interval(struct parser *ps, int *min, int *max) {
	const char *p = ps->p;
	if (!isdigit((unsigned char)*p) && *p != ',')
		return REG_BADBR;
	*min = 0; /* {,n} is {0,n}, as glibc reads it */
	while (isdigit((unsigned char)*p))
		*min = *min * 10 + (*p++ - '0');
	*max = *min;
	if (*p == ',') {
		p++;
		*max = -1;
		if (isdigit((unsigned char)*p)) {
			*max = 0;
			while (isdigit((unsigned char)*p))
				*max = *max * 10 + (*p++ - '0');
		}
	}
	if (ps->ext ? *p != '}' : (p[0] != '\\' || p[1] != '}'))
		return *p ? REG_BADBR : REG_EBRACE;
	ps->p = p + (ps->ext ? 1 : 2);
	if (*min > 255 || *max > 255 || (*max >= 0 && *max < *min))
		return REG_BADBR;
	return 0;
}

/* repeat wraps atom in the repetitions that follow it: any number in an
 * extended pattern, one in a basic one (glibc refuses "a**"). A basic
 * pattern's '^' takes none: a '*' after it is a literal. */
static struct node *repeat(struct parser *ps, struct node *atom) {
	if (!ps->ext && atom->type == N_BOL)
		return atom;
	for (int reps = 0;; reps++) {
		const char *p = ps->p;
		int min, max;
		if (*p == '*') {
			min = 0, max = -1, ps->p++;
		} else if (ps->ext && *p == '+') {
			min = 1, max = -1, ps->p++;
		} else if (ps->ext && *p == '?') {
			min = 0, max = 1, ps->p++;
		} else if (!ps->ext && p[0] == '\\' && p[1] == '+') {
			min = 1, max = -1, ps->p += 2;
		} else if (!ps->ext && p[0] == '\\' && p[1] == '?') {
			min = 0, max = 1, ps->p += 2;
		} else if (ps->ext ? *p == '{' : (p[0] == '\\' && p[1] == '{')) {
			ps->p += ps->ext ? 1 : 2;
			if ((ps->err = interval(ps, &min, &max)))
				return NULL;
		} else {
			return atom;
		}
		if (atom->type == N_BOL || atom->type == N_EOL || (!ps->ext && reps > 0)) {
			ps->err = REG_BADRPT;
			return NULL;
		}
		struct node *r = new_node(ps, N_REP);
		if (!r)
			return NULL;
		r->child = atom;
		r->min = min;
		r->max = max;
		atom = r;
	}
}

/* group parses a subexpression, "(...)" or, in a basic pattern, "\\(...\\)",
 * from its opening. */
static struct node *group(struct parser *ps, int depth) {
	ps->p += ps->ext ? 1 : 2;
	struct node *g = new_node(ps, N_GROUP);
	if (!g)
		return NULL;
	g->group = ++ps->prog->ngroups;
	if (!(g->child = alternation(ps, depth + 1)) && ps->err)
		return NULL;
	if (ps->ext ? *ps->p != ')' : (ps->p[0] != '\\' || ps->p[1] != ')')) {
		ps->err = REG_EPAREN;
		return NULL;
	}
	ps->p += ps->ext ? 1 : 2;
	return g;
}

/* sequence parses a concatenation up to '|', ')' or the end. */
static struct node *sequence(struct parser *ps, int depth) {
	struct node *head = NULL, **tail = &head;
	int start = 1;
	for (;;) {
		const char *p = ps->p;
		int c = (unsigned char)*p;
		if (!c)
			break;
		if (ps->ext ? (c == '|' || (c == ')' && depth > 0)) : (c == '\\' && (p[1] == '|' || p[1] == ')')))
			break; /* a basic pattern's "\)" with no "\(" is an error, below */
		struct node *atom = NULL;
		if (ps->ext ? c == '(' : (c == '\\' && p[1] == '(')) {
			if (!(atom = group(ps, depth)))
				return NULL;		} else if (c == '[') {
			ps->p++;
			if (!(atom = bracket(ps)))
				return NULL;
		} else if (c == '.') {
			ps->p++;
			atom = new_node(ps, N_ANY);
		} else if (c == '^' && (ps->ext || start)) {
			ps->p++;
			atom = new_node(ps, N_BOL);
		} else if (c == '$' && (ps->ext || !p[1] || (p[1] == '\\' && (p[2] == ')' || p[2] == '|')))) {
			ps->p++;
			atom = new_node(ps, N_EOL);
		} else if (ps->ext && (c == '*' || c == '+' || c == '?' || c == '{') && start) {
			ps->err = REG_BADRPT;
			return NULL;
		} else if (c == '\\') {
			int e = (unsigned char)p[1];
			if (!e) {
				ps->err = REG_EESCAPE;
				return NULL;
			}
			ps->p += 2;
			if (e >= '1' && e <= '9') {
				if (e - '0' > ps->prog->ngroups) {
					ps->err = REG_ESUBREG;
					return NULL;
				}
				atom = new_node(ps, N_BACKREF);
				if (atom)
					atom->group = e - '0';
			} else {
				atom = new_node(ps, N_CHAR);
				if (atom)
					atom->c = e;
			}
		} else {
			ps->p++; /* a literal, and BRE's '*' at the start */
			atom = new_node(ps, N_CHAR);
			if (atom)
				atom->c = c;
		}
		if (!atom || !(atom = repeat(ps, atom)))
			return NULL;
		*tail = atom;
		tail = &atom->next;
		start = atom->type == N_BOL && !ps->ext;
	}
	return head;
}

/* fold_case makes every literal character of a REG_ICASE pattern the set
 * of its two cases. */
static void fold_case(struct program *pr) {
	for (int i = 0; i < pr->nall; i++) {
		struct node *n = pr->all[i];
		if (n->type == N_CHAR) {
			int c = n->c;
			n->type = N_SET;
			memset(n->set, 0, sizeof n->set);
			set_add(n->set, tolower(c));
			set_add(n->set, toupper(c));
		}
	}
}

/* at_bar reports whether the parser is at an alternation's bar. */
static int at_bar(struct parser *ps) { return ps->ext ? *ps->p == '|' : (ps->p[0] == '\\' && ps->p[1] == '|'); }

/* alternation parses branches separated by '|' (BRE: '\|'). */
static struct node *alternation(struct parser *ps, int depth) {
	struct node *first = sequence(ps, depth);
	if (ps->err)
		return NULL;
	if (!at_bar(ps))
		return first;
	struct node *alt = new_node(ps, N_ALT);
	if (!alt || push(ps, &alt->alts, &alt->nalts, &alt->capalts, first) < 0)
		return NULL;
	while (at_bar(ps)) {
		ps->p += ps->ext ? 1 : 2;
		struct node *b = sequence(ps, depth);
		if (ps->err || push(ps, &alt->alts, &alt->nalts, &alt->capalts, b) < 0)
			return NULL;
	}
	return alt;
}

static void free_program(struct program *pr) {
	for (int i = 0; i < pr->nall; i++) {
		free(pr->all[i]->alts);
		free(pr->all[i]);
	}
	free(pr->all);
	free(pr);
}

WEAK int regcomp(regex_t *preg, const char *pattern, int cflags) {
	struct program *pr = calloc(1, sizeof *pr);
	if (!pr)
		return REG_ESPACE;
	struct parser ps = {pattern, (cflags & REG_EXTENDED) != 0, (cflags & REG_ICASE) != 0, (cflags & REG_NEWLINE) != 0, pr, 0};
	pr->flags = cflags;
	pr->root = alternation(&ps, 0);
	if (!ps.err && *ps.p)
		ps.err = REG_EPAREN;
	if (!ps.err && pr->ngroups > MAX_GROUPS)
		ps.err = REG_ESIZE;
	if (ps.err) {
		free_program(pr);
		return ps.err;
	}
	if (ps.icase)
		fold_case(pr);
	memset(preg, 0, sizeof *preg);
	preg->buffer = (void *)pr;
	preg->re_nsub = pr->ngroups;
	return 0;
}

/* The matcher. A frame says what follows the end of a sequence: the rest
 * of an enclosing group, alternation or repetition. */
enum { F_GROUP, F_SEQ, F_REP };

struct frame {
	int kind;
	struct node *node;
	int start, count;
	struct frame *up;
};

struct matcher {
	const char *s;
	int len, eflags, flags;
	long steps;
	int exhausted;
	regoff_t caps[MAX_GROUPS + 1][2];
	int best;
	regoff_t best_caps[MAX_GROUPS + 1][2];
	int ngroups;
};

static void match(struct matcher *m, struct node *n, int pos, struct frame *fr);

static void repeat_from(struct matcher *m, struct node *n, int pos, int done, struct frame *up) {
	if (n->max < 0 || done < n->max) {
		struct frame f = {F_REP, n, pos, done, up};
		match(m, n->child, pos, &f);
	}
	if (done >= n->min)
		match(m, n->next, pos, up);
}

static int at_bol(struct matcher *m, int pos) {
	if (pos == 0)
		return !(m->eflags & REG_NOTBOL);
	return (m->flags & REG_NEWLINE) && m->s[pos - 1] == '\n';
}

static int at_eol(struct matcher *m, int pos) {
	if (pos == m->len)
		return !(m->eflags & REG_NOTEOL);
	return (m->flags & REG_NEWLINE) && m->s[pos] == '\n';
}

static void match(struct matcher *m, struct node *n, int pos, struct frame *fr) {
	for (;;) {
		if (m->best == m->len || m->exhausted)
			return; /* nothing can be longer */
		if (++m->steps > MAX_STEPS) {
			m->exhausted = 1;
			return;
		}
		if (!n) {
			if (!fr) {
				if (pos > m->best) {
					m->best = pos;
					memcpy(m->best_caps, m->caps, sizeof(regoff_t) * 2 * (m->ngroups + 1));
				}
				return;
			}
			if (fr->kind == F_GROUP) {
				int g = fr->node->group;
				regoff_t was0 = m->caps[g][0], was1 = m->caps[g][1];
				m->caps[g][0] = fr->start;
				m->caps[g][1] = pos;
				match(m, fr->node->next, pos, fr->up);
				m->caps[g][0] = was0;
				m->caps[g][1] = was1;
				return;
			}
			if (fr->kind == F_SEQ) {
				n = fr->node->next;
				fr = fr->up;
				continue;
			}
			/* F_REP: an iteration ended. One that matched nothing
			 * past the minimum ends the repetition: as glibc's, it
			 * counts (its subexpressions are set) when it is the
			 * first, and is dropped after one that matched. */
			if (pos == fr->start && fr->count + 1 > fr->node->min) {
				if (fr->count == 0)
					match(m, fr->node->next, pos, fr->up);
				return;
			}
			repeat_from(m, fr->node, pos, fr->count + 1, fr->up);
			return;
		}
		int c = pos < m->len ? (unsigned char)m->s[pos] : -1;
		switch (n->type) {
		case N_CHAR:
			if (c != n->c)
				return;
			pos++;
			break;
		case N_ANY:
			if (c < 0 || c == 0 || (c == '\n' && (m->flags & REG_NEWLINE)))
				return;
			pos++;
			break;
		case N_SET:
			if (c < 0 || !set_has(n->set, c))
				return;
			pos++;
			break;
		case N_BOL:
			if (!at_bol(m, pos))
				return;
			break;
		case N_EOL:
			if (!at_eol(m, pos))
				return;
			break;
		case N_BACKREF: {
			regoff_t b = m->caps[n->group][0], e = m->caps[n->group][1];
			if (b < 0)
				return;
			int k = e - b;
			if (pos + k > m->len)
				return;
			for (int i = 0; i < k; i++) {
				int x = (unsigned char)m->s[b + i], y = (unsigned char)m->s[pos + i];
				if (m->flags & REG_ICASE ? tolower(x) != tolower(y) : x != y)
					return;
			}
			pos += k;
			break;
		}
		case N_GROUP: {
			struct frame f = {F_GROUP, n, pos, 0, fr};
			match(m, n->child, pos, &f);
			return;
		}
		case N_ALT: {
			struct frame f = {F_SEQ, n, pos, 0, fr};
			for (int i = 0; i < n->nalts; i++)
				match(m, n->alts[i], pos, &f);
			return;
		}
		case N_REP:
			repeat_from(m, n, pos, 0, fr);
			return;
		}
		n = n->next;
	}
}

WEAK int regexec(const regex_t *preg, const char *string, size_t nmatch, regmatch_t pmatch[], int eflags) {
	struct program *pr = (struct program *)preg->buffer;
	if (!pr)
		return REG_BADPAT;
	int from = 0, to = strlen(string);
	if (eflags & REG_STARTEND) {
		from = pmatch[0].rm_so;
		to = pmatch[0].rm_eo;
	}
	struct matcher *m = malloc(sizeof *m);
	if (!m)
		return REG_ESPACE;
	m->s = string;
	m->len = to;
	m->eflags = eflags;
	m->flags = pr->flags;
	m->steps = 0;
	m->exhausted = 0;
	m->ngroups = pr->ngroups;
	int result = REG_NOMATCH;
	for (int start = from; start <= to; start++) {
		for (int g = 0; g <= pr->ngroups; g++)
			m->caps[g][0] = m->caps[g][1] = -1;
		m->best = -1;
		match(m, pr->root, start, NULL);
		if (m->exhausted) {
			result = REG_ESPACE;
			break;
		}
		if (m->best >= 0) {
			m->best_caps[0][0] = start;
			m->best_caps[0][1] = m->best;
			if (!(pr->flags & REG_NOSUB)) {
				for (size_t i = 0; i < nmatch; i++) {
					int in = (int)i <= pr->ngroups;
					pmatch[i].rm_so = in ? m->best_caps[i][0] : -1;
					pmatch[i].rm_eo = in ? m->best_caps[i][1] : -1;
				}
			}
			result = 0;
			break;
		}
	}
	free(m);
	return result;
}

WEAK void regfree(regex_t *preg) {
	if (preg->buffer)
		free_program((struct program *)preg->buffer);
	preg->buffer = NULL;
}

static const char *const messages[] = {
	[REG_NOERROR] = "Success",
	[REG_NOMATCH] = "No match",
	[REG_BADPAT] = "Invalid regular expression",
	[REG_ECOLLATE] = "Invalid collation character",
	[REG_ECTYPE] = "Invalid character class name",
	[REG_EESCAPE] = "Trailing backslash",
	[REG_ESUBREG] = "Invalid back reference",
	[REG_EBRACK] = "Unmatched [, [^, [:, [., or [=",
	[REG_EPAREN] = "Unmatched ( or \\(",
	[REG_EBRACE] = "Unmatched \\{",
	[REG_BADBR] = "Invalid content of \\{\\}",
	[REG_ERANGE] = "Invalid range end",
	[REG_ESPACE] = "Memory exhausted",
	[REG_BADRPT] = "Invalid preceding regular expression",
	[REG_EEND] = "Premature end of regular expression",
	[REG_ESIZE] = "Regular expression too big",
	[REG_ERPAREN] = "Unmatched ) or \\)",
};

WEAK size_t regerror(int code, const regex_t *preg, char *buf, size_t size) {
	(void)preg;
	const char *msg = code >= 0 && code < (int)(sizeof messages / sizeof messages[0]) && messages[code]
				  ? messages[code]
				  : "Invalid regular expression";
	size_t n = strlen(msg) + 1;
	if (size > 0) {
		size_t k = n < size ? n : size;
		memcpy(buf, msg, k - 1);
		buf[k - 1] = 0;
	}
	return n;
}
