/* A maze walked by a symbolic sequence of moves (w a s d): a wall or an
 * invalid move ends the walk, reaching the exit fails an assertion. The
 * classic symbolic-execution exercise. */
#include <augur.h>
#include <stdio.h>

#define H 7
#define W 11
#define MOVES 28

static char maze[H][W + 1] = {
    "+-+---+---+",
    "| |     |#|",
    "| | --+ | |",
    "| |   | | |",
    "| +-- | | |",
    "|     |   |",
    "+-----+---+",
};

int main(void) {
	char moves[MOVES];
	for (int i = 0; i < MOVES; i++)
		moves[i] = 'x';
	augur_make_symbolic(moves, sizeof moves, "moves");
	int x = 1, y = 1;
	for (int i = 0; i < MOVES; i++) {
		int ox = x, oy = y;
		switch (moves[i]) {
		case 'w': y--; break;
		case 's': y++; break;
		case 'a': x--; break;
		case 'd': x++; break;
		default: return 1;
		}
		if (maze[y][x] == '#')
			augur_assert(0, "maze solved");
		if (maze[y][x] != ' ')
			return 2;
		maze[oy][ox] = '.';
		(void)ox;
	}
	return 0;
}
