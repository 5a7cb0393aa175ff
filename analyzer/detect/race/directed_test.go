package race_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// Race-directed runs go ahead of their turn on idle workers, and
// detection finds what one worker finds running them in turn: the same
// races, pairs directed and confirmed, runs and share. The programs are
// those of the corpus with directed runs; in lock_hides_two.c the first
// directed run races the pair queued after it, whose run ahead is then
// dropped, which the test checks it covers. They also run early, while
// work beside detection goes on (directEarly): the third detection of
// each program has such work, over after three executions.
func TestDirectedRunsAheadFindTheSame(t *testing.T) {
	several, skipped, early := 0, 0, 0
	for _, f := range []string{"recall/lock_hides_two.c", "recall/lock_iteration.c", "recall/barrier_phase.c",
		"recall/input_and_lock.c", "recall/rwlock_upgrade.c", "race/private_phase.c", "accuracy/teardown_clear.c"} {
		f = "../../../testdata/" + f
		prog := loadtest.Program(t, cacheDir, f)
		var got [3]string
		for k, workers := range []int{1, 2, 2} {
			opts := race.Options{Schedules: 5, Seed: 1,
				Run:     vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000},
				Explore: &race.Explore{Max: 4, Workers: workers}}
			var beside *slowBeside
			if k == 2 { // as though an exploration of inputs went on for three executions
				beside = &slowBeside{left: 3}
				opts.Beside = beside
			}
			res, err := race.Detect(prog, opts)
			if err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal([]any{res.Races, res.Candidates, res.Schedules, res.Instructions, res.Runs,
				res.Found, res.Directed, res.Confirmed, res.DirectedShare})
			if err != nil {
				t.Fatal(err)
			}
			got[k] = string(out)
			if beside != nil {
				early += race.EarlyDirected(res)
				continue
			}
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
		if got[0] != got[2] {
			t.Errorf("%s: one worker:\n%s\ntwo, with directed runs early:\n%s", filepath.Base(f), got[0], got[2])
		}
	}
	t.Logf("%d programs with several directed runs, %d with a pair an earlier run raced, %d early runs used", several, skipped, early)
	if several == 0 || skipped == 0 || early == 0 {
		t.Errorf("the corpus no longer covers running ahead: %d programs with several directed runs, %d with a pair raced by an earlier one, %d early runs used", several, skipped, early)
	}
}

// slowBeside is work beside detection that is over once detection has
// asked left times, and supplies no inputs: what directEarly does while
// it waits depends on the count, not on the clock.
type slowBeside struct{ left int }

func (b *slowBeside) Over() bool {
	b.left--
	return b.left < 0
}

func (b *slowBeside) Wait() ([]*race.Inputs, error) { return nil, nil }
