/* Directory walks over the virtual file system's listings (opendir and
 * readdir, which list by name): scandir with alphasort, glob, and nftw
 * and ftw. What a walk finds is a real walk's; the order is the listing's
 * (by name), where a real file system lists in an order of its own. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char **__augur_append_words(char **v, size_t offs, size_t old, char **add, size_t n);
#define WEAK __attribute__((weak))

WEAK int alphasort(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

WEAK int scandir(const char *path, struct dirent ***out, int (*keep)(const struct dirent *),
		 int (*cmp)(const struct dirent **, const struct dirent **)) {
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent **list = NULL, *e;
	size_t n = 0, cap = 0;
	while ((e = readdir(d))) {
		if (keep && !keep(e))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			struct dirent **l = realloc(list, cap * sizeof *l);
			if (!l)
				goto fail;
			list = l;
		}
		if (!(list[n] = malloc(sizeof *e)))
			goto fail;
		memcpy(list[n++], e, sizeof *e);
	}
	closedir(d);
	if (cmp)
		qsort(list, n, sizeof *list, (int (*)(const void *, const void *))cmp);
	*out = list;
	return (int)n;
fail:
	while (n > 0)
		free(list[--n]);
	free(list);
	closedir(d);
	errno = ENOMEM;
	return -1;
}

/* glob expands each component of the pattern in turn. */
struct paths {
	char **v;
	size_t n, cap;
};

