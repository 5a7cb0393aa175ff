/* stdio over pipes and sockets, as a worker thread that speaks a line
 * protocol uses it: fdopen of both ends of two pipes, fgets and fprintf
 * with fflush in turn, end of file once the writer's stream is closed;
 * then a socketpair's ends as streams: fscanf of what fprintf wrote, fread
 * of what fwrite wrote through a dup, and end of file when the last
 * writer is closed. The output must be native's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

static int to_worker[2], from_worker[2];
static int shared;

static void *worker(void *arg) {
	FILE *in = fdopen(to_worker[0], "r");
	FILE *out = fdopen(from_worker[1], "w");
	char line[128];
	while (fgets(line, sizeof line, in)) {
		line[strcspn(line, "\n")] = 0;
		fprintf(out, "echo:%s:%zu\n", line, strlen(line));
		fflush(out);
	}
	fclose(in);
	fprintf(out, "bye %d\n", shared);
	fclose(out);
	return NULL;
}

int main(void) {
	pipe(to_worker);
	pipe(from_worker);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	FILE *to = fdopen(to_worker[1], "w");
	FILE *from = fdopen(from_worker[0], "r");
	const char *words[] = {"alpha", "beta", "", "a much longer line of text"};
	char reply[128];
	for (int i = 0; i < 4; i++) {
		fprintf(to, "%s\n", words[i]);
		fflush(to);
		if (!fgets(reply, sizeof reply, from))
			return 1;
		printf("got %s", reply);
	}
	shared = 42;
	fclose(to);
	while (fgets(reply, sizeof reply, from))
		printf("then %s", reply);
	fclose(from);
	pthread_join(t, NULL);

	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	FILE *a = fdopen(sv[0], "w"), *b = fdopen(sv[1], "r");
	fprintf(a, "%d %d\n", 12, 30);
	fflush(a);
	int x, y;
	printf("fscanf %d", fscanf(b, "%d %d", &x, &y));
	printf(" sum %d\n", x + y);
	FILE *c = fdopen(dup(sv[1]), "w"), *d = fdopen(dup(sv[0]), "r");
	char buf[4];
	fwrite("abcd", 1, 4, c);
	fflush(c);
	printf("fread %zu %.4s\n", fread(buf, 1, 4, d), buf);
	fclose(a);
	fclose(b);
	fclose(c);
	printf("after the last writer closed: fgetc %d, feof %d\n", fgetc(d), feof(d));
	fclose(d);
	return 0;
}
