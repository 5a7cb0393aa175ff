package classify_test

import (
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/analyzer/judge/classify"
)

// A race found again on an input that moves it (the worker loops 1,000
// times instead of 10 before its write) is relocated; on an input that
// makes the program outrun the budget (10^10 rounds) relocation says the
// run was cut, which the verdict reports as a path that ran out of its
// budget, not as one where the race is absent.
func TestRelocationSaysWhenTheBudgetCutIt(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/budget/long_input.c")
	run := vm.Config{Args: []string{"long_input"}, MaxInstructions: 10_000_000}
	det, err := race.Detect(prog, race.Options{Schedules: 1, Seed: 1, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	if len(det.Races) != 1 {
		t.Fatalf("%d races, want the one on done", len(det.Races))
	}
	r := det.Races[0]
	opts := classify.Options{Run: run, Ma: 2, Mp: 1, Seed: 1}
	if occ, cut := classify.Relocate(prog, r, opts, &race.Inputs{Args: []string{"2"}}); occ == nil || cut {
		t.Errorf("input 2 (1,000 rounds): occurrence %v, cut %v; want the race found again", occ != nil, cut)
	}
	if occ, cut := classify.Relocate(prog, r, opts, &race.Inputs{Args: []string{"9"}}); occ != nil || !cut {
		t.Errorf("input 9 (10^10 rounds): occurrence %v, cut %v; want no occurrence and the budget named", occ != nil, cut)
	}
}
