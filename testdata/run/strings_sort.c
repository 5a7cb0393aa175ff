/* Sorting strings: qsort with strcmp through a wrapper, a stable sort by
 * length, strtok_r on nested delimiters, and building text with sprintf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int by_len(const void *a, const void *b) {
	return (int)strlen(*(char *const *)a) - (int)strlen(*(char *const *)b);
}

int main(void) {
	char *names[] = {"pear", "fig", "apple", "kiwi", "banana", "plum", "date", "cherry"};
	size_t n = sizeof names / sizeof names[0];
	qsort(names, n, sizeof names[0], by_name);
	for (size_t i = 0; i < n; i++)
		printf("%s ", names[i]);
	printf("\n");
	qsort(names, n, sizeof names[0], by_len);
	for (size_t i = 0; i < n; i++)
		printf("%s ", names[i]);
	printf("\n");
	char text[] = "a=1,b=2;c=3,d=4";
	char *outer, *inner;
	for (char *grp = strtok_r(text, ";", &outer); grp; grp = strtok_r(NULL, ";", &outer)) {
		printf("group:");
		for (char *kv = strtok_r(grp, ",", &inner); kv; kv = strtok_r(NULL, ",", &inner))
			printf(" [%s]", kv);
		printf("\n");
	}
	char buf[128];
	int len = 0;
	for (int i = 0; i < 6; i++)
		len += sprintf(buf + len, "%s%d", i ? "," : "", i * i);
	printf("%s (%d)\n", buf, len);
	return 0;
}
