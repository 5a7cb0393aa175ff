package race_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/race"
	"augur/analyzer/vm"
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
	files := append(testutil.Programs("../../testdata/explore"), "../../testdata/bench/setup_then_race.c", "../../testdata/run/net_echo.c")
	resumed := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			prog, err := analyzer.LoadProgram([]string{f}, build.Options{CacheDir: cacheDir})
			if err != nil {
				t.Fatal(err)
			}
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
