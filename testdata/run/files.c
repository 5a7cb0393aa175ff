// file: input.txt=alpha 3\nbeta 5\ngamma 7\n
/* fopen/fgets/fscanf/fread/fwrite/fclose on files: reads a seeded input
 * file, writes a report, reads it back; a missing file fails with ENOENT. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(void) {
	FILE *in = fopen("input.txt", "r");
	if (!in) {
		perror("input.txt");
		return 1;
	}
	char name[16];
	int v, total = 0, rows = 0;
	while (fscanf(in, "%15s %d", name, &v) == 2) {
		total += v;
		rows++;
	}
	printf("rows %d total %d eof %d\n", rows, total, feof(in) != 0);
	fclose(in);

	FILE *out = fopen("report.txt", "w");
	fprintf(out, "total=%d\n", total);
	fputs("done\n", out);
	fwrite("raw", 1, 3, out);
	fclose(out);

	FILE *back = fopen("report.txt", "r");
	char buf[64];
	size_t n = fread(buf, 1, sizeof buf - 1, back);
	buf[n] = 0;
	printf("read back %zu bytes: %s|\n", n, buf);
	fclose(back);

	FILE *app = fopen("report.txt", "a");
	fputc('!', app);
	fclose(app);
	back = fopen("report.txt", "r");
	fseek(back, 0, SEEK_END);
	printf("size after append %ld\n", ftell(back));
	fclose(back);

	errno = 0;
	FILE *missing = fopen("missing.txt", "r");
	printf("missing %s errno %s\n", missing ? "opened" : "NULL", errno == ENOENT ? "ENOENT" : "?");
	perror("missing.txt");
	return 0;
}
