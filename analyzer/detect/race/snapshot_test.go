package race_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/internal/testutil"
)

// TestSnapshotsChangeNothing runs the exploration (the bounded enumeration
// and 200 PCT schedules) on every program of the exploration corpus, on
// testdata/bench/setup_then_race.c (a long prefix before its threads) and
// on testdata/run/net_echo.c (sockets and poll, forked with the state)
// twice: each schedule from the program's start, and each from a
// snapshot of the prefix it shares. The
// two must find the same races with the same instances, accesses and
// schedules, the same failures, candidates and inversions, run the same
// schedules and interpret as many instructions: a fork goes on exactly as
// the execution it was taken from. Two workers run forks of one snapshot
// side by side.
func TestSnapshotsChangeNothing(t *testing.T) {
	files := append(testutil.Programs("../../../testdata/explore"), "../../../testdata/bench/setup_then_race.c", "../../../testdata/run/net_echo.c")
	resumed := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			prog := loadtest.Program(t, cacheDir, f)
			run := func(noSnapshots bool) (*race.Result, string) {
				res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1,
					Run:     vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
					Explore: &race.Explore{Max: 200, Workers: 2, NoSnapshots: noSnapshots}})
				if err != nil {
					t.Fatal(err)
				}
				return res, fingerprint(t, res)
			}
			plain, want := run(true)
			snap, got := run(false)
			t.Logf("%d schedules; %d snapshots, %d resumed, %d instructions skipped of %d",
				snap.Explore.Enumerated, snap.Explore.Snapshots, snap.Explore.Resumed, snap.Explore.Skipped, snap.Instructions)
			if plain.Explore.Snapshots != 0 || plain.Explore.Resumed != 0 {
				t.Errorf("NoSnapshots made %d snapshots", plain.Explore.Snapshots)
			}
			if got != want {
				t.Errorf("with snapshots the detection differs:\n%s\nfrom the start:\n%s", got, want)
			}
			resumed += snap.Explore.Resumed
		})
	}
	if resumed == 0 {
		t.Error("no schedule started from a snapshot: the comparison shows nothing")
	}
}

// fingerprint is everything a detection found and how, as JSON: what
// must not depend on where its executions started.
func fingerprint(t *testing.T, res *race.Result) string {
	t.Helper()
	b, err := json.MarshalIndent(struct {
		Races                 []*race.Race
		Inversions            []*race.Inversion
		Failures              []*race.Failure
		Candidates            []*race.Candidate
		Schedules, Enumerated int
		Exhaustive            bool
		Instructions          uint64
		Runs                  map[race.Technique]int
	}{res.Races, res.Inversions, res.Failures, res.Candidates, res.Schedules, res.Explore.Enumerated, res.Explore.Exhaustive,
		res.Instructions, res.Runs}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A start state larger than the snapshots' whole limit (a quarter of the
// memory budget here) is not kept: the schedule that made it uses it, and
// every later one runs from the program's start, as cheap as a fork that
// would copy the large object whole, without the state held beside it
// (before, each schedule rebuilt and forked it).
func TestLargeStateIsNotSnapshotted(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "large.c")
	os.WriteFile(src, []byte(`#include <pthread.h>
#include <stdlib.h>
#include <string.h>
static char *table;
static long hits;
static void *w(void *a) { table[(long)a]++; hits++; return NULL; }
int main(void) {
	table = malloc(80 << 20); /* over the 64 MiB limit on its own */
	memset(table, 1, 80 << 20);
	table[7]++;
	pthread_t t[2];
	for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, w, (void *)i);
	for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
	return (int)hits;
}
`), 0o644)
	prog := loadtest.Program(t, cacheDir, src)
	res, err := race.Detect(prog, race.Options{Schedules: 2, Seed: 1,
		Run:     vm.Config{Args: []string{"large"}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 256 << 20}},
		Explore: &race.Explore{Max: 16, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Explore.Enumerated < 3 || res.Explore.Resumed > 1 {
		t.Errorf("%d schedules enumerated, %d resumed from a snapshot; want the first alone resumed", res.Explore.Enumerated, res.Explore.Resumed)
	}
	if len(res.Races) == 0 {
		t.Error("the race on hits was not found")
	}
}
