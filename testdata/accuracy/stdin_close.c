// stdin: r\n
/* A reader thread prints the first letter of a shared message; main
 * reads a command from standard input, and on "c" (close) frees the
 * message and clears the pointer, without waiting for the reader. On the
 * seed command r nothing is freed and there is no race.
 *
 * msg: spec-violated. When the reader reads the pointer after the free
 * but before it is cleared, it follows a dangling pointer.
 * text: spec-violated. The free before the reader's read of the first
 * letter is a use after free.
 * Both need the command c; text needs a switch between the reader's two
 * reads as well. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *msg;
static int seen;

static void *reader(void *arg) {
	(void)arg;
	char *p = msg; // race: msg spec-violated
	if (p != NULL)
		seen = p[0]; // race: text spec-violated
	return NULL;
}

int main(void) {
	char line[8] = {0};
	msg = malloc(16);
	strcpy(msg, "hello");
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	if (fgets(line, sizeof line, stdin) == NULL)
		line[0] = 0;
	if (line[0] == 'c') {
		free(msg); // race: text spec-violated
		msg = NULL; // race: msg spec-violated
	}
	pthread_join(t, NULL);
	printf("seen %d\n", seen);
	if (line[0] != 'c')
		free(msg);
	return 0;
}
