/* An open-addressing hash table of strings with resizing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
	char **keys;
	int *vals;
	size_t cap, len;
};

static unsigned long hash(const char *s) {
	unsigned long h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void put(struct table *t, const char *k, int v);

static void grow(struct table *t) {
	struct table n = {calloc(t->cap * 2, sizeof(char *)), calloc(t->cap * 2, sizeof(int)), t->cap * 2, 0};
	for (size_t i = 0; i < t->cap; i++)
		if (t->keys[i]) {
			put(&n, t->keys[i], t->vals[i]);
			free(t->keys[i]);
		}
	free(t->keys);
	free(t->vals);
	*t = n;
}

static void put(struct table *t, const char *k, int v) {
	if (2 * (t->len + 1) > t->cap)
		grow(t);
	size_t i = hash(k) % t->cap;
	while (t->keys[i] && strcmp(t->keys[i], k) != 0)
		i = (i + 1) % t->cap;
	if (!t->keys[i]) {
		t->keys[i] = strdup(k);
		t->len++;
	}
	t->vals[i] = v;
}

static int get(const struct table *t, const char *k, int *v) {
	size_t i = hash(k) % t->cap;
	while (t->keys[i]) {
		if (strcmp(t->keys[i], k) == 0) {
			*v = t->vals[i];
			return 1;
		}
		i = (i + 1) % t->cap;
	}
	return 0;
}

int main(void) {
	struct table t = {calloc(4, sizeof(char *)), calloc(4, sizeof(int)), 4, 0};
	char key[32];
	for (int i = 0; i < 500; i++) {
		snprintf(key, sizeof key, "key-%d", i * 7);
		put(&t, key, i);
	}
	put(&t, "key-0", -1);
	int v, hits = 0;
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof key, "key-%d", i);
		hits += get(&t, key, &v);
	}
	get(&t, "key-0", &v);
	printf("len %zu cap %zu hits %d key-0=%d\n", t.len, t.cap, hits, v);
	for (size_t i = 0; i < t.cap; i++)
		free(t.keys[i]);
	free(t.keys);
	free(t.vals);
	return 0;
}
