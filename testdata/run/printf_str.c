/* %s and %c with widths and precisions; sprintf and snprintf truncation. */
#include <stdio.h>
#include <string.h>

int main(void) {
	const char *s = "concurrency";
	printf("[%s][%15s][%-15s][%.3s][%10.4s][%-10.4s]\n", s, s, s, s, s, s);
	printf("[%s]\n", "");
	char buf[16];
	int n = snprintf(buf, sizeof buf, "%s-%d-%s", "race", 12345, "detector");
	printf("snprintf %d [%s] %zu\n", n, buf, strlen(buf));
	n = sprintf(buf, "%05.1f|%x", 3.14159, 255);
	printf("sprintf %d [%s]\n", n, buf);
	n = snprintf(NULL, 0, "%d", 1000000);
	printf("measure %d\n", n);
	char big[64];
	snprintf(big, sizeof big, "%s", "0123456789");
	puts(big);
	fputs("fputs line\n", stdout);
	putchar('!');
	putchar('\n');
	fprintf(stdout, "%s %c %d\n", "mixed", 'x', -1);
	fwrite("fwrite\n", 1, 7, stdout);
	char word[4] = {'h', 'e', 'l', 'l'}; /* no terminator: a precision bounds the read */
	printf("[%.4s] [%.2s] [%.*s]\n", word, word, 3, word);
	return 0;
}