static int add(struct paths *p, const char *s, size_t extra) {
	if (p->n + 1 >= p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		char **v = realloc(p->v, cap * sizeof *v);
		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	char *c = malloc(strlen(s) + extra + 1);
	if (!c)
		return -1;
	strcpy(c, s);
	p->v[p->n++] = c;
	return 0;
}

static int has_magic(const char *s, size_t n, int noescape) {
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return 1;
		if (s[i] == '\\' && !noescape && i + 1 < n)
			i++;
	}
	return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* join writes base/name to path (name alone under an empty base). */
static void join(char *path, size_t n, const char *base, const char *name) {
	snprintf(path, n, "%s%s%s", base, *base && base[strlen(base) - 1] != '/' ? "/" : "", name);
}

/* expand matches the pattern's components from rest on under base. */
static int expand(const char *base, const char *rest, int flags, struct paths *out) {
	while (*rest == '/')
		rest++;
	if (!*rest)
		return add(out, base, 1);
	const char *slash = strchr(rest, '/');
	size_t len = slash ? (size_t)(slash - rest) : strlen(rest);
	char comp[256];
	if (len >= sizeof comp)
		return 0;
	memcpy(comp, rest, len);
	comp[len] = 0;
	const char *next = rest + len;
	char path[4096];
	if (!has_magic(comp, len, flags & GLOB_NOESCAPE)) {
		char lit[256];
		size_t k = 0;
		for (size_t i = 0; i < len; i++) {
			if (comp[i] == '\\' && !(flags & GLOB_NOESCAPE) && i + 1 < len)
				i++;
			lit[k++] = comp[i];
		}
		lit[k] = 0;
		join(path, sizeof path, base, lit);
		struct stat st;
		if (stat(path, &st) != 0 || (*next && !S_ISDIR(st.st_mode)))
			return 0;
		return expand(path, next, flags, out);
	}
	DIR *d = opendir(*base ? base : ".");
	if (!d)
		return 0;
	struct paths found = {0};
	struct dirent *e;
	int fl = FNM_PERIOD | (flags & GLOB_NOESCAPE ? FNM_NOESCAPE : 0);
	while ((e = readdir(d)))
		if (fnmatch(comp, e->d_name, fl) == 0 && add(&found, e->d_name, 0) < 0)
			break;
	closedir(d);
	qsort(found.v, found.n, sizeof *found.v, by_name);
	int r = 0;
	for (size_t i = 0; i < found.n && r == 0; i++) {
		join(path, sizeof path, base, found.v[i]);
		struct stat st;
		if (*next && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
			continue;
		r = expand(path, next, flags, out);
	}
	for (size_t i = 0; i < found.n; i++)
		free(found.v[i]);
	free(found.v);
	return r;
}

WEAK int glob(const char *pattern, int flags, int (*errfunc)(const char *, int), glob_t *g) {
	struct paths out = {0};
	size_t offs = flags & GLOB_DOOFFS ? g->gl_offs : 0;
	if (!(flags & GLOB_APPEND)) {
		g->gl_pathc = 0;
		g->gl_pathv = NULL;
	}
	int r = expand(*pattern == '/' ? "/" : "", pattern, flags, &out);
	if (r < 0)
		return GLOB_NOSPACE;
	if (out.n == 0 && (flags & GLOB_NOCHECK))
		add(&out, pattern, 0);
	if (out.n == 0)
		return GLOB_NOMATCH;
	if (flags & GLOB_MARK) {
		for (size_t i = 0; i < out.n; i++) {
			struct stat st;
			size_t l = strlen(out.v[i]);
			if (stat(out.v[i], &st) == 0 && S_ISDIR(st.st_mode) && l && out.v[i][l - 1] != '/')
				strcat(out.v[i], "/"); /* add() left room */
		}
	}
	if (!(flags & GLOB_NOSORT))
		qsort(out.v, out.n, sizeof *out.v, by_name);
	char **v = __augur_append_words(g->gl_pathv, offs, g->gl_pathc, out.v, out.n);
	if (!v)
		return GLOB_NOSPACE;
	free(out.v);
	g->gl_pathv = v;
	g->gl_pathc += out.n;
	return 0;
}

/* __augur_append_words appends the n strings of add to the vector v of
 * offs null slots and old strings (v NULL: none yet), keeping it
 * NULL-terminated: glob's and wordexp's results, with their DOOFFS and
 * APPEND flags. It returns the vector, NULL when out of memory (v is then
 * as it was). */
char **__augur_append_words(char **v, size_t offs, size_t old, char **add, size_t n) {
	int fresh = v == NULL;
	char **r = realloc(v, (offs + old + n + 1) * sizeof *r);
	if (!r)
		return NULL;
	if (fresh)
		for (size_t i = 0; i < offs; i++)
			r[i] = NULL;
	memcpy(r + offs + old, add, n * sizeof *r);
	r[offs + old + n] = NULL;
	return r;
}

WEAK void globfree(glob_t *g) {
	size_t offs = g->gl_offs;
	for (size_t i = 0; i < g->gl_pathc; i++)
		free(g->gl_pathv[offs + i]);
	free(g->gl_pathv);
	g->gl_pathv = NULL;
	g->gl_pathc = 0;
}

/* nftw visits path, then what it holds (or, with FTW_DEPTH, what it
 * holds first), stopping at the first nonzero the callback returns. */
typedef int (*nftw_fn)(const char *, const struct stat *, int, struct FTW *);

static int walk(char *path, size_t len, int level, nftw_fn fn, int flags) {
	struct stat st;
	struct FTW f = {0, level};
	const char *slash = strrchr(path, '/');
	f.base = slash && slash[1] ? (int)(slash - path + 1) : 0;
	if (stat(path, &st) != 0)
		return fn(path, &st, FTW_NS, &f);
	if (!S_ISDIR(st.st_mode))
		return fn(path, &st, FTW_F, &f);
	int r;
	if (!(flags & FTW_DEPTH) && (r = fn(path, &st, FTW_D, &f)))
		return r;
	DIR *d = opendir(path);
	if (!d)
		return fn(path, &st, FTW_DNR, &f);
	struct dirent *e;
	size_t dir = len; /* where the names under it go */
	if (path[len - 1] != '/')
		dir++;
	r = 0;
	while (!r && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		size_t n = strlen(e->d_name);
		if (dir + n + 1 > 4096)
			continue;
		path[dir - 1] = '/';
		memcpy(path + dir, e->d_name, n + 1);
		r = walk(path, dir + n, level + 1, fn, flags);
	}
	path[len] = 0;
	closedir(d);
	if (r)
		return r;
	return flags & FTW_DEPTH ? fn(path, &st, FTW_DP, &f) : 0;
}

WEAK int nftw(const char *path, nftw_fn fn, int nfds, int flags) {
	char buf[4096];
	size_t len = strlen(path);
	if (len >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	return walk(buf, len, 0, fn, flags);
}

static __thread int (*ftw_fn)(const char *, const struct stat *, int);
static int ftw_adapter(const char *p, const struct stat *st, int type, struct FTW *f) { return ftw_fn(p, st, type); }
WEAK int ftw(const char *path, int (*fn)(const char *, const struct stat *, int), int nfds) {
	ftw_fn = fn;
	return nftw(path, ftw_adapter, nfds, FTW_PHYS);
}
