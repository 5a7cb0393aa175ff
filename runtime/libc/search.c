/* <search.h>: binary trees (tsearch, tfind, tdelete, twalk, tdestroy),
 * linear search (lfind, lsearch) and the one hash table (hcreate,
 * hsearch, hdestroy). The trees are unbalanced binary search trees: the
 * order twalk visits, and what tfind finds, are POSIX's; only the shape
 * (and so twalk's depth argument) can differ from glibc's red-black
 * trees. */
#define _GNU_SOURCE
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#define WEAK __attribute__((weak))

/* A node starts with the key pointer, as POSIX's node is read: a result
 * of tsearch or tfind points to it. */
struct tnode {
	const void *key;
	struct tnode *left, *right;
};

typedef int (*compare_fn)(const void *, const void *);

WEAK void *tfind(const void *key, void *const *root, compare_fn cmp) {
	if (!root)
		return NULL;
	struct tnode *n = *root;
	while (n) {
		int c = cmp(key, n->key);
		if (c == 0)
			return n;
		n = c < 0 ? n->left : n->right;
	}
	return NULL;
}

WEAK void *tsearch(const void *key, void **root, compare_fn cmp) {
	if (!root)
		return NULL;
	struct tnode **at = (struct tnode **)root;
	while (*at) {
		int c = cmp(key, (*at)->key);
		if (c == 0)
			return *at;
		at = c < 0 ? &(*at)->left : &(*at)->right;
	}
	struct tnode *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->key = key;
	*at = n;
	return n;
}

/* tdelete returns the deleted node's parent (or, for the root, an
 * unspecified non-null pointer: the new root's, or the root pointer). */
WEAK void *tdelete(const void *key, void **root, compare_fn cmp) {
	if (!root || !*root)
		return NULL;
	struct tnode **at = (struct tnode **)root, *parent = NULL;
	while (*at) {
		int c = cmp(key, (*at)->key);
		if (c == 0)
			break;
		parent = *at;
		at = c < 0 ? &(*at)->left : &(*at)->right;
	}
	struct tnode *n = *at;
	if (!n)
		return NULL;
	if (!n->left) {
		*at = n->right;
	} else if (!n->right) {
		*at = n->left;
	} else { /* the successor takes its place */
		struct tnode **s = &n->right;
		while ((*s)->left)
			s = &(*s)->left;
		struct tnode *succ = *s;
		*s = succ->right;
		succ->left = n->left;
		succ->right = n->right;
		*at = succ;
	}
	free(n);
	return parent ? (void *)parent : (void *)root;
}

static void walk(const struct tnode *n, void (*action)(const void *, VISIT, int), int depth) {
	if (!n->left && !n->right) {
		action(n, leaf, depth);
		return;
	}
	action(n, preorder, depth);
	if (n->left)
		walk(n->left, action, depth + 1);
	action(n, postorder, depth);
	if (n->right)
		walk(n->right, action, depth + 1);
	action(n, endorder, depth);
}

WEAK void twalk(const void *root, void (*action)(const void *, VISIT, int)) {
	if (root && action)
		walk(root, action, 0);
}

static void destroy(struct tnode *n, void (*free_key)(void *)) {
	if (!n)
		return;
	destroy(n->left, free_key);
	destroy(n->right, free_key);
	if (free_key)
		free_key((void *)n->key);
	free(n);
}

WEAK void tdestroy(void *root, void (*free_key)(void *)) { destroy(root, free_key); }

WEAK void *lfind(const void *key, const void *base, size_t *n, size_t size, compare_fn cmp) {
	const char *p = base;
	for (size_t i = 0; i < *n; i++, p += size)
		if (cmp(key, p) == 0)
			return (void *)p;
	return NULL;
}

WEAK void *lsearch(const void *key, void *base, size_t *n, size_t size, compare_fn cmp) {
	void *found = lfind(key, base, n, size, cmp);
	if (found)
		return found;
	char *end = (char *)base + *n * size;
	memcpy(end, key, size);
	++*n;
	return end;
}

/* The hash table: open addressing over a power-of-two table at least
 * 4/3 the size asked for; it does not grow (hsearch's ENTER fails with
 * ENOMEM when it is full, as glibc's does). */
static ENTRY *table;
static size_t table_size, table_used;

static size_t hash(const char *s) {
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

WEAK int hcreate(size_t n) {
	if (table)
		return 0;
	size_t size = 8;
	while (size < n + n / 3 + 1)
		size *= 2;
	table = calloc(size, sizeof *table);
	if (!table)
		return 0;
	table_size = size;
	table_used = 0;
	return 1;
}

WEAK void hdestroy(void) {
	free(table);
	table = NULL;
	table_size = table_used = 0;
}

WEAK ENTRY *hsearch(ENTRY item, ACTION action) {
	if (!table) {
		errno = ESRCH;
		return NULL;
	}
	size_t i = hash(item.key) & (table_size - 1);
	while (table[i].key) {
		if (strcmp(table[i].key, item.key) == 0)
			return &table[i];
		i = (i + 1) & (table_size - 1);
	}
	if (action == FIND) {
		errno = ESRCH;
		return NULL;
	}
	if (table_used + 1 >= table_size) {
		errno = ENOMEM;
		return NULL;
	}
	table[i] = item;
	table_used++;
	return &table[i];
}
