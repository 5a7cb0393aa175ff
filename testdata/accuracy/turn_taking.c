/* Two threads take turns through a plain variable: main writes its part
 * of a note and passes the turn; the other thread spins until the turn is
 * its own, appends its part and passes the turn back; main spins for it
 * and prints the note. The turn is synchronization built by hand, and
 * every race here is ordered by it.
 *
 * pass: single-ordering. The second thread's spin leaves only after
 * main's write of the turn.
 * back: single-ordering. main's spin leaves only after the second
 * thread's write of the turn.
 * turns: single-ordering. The second thread writes the turn only after
 * seeing main's write.
 * note1: single-ordering. The second thread appends to the note only
 * after the turn says main wrote it.
 * note2: single-ordering. main prints the note only after the turn comes
 * back. */
#include <pthread.h>
#include <stdio.h>

static volatile int turn;
static int note;

static void *second(void *arg) {
	(void)arg;
	while (turn != 1) // race: pass single-ordering
		;
	note = note * 10 + 2; // race: note1 single-ordering // race: note2 single-ordering
	turn = 2; // race: back single-ordering // race: turns single-ordering
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, second, NULL);
	note = 1; // race: note1 single-ordering
	turn = 1; // race: pass single-ordering // race: turns single-ordering
	while (turn != 2) // race: back single-ordering
		;
	printf("note %d\n", note); // race: note2 single-ordering
	pthread_join(t, NULL);
	return 0;
}
