package race_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// Shadow memory follows what the program touched, not the size of what it
// allocated: a 64 MiB array, filled by memset and then accessed a byte at
// a time in a few places, is analyzed under a 256 MiB budget. A shadow
// kept per object held 448 MiB after the memset (a cell per 8 bytes of
// the whole array) and would have held 3.5 GB after the first byte
// access (a cell per byte); the budget stopped every run. The races on single bytes, and on an access that spans two
// chunks of the shadow, are still found at their bytes.
func TestShadowFollowsTouchedMemory(t *testing.T) {
	res := detectUnderBudget(t, "big", `#include <pthread.h>
#include <stdlib.h>
#include <string.h>
enum { SIZE = 64 << 20 };
static char *table;
static void *a(void *arg) {
	table[5] = 1;                 /* races with b's store to table[5] */
	int v = 7;
	memcpy(table + 4094, &v, 4);  /* bytes 4094..4097: spans two chunks */
	return NULL;
}
static void *b(void *arg) {
	table[5] = 2;
	table[4097] = 3;              /* races with a's memcpy */
	table[SIZE - 1]++;            /* touched by b alone */
	return NULL;
}
int main(void) {
	table = malloc(SIZE);
	memset(table, 0, SIZE);
	pthread_t x, y;
	pthread_create(&x, NULL, a, NULL);
	pthread_create(&y, NULL, b, NULL);
	pthread_join(x, NULL);
	pthread_join(y, NULL);
	free(table);
	return 0;
}
`)
	var lines []string
	for _, r := range res.Races {
		lines = append(lines, r.Object)
	}
	got := strings.Join(lines, "; ")
	for _, want := range []string{"offset 5)", "offset 4097)"} {
		if !strings.Contains(got, want) {
			t.Errorf("races on %s; want one on byte %s", got, want)
		}
	}
	if len(res.Races) != 2 {
		t.Errorf("%d races (%s); want 2", len(res.Races), got)
	}
}

// A byte read every 4 KiB of a 64 MiB table set by memset refines one
// line of each chunk, not the chunk: refining whole chunks made a cell per
// byte of every chunk, 3.7 GB, and the 256 MiB budget stopped the run. The
// race on one byte of the scanned table is still found at its byte.
func TestShadowOfAStridedScan(t *testing.T) {
	res := detectUnderBudget(t, "scan", `#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
enum { SIZE = 64 << 20 };
static unsigned char *table;
static void *bump(void *arg) {
	table[3 * 4096 + 17]++;       /* races with main's scan */
	return NULL;
}
int main(void) {
	table = malloc(SIZE);
	memset(table, 1, SIZE);
	pthread_t x;
	pthread_create(&x, NULL, bump, NULL);
	long sum = 0;
	for (long i = 17; i < SIZE; i += 4096)
		sum += table[i];
	pthread_join(x, NULL);
	printf("%ld\n", sum);
	return 0;
}
`)
	if len(res.Races) != 1 || !strings.Contains(res.Races[0].Object, "offset 12305)") {
		var objs []string
		for _, r := range res.Races {
			objs = append(objs, r.Object)
		}
		t.Errorf("races on %v; want one, on byte 12305", objs)
	}
}

// detectUnderBudget detects the races of the C program src (named name)
// in two schedules, each under a 256 MiB memory budget, which no failure
// may exhaust.
func detectUnderBudget(t *testing.T, name, src string) *race.Result {
	t.Helper()
	return detectWithin(t, name, 256<<20, 10_000_000, src)
}

// detectWithin is detectUnderBudget with a memory budget of budget bytes
// and instructions instructions per execution.
func detectWithin(t *testing.T, name string, budget, instructions uint64, src string) *race.Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := loadtest.Program(t, cacheDir, path)
	res, err := race.Detect(prog, race.Options{Schedules: 2, Seed: 1,
		Run: vm.Config{Args: []string{name}, MaxInstructions: instructions, Limits: vm.Limits{MaxMemory: budget}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Failures {
		t.Errorf("failure: %s", f.Message)
	}
	return res
}

// Memory the program can only read is not tracked: two threads that read
// every byte of a constant 1 MiB table concurrently would keep a cell of
// concurrent reads per byte (over 56 MiB of shadow), past a 40 MiB budget.
// The race beside the table, on a counter, is still found.
func TestConstantTablesHaveNoShadow(t *testing.T) {
	res := detectWithin(t, "table", 40<<20, 100_000_000, `#include <pthread.h>
#include <stdio.h>
enum { SIZE = 1 << 20 };
static const unsigned char table[SIZE] = {1, 2, 3};
static long counter;
static void *scan(void *arg) {
	long sum = 0;
	for (long i = 0; i < SIZE; i++)
		sum += table[i];
	counter += sum;               /* races with the other scan's */
	return NULL;
}
int main(void) {
	pthread_t x, y;
	pthread_create(&x, NULL, scan, NULL);
	pthread_create(&y, NULL, scan, NULL);
	pthread_join(x, NULL);
	pthread_join(y, NULL);
	printf("%ld\n", counter);
	return 0;
}
`)
	if res.Stopped != nil {
		t.Errorf("stopped: %s", res.Stopped.Message)
	}
	if len(res.Races) != 1 || res.Races[0].Object != "counter" {
		var objs []string
		for _, r := range res.Races {
			objs = append(objs, r.Object)
		}
		t.Errorf("races on %v; want one, on counter", objs)
	}
}

// The lists of reads a cell keeps count against the memory budget: two
// threads reading every byte of a 1 MiB buffer concurrently make a list
// of two reads per byte, 96 bytes beside the cell's 56, about 150 MiB in
// all, which a 100 MiB budget stops (the cells alone, 56 MiB, fit).
func TestListsOfReadsAreCounted(t *testing.T) {
	res := detectWithin(t, "readers", 100<<20, 100_000_000, `#include <pthread.h>
#include <stdio.h>
enum { SIZE = 1 << 20 };
static unsigned char buf[SIZE];
static long sums[2];
static void *reader(void *arg) {
	long k = (long)arg, s = 0;
	for (long i = 0; i < SIZE; i++)
		s += buf[i];
	sums[k] = s;
	return NULL;
}
int main(void) {
	for (long i = 0; i < SIZE; i++)
		buf[i] = (unsigned char)i;
	pthread_t a, b;
	pthread_create(&a, NULL, reader, (void *)0);
	pthread_create(&b, NULL, reader, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld\n", sums[0] + sums[1]);
	return 0;
}
`)
	if res.TooLong == nil || res.TooLong.OutOfInstructions() {
		t.Fatalf("ran to %v; want the memory budget to stop the round-robin schedule", res.TooLong)
	}
}
