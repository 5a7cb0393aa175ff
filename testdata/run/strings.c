/* string.h: lengths, copies, comparisons, searches, tokenizing,
 * duplication; memccpy and stpncpy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
	char buf[64];
	strcpy(buf, "hello");
	strcat(buf, ", world");
	printf("%s %zu\n", buf, strlen(buf));
	printf("cmp %d %d %d\n", strcmp("abc", "abd") < 0, strncmp("abcdef", "abcxyz", 3), strcmp("b", "a") > 0);
	printf("case %d %d\n", strcasecmp("HeLLo", "hello"), strncasecmp("ABCx", "abcy", 3));
	printf("chr %s %s\n", strchr(buf, 'o'), strrchr(buf, 'o'));
	printf("str %s %p\n", strstr(buf, "wor"), (void *)strstr(buf, "xyz"));
	printf("span %zu %zu %s\n", strspn("aaabbc", "ab"), strcspn("hello", "lo"), strpbrk("race", "ce"));
	char line[] = "a,b;;c,,d";
	for (char *tok = strtok(line, ",;"); tok; tok = strtok(NULL, ",;"))
		printf("tok %s\n", tok);
	char *dup = strdup("duplicate");
	char *nd = strndup("truncate", 5);
	printf("%s %s\n", dup, nd);
	free(dup);
	free(nd);
	char n[8];
	strncpy(n, "abc", sizeof n);
	printf("ncpy %s %d\n", n, n[7]);
	memset(buf, 'x', 5);
	buf[5] = 0;
	printf("memset %s\n", buf);
	char mv[] = "123456789";
	memmove(mv + 2, mv, 5);
	printf("memmove %s\n", mv);
	printf("memcmp %d %d\n", memcmp("abc", "abd", 3) < 0, memcmp("abc", "abc", 3));
	printf("memchr %s\n", (char *)memchr("find me", 'm', 7));
	char cc[8] = "-------";
	char *after = memccpy(cc, "key:value", ':', sizeof cc);
	printf("memccpy %ld %.7s %p\n", (long)(after - cc), cc, memccpy(cc, "none", ':', 4));
	char sn[8] = "xxxxxxx";
	char *end = stpncpy(sn, "ab", 5);
	printf("stpncpy %ld %d %c; full %ld\n", (long)(end - sn), sn[4], sn[5], (long)(stpncpy(sn, "abcdefgh", 3) - sn));
	return 0;
}
