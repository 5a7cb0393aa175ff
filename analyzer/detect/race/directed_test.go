package race_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
)

// Race-directed runs go ahead of their turn on idle workers, and
// detection finds what one worker finds running them in turn: the same
// races, pairs directed and confirmed, runs and share. The programs are
// those of the corpus with directed runs; in lock_hides_two.c the first
// directed run races the pair queued after it, whose run ahead is then
// dropped, which the test checks it covers.
func TestDirectedRunsAheadFindTheSame(t *testing.T) {
	several, skipped := 0, 0
	for _, f := range []string{"recall/lock_hides_two.c", "recall/lock_iteration.c", "recall/barrier_phase.c",
		"recall/input_and_lock.c", "recall/rwlock_upgrade.c", "race/private_phase.c", "accuracy/teardown_clear.c"} {
		f = "../../../testdata/" + f
		prog, err := analyzer.LoadProgram([]string{f}, build.Options{CacheDir: cacheDir})
		if err != nil {
			t.Fatal(err)
		}
		var got [2]string
		for k, workers := range []int{1, 2} {
			res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1,
				Run:     vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000},
				Explore: &race.Explore{Max: 4, Workers: workers}})
			if err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal([]any{res.Races, res.Candidates, res.Schedules, res.Instructions, res.Runs,
				res.Found, res.Directed, res.Confirmed, res.DirectedShare})
			if err != nil {
				t.Fatal(err)
			}
			got[k] = string(out)
			if workers == 2 {
				if res.Runs[race.ByDirected] >= 2 {
					several++
				}
				if len(res.Directed) > res.Runs[race.ByDirected] {
					skipped++
				}
			}
		}
		if got[0] != got[1] {
			t.Errorf("%s: one worker:\n%s\ntwo:\n%s", filepath.Base(f), got[0], got[1])
		}
	}
	t.Logf("%d programs with several directed runs, %d with a pair an earlier run raced", several, skipped)
	if several == 0 || skipped == 0 {
		t.Errorf("the corpus no longer covers running ahead: %d programs with several directed runs, %d with a pair raced by an earlier one", several, skipped)
	}
}
