/* wordexp: the shell's expansion of words, as a program expands a path or
 * a command line from its configuration: quoting (single, double, a
 * backslash), field splitting of unquoted expansions at the blanks,
 * parameters ($NAME, ${NAME}, ${#NAME}, ${NAME:-word}, ${NAME-word},
 * ${NAME:+word}, ${NAME+word}), arithmetic ($((...)) of integers with
 * + - * / % and parentheses), a leading tilde (the home directory, or a
 * user's), and file names matched by glob over the virtual file system
 * (a pattern that matches nothing stays a word), with glibc's error codes.
 * Command substitution needs a shell, which augur does not run: $(...)
 * and `...` are WRDE_CMDSUB whatever the flags (natively they run one
 * without WRDE_NOCMD); other forms of ${...} are WRDE_SYNTAX. Linked
 * only into programs that include <wordexp.h>. */
#include <ctype.h>
#include <glob.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#define WEAK __attribute__((weak))

char **__augur_append_words(char **v, size_t offs, size_t old, char **add, size_t n); /* dirwalk.c */

/* The fields made so far, and the one being made. */
struct fields {
	char **v;
	size_t n, cap;
	char *cur;
	size_t len, room;
	int exists; /* cur is a field: it has text, or quotes */
	int pattern; /* cur has an unquoted *, ? or [ */
	int err;
};

static void put(struct fields *f, char c) {
	if (f->len + 2 > f->room) {
		size_t room = f->room ? 2 * f->room : 32;
		char *p = realloc(f->cur, room);
		if (!p) {
			f->err = WRDE_NOSPACE;
			return;
		}
		f->cur = p;
		f->room = room;
	}
	f->cur[f->len++] = c;
	f->cur[f->len] = 0;
	f->exists = 1;
}

