/* Memory streams and freopen against glibc: fmemopen for writing (what
 * reaches the buffer at fflush and fclose, the NUL after it, a full
 * buffer), for reading (NUL bytes included), for appending and with a
 * seek; open_memstream's published buffer and length at fflush and
 * fclose; freopen of stdout onto a file and of stdin from one. Prints the
 * same natively and under augur. */
// file: words.txt=alpha beta\ngamma\n
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, const char *buf, size_t n) {
	printf("%s:", what);
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == 0)
			printf(" \\0");
		else
			printf(" %c", buf[i]);
	}
	printf("\n");
}

static void write_buffer(void) {
	char buf[16];
	memset(buf, '.', sizeof buf);
	FILE *f = fmemopen(buf, sizeof buf, "w");
	show("after open", buf, 4);
	fprintf(f, "n=%d", 42);
	fflush(f);
	show("after fflush", buf, 8);
	printf("ftell %ld\n", ftell(f));
	fputs("!?", f);
	fclose(f);
	show("after fclose", buf, 8);

	char small[6];
	memset(small, '.', sizeof small);
	f = fmemopen(small, sizeof small, "w");
	fputs("0123456789", f);
	fclose(f);
	show("full", small, sizeof small);
}

static void read_buffer(void) {
	char data[] = {'a', 'b', 0, 'c', '\n', 'd'};
	FILE *f = fmemopen(data, sizeof data, "r");
	int c, n = 0;
	printf("read:");
	while ((c = fgetc(f)) != EOF) {
		printf(" %d", c);
		n++;
	}
	printf(" (%d bytes, eof %d)\n", n, feof(f) != 0);
	rewind(f);
	char line[8];
	fgets(line, sizeof line, f);
	printf("first line is %zu bytes\n", strlen(line));
	fseek(f, 3, SEEK_SET);
	printf("at 3: %c\n", fgetc(f));
	printf("seek past the end: %d\n", fseek(f, 7, SEEK_SET));
	fclose(f);

	char text[32] = "count: 3";
	f = fmemopen(text, strlen(text), "r");
	int k = 0;
	char word[16];
	printf("scanned %d", fscanf(f, "%15s %d", word, &k));
	printf(" [%s] %d\n", word, k);
	fclose(f);
}

static void append_buffer(void) {
	char buf[24] = "head";
	memset(buf + 5, '#', sizeof buf - 5);
	FILE *f = fmemopen(buf, sizeof buf, "a");
	fprintf(f, "+%s", "tail");
	fclose(f);
	printf("append: %s\n", buf);
}

static void dynamic_buffer(void) {
	char *p = NULL;
	size_t size = 99;
	FILE *f = open_memstream(&p, &size);
	for (int i = 0; i < 5; i++)
		fprintf(f, "%d,", i * i);
	fflush(f);
	printf("fflush: [%s] size %zu\n", p, size);
	for (int i = 0; i < 300; i++)
		fputc('a' + i % 26, f);
	fclose(f);
	printf("fclose: size %zu, strlen %zu, ends %s\n", size, strlen(p), p + size - 4);
	free(p);

	p = NULL;
	f = open_memstream(&p, &size);
	fclose(f);
	printf("empty: [%s] size %zu\n", p, size);
	free(p);
}

static void reopen(void) {
	fflush(stdout);
	if (!freopen("log.txt", "w", stdout)) {
		perror("freopen");
		return;
	}
	printf("this line goes to log.txt\n");
	puts("and this one");
	fclose(stdout);

	if (!freopen("words.txt", "r", stdin)) {
		perror("freopen stdin");
		return;
	}
	char word[16];
	int n = 0;
	while (scanf("%15s", word) == 1)
		fprintf(stderr, "word %d: %s\n", ++n, word);

	FILE *log = fopen("log.txt", "r");
	char line[64];
	while (fgets(line, sizeof line, log))
		fprintf(stderr, "log: %s", line);
	fclose(log);
	if (!freopen("missing/nowhere.txt", "r", stdin))
		fprintf(stderr, "freopen of a missing file fails\n");
}

int main(void) {
	write_buffer();
	read_buffer();
	append_buffer();
	dynamic_buffer();
	reopen();
	return 0;
}
