/* Global initializers: pointers to globals and into arrays, string tables,
 * nested structs, function pointers, static locals. */
#include <stdio.h>

struct entry {
	const char *key;
	int value;
	const int *ref;
};

static int numbers[] = {10, 20, 30, 40};
static const char *names[] = {"zero", "one", "two", NULL};
static int *middle = &numbers[2];
static struct entry entries[] = {{"a", 1, &numbers[0]}, {"b", 2, &numbers[3]}, {"c", 3, 0}};
static int sq(int x) { return x * x; }
static int (*ops[])(int) = {sq, 0};
static char grid[3][4] = {"abc", "def", {'g', 'h'}};
static double weights[5] = {0.5, 1.5};
static unsigned long long mask = ~0ULL >> 4;
static const char message[] = "const data";

static int next_id(void) {
	static int id = 1000;
	return id++;
}

int main(void) {
	printf("%d %d\n", *middle, middle[1]);
	for (const char **n = names; *n; n++)
		printf("%s ", *n);
	printf("\n");
	for (int i = 0; i < 3; i++)
		printf("%s=%d ref=%d\n", entries[i].key, entries[i].value, entries[i].ref ? *entries[i].ref : -1);
	printf("op %d %s\n", ops[0](9), ops[1] ? "set" : "null");
	printf("grid %s %s %c%c%d\n", grid[0], grid[1], grid[2][0], grid[2][1], grid[2][2]);
	printf("weights %.1f %.1f %.1f\n", weights[0], weights[1], weights[4]);
	printf("mask %llx %s %zu\n", mask, message, sizeof message);
	next_id();
	printf("id %d\n", next_id());
	return 0;
}