static void add(struct fields *f, char *s) {
	if (f->n + 1 > f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		char **v = realloc(f->v, cap * sizeof *v);
		if (!v) {
			free(s);
			f->err = WRDE_NOSPACE;
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = s;
}

/* end ends the current field: a pattern becomes the names it matches. */
static void end(struct fields *f) {
	if (!f->exists)
		return;
	char *s = f->cur ? f->cur : strdup("");
	f->cur = NULL;
	f->len = f->room = 0;
	f->exists = 0;
	glob_t g;
	if (f->pattern && glob(s, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			add(f, strdup(g.gl_pathv[i]));
		globfree(&g);
		free(s);
	} else
		add(f, s);
	f->pattern = 0;
}

/* expanded adds an expansion's value: quoted, to the field as it is;
 * unquoted, split at the blanks. */
static void expanded(struct fields *f, const char *v, int quoted) {
	if (quoted)
		f->exists = 1;
	for (; *v; v++) {
		if (!quoted && (*v == ' ' || *v == '\t' || *v == '\n'))
			end(f);
		else
			put(f, *v);
	}
}

/* Arithmetic: sum := term (('+'|'-') term)*, term := unary (('*'|'/'|'%')
 * unary)*, unary := ('-'|'+') unary | number | name | '(' sum ')'. */
static long sum(const char **p, int *bad);
static void blanks(const char **p) {
	while (**p == ' ' || **p == '\t')
		(*p)++;
}
static long unary(const char **p, int *bad) {
	blanks(p);
	if (**p == '-' || **p == '+') {
		int neg = *(*p)++ == '-';
		long v = unary(p, bad);
		return neg ? -v : v;
	}
	if (**p == '(') {
		(*p)++;
		long v = sum(p, bad);
		blanks(p);
		if (**p != ')')
			*bad = 1;
		else
			(*p)++;
		return v;
	}
	if (isdigit((unsigned char)**p)) {
		char *e;
		long v = strtol(*p, &e, 0);
		*p = e;
		return v;
	}
	if (isalpha((unsigned char)**p) || **p == '_') {
		char name[128];
		size_t k = 0;
		while ((isalnum((unsigned char)**p) || **p == '_') && k < sizeof name - 1)
			name[k++] = *(*p)++;
		name[k] = 0;
		const char *v = getenv(name);
		return v ? strtol(v, NULL, 0) : 0;
	}
	*bad = 1;
	return 0;
}
static long term(const char **p, int *bad) {
	long v = unary(p, bad);
	for (;;) {
		blanks(p);
		char op = **p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		(*p)++;
		long r = unary(p, bad);
		if (op != '*' && r == 0) {
			*bad = 1;
			return 0;
		}
		v = op == '*' ? v * r : op == '/' ? v / r : v % r;
	}
}
static long sum(const char **p, int *bad) {
	long v = term(p, bad);
	for (;;) {
		blanks(p);
		char op = **p;
		if (op != '+' && op != '-')
			return v;
		(*p)++;
		long r = term(p, bad);
		v = op == '+' ? v + r : v - r;
	}
}

/* parameter adds the value v of a plain $NAME or ${NAME}. glibc's fails
 * with WRDE_NOSPACE where a quoted one is set but empty and its field has
 * no text yet ("$EMPTY", "${EMPTY}x"), and so does this one: a program
 * sees what it sees natively. */
static int parameter(struct fields *f, const char *v, int quoted, int flags) {
	if (!v && (flags & WRDE_UNDEF))
		return WRDE_BADVAL;
	if (quoted && v && !*v && f->len == 0)
		return WRDE_NOSPACE;
	expanded(f, v ? v : "", quoted);
	return 0;
}

/* dollar expands the $ at *p (quoted: within double quotes) and moves *p
 * past it; a nonzero result is an error code. */
static int dollar(struct fields *f, const char **p, int quoted, int flags) {
	const char *s = *p + 1;
	char name[256];
	size_t k = 0;
	if (s[0] == '(' && s[1] == '(') {
		const char *close = strstr(s + 2, "))");
		if (!close)
			return WRDE_SYNTAX;
		char expr[256];
		size_t n = (size_t)(close - s - 2);
		if (n >= sizeof expr)
			return WRDE_SYNTAX;
		memcpy(expr, s + 2, n);
		expr[n] = 0;
		const char *e = expr;
		int bad = 0;
		long v = sum(&e, &bad);
		blanks(&e);
		if (bad || *e)
			return WRDE_SYNTAX;
		char out[32];
		snprintf(out, sizeof out, "%ld", v);
		expanded(f, out, quoted);
		*p = close + 2;
		return 0;
	}
	if (s[0] == '(')
		return WRDE_CMDSUB;
	if (s[0] != '{') {
		while ((isalnum((unsigned char)s[k]) || s[k] == '_') && k < sizeof name - 1) {
			name[k] = s[k];
			k++;
		}
		if (k == 0) { /* a lone $ is itself */
			put(f, '$');
			*p = s;
			return 0;
		}
		name[k] = 0;
		*p = s + k;
		return parameter(f, getenv(name), quoted, flags);
	}
	const char *close = strchr(s, '}');
	if (!close)
		return WRDE_SYNTAX;
	s++;
	int length = *s == '#';
	if (length)
		s++;
	while ((isalnum((unsigned char)*s) || *s == '_') && k < sizeof name - 1)
		name[k++] = *s++;
	name[k] = 0;
	if (k == 0)
		return WRDE_SYNTAX;
	const char *v = getenv(name);
	char word[256] = "";
	int colon = 0;
	char op = 0;
	if (s < close && !length) {
		colon = *s == ':';
		op = s[colon];
		if (op != '-' && op != '+')
			return WRDE_SYNTAX;
		size_t n = (size_t)(close - s - colon - 1);
		if (n >= sizeof word)
			return WRDE_SYNTAX;
		memcpy(word, s + colon + 1, n);
		word[n] = 0;
	} else if (s != close)
		return WRDE_SYNTAX;
	*p = close + 1;
	int set = v && (!colon || *v);
	if (op == '-' && !set)
		v = word;
	else if (op == '+')
		v = set ? word : "";
	if (!v && (flags & WRDE_UNDEF))
		return WRDE_BADVAL;
	if (length) {
		char n[32];
		snprintf(n, sizeof n, "%zu", v ? strlen(v) : 0);
		expanded(f, n, quoted);
		return 0;
	}
	if (op) {
		expanded(f, v ? v : "", quoted);
		return 0;
	}
	return parameter(f, v, quoted, flags);
}

/* tilde expands a ~ that starts a word: the home directory, or the named
 * user's; a name no user has stays as written. */
static void tilde(struct fields *f, const char **p) {
	const char *s = *p + 1;
	size_t n = strcspn(s, "/ \t");
	const char *home = NULL;
	if (n == 0)
		home = getenv("HOME");
	else {
		char user[64];
		if (n < sizeof user) {
			memcpy(user, s, n);
			user[n] = 0;
			struct passwd *pw = getpwnam(user);
			home = pw ? pw->pw_dir : NULL;
		}
	}
	if (!home) {
		put(f, '~');
		*p = s;
		return;
	}
	expanded(f, home, 1);
	*p = s + n;
}

static int expand(struct fields *f, const char *s, int flags) {
	while (*s && !f->err) {
		char c = *s;
		if (c == ' ' || c == '\t') {
			end(f);
			s++;
		} else if (strchr("|&;<>(){}\n", c)) {
			return WRDE_BADCHAR;
		} else if (c == '\\') {
			if (!s[1])
				return WRDE_SYNTAX;
			put(f, s[1]);
			s += 2;
		} else if (c == '\'') {
			const char *q = strchr(s + 1, '\'');
			if (!q)
				return WRDE_SYNTAX;
			f->exists = 1;
			for (s++; s < q; s++)
				put(f, *s);
			s++;
		} else if (c == '"') {
			f->exists = 1;
			for (s++; *s != '"'; ) {
				if (!*s)
					return WRDE_SYNTAX;
				if (*s == '\\' && s[1] && strchr("$`\"\\\n", s[1])) {
					put(f, s[1]);
					s += 2;
				} else if (*s == '$') {
					int r = dollar(f, &s, 1, flags);
					if (r)
						return r;
				} else if (*s == '`')
					return WRDE_CMDSUB;
				else
					put(f, *s++);
			}
			s++;
		} else if (c == '$') {
			int r = dollar(f, &s, 0, flags);
			if (r)
				return r;
		} else if (c == '`') {
			return WRDE_CMDSUB;
		} else if (c == '~' && !f->exists) {
			tilde(f, &s);
		} else {
			if (c == '*' || c == '?' || c == '[')
				f->pattern = 1;
			put(f, c);
			s++;
		}
	}
	end(f);
	return f->err;
}

WEAK void wordfree(wordexp_t *w) {
	if (!w || !w->we_wordv)
		return;
	for (size_t i = w->we_offs; i < w->we_offs + w->we_wordc; i++)
		free(w->we_wordv[i]);
	free(w->we_wordv);
	w->we_wordv = NULL;
	w->we_wordc = 0;
}

WEAK int wordexp(const char *restrict s, wordexp_t *restrict w, int flags) {
	if (flags & WRDE_REUSE)
		wordfree(w);
	if (!(flags & WRDE_APPEND)) {
		w->we_wordc = 0;
		w->we_wordv = NULL;
		if (!(flags & WRDE_DOOFFS))
			w->we_offs = 0;
	}
	struct fields f = {0};
	int r = expand(&f, s, flags);
	free(f.cur);
	if (r) {
		for (size_t i = 0; i < f.n; i++)
			free(f.v[i]);
		free(f.v);
		return r;
	}
	size_t offs = (flags & WRDE_DOOFFS) ? w->we_offs : 0;
	char **v = __augur_append_words(w->we_wordv, offs, w->we_wordc, f.v, f.n);
	if (!v) {
		for (size_t i = 0; i < f.n; i++)
			free(f.v[i]);
		free(f.v);
		return WRDE_NOSPACE;
	}
	free(f.v);
	w->we_wordv = v;
	w->we_wordc += f.n;
	w->we_offs = offs;
	return 0;
}
