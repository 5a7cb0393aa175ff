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

// The races one execution found carry the same schedule, and relocating
// them on the same input makes one run for all of them, which gives each
// the occurrence a run of its own would: the same accesses, counts and
// schedule length; or, on an input that outruns the budget, the same cut.
func TestRacesOfOneRunShareTheirRelocation(t *testing.T) {
	prog, run, races := detectFile(t, "../../../testdata/classify/moved_pair.c")
	if len(races) != 2 {
		t.Fatalf("%d races, want those on total and count", len(races))
	}
	// Each race's job arrives decoded, with a copy of the schedule of its
	// own: the share goes by what the schedule says.
	second := *races[1]
	second.Trace = second.Trace.Fork()
	races[1] = &second
	opts := classify.Options{Run: run, Ma: 2, Mp: 1, Seed: 1}
	in := &race.Inputs{Args: []string{"2"}} // 1,000 rounds: both races move
	alone := func(r *race.Race) *race.Race {
		_, restore := classify.SharedRelocations(16)
		defer restore()
		occ, cut := classify.Relocate(prog, r, opts, in)
		if occ == nil || cut {
			t.Fatalf("race on %s not found again on %v (cut %v)", r.Object, in.Args, cut)
		}
		return occ
	}
	want := []*race.Race{alone(races[0]), alone(races[1])}

	made, restore := classify.SharedRelocations(16)
	defer restore()
	for i, r := range races {
		occ, cut := classify.Relocate(prog, r, opts, in)
		if occ == nil || cut {
			t.Fatalf("race on %s not found again with a shared run (cut %v)", r.Object, cut)
		}
		w := want[i]
		if occ.ID != w.ID || occ.FirstAt != w.FirstAt || occ.SecondAt != w.SecondAt || occ.Trace.Len() != w.Trace.Len() {
			t.Errorf("race on %s: shared occurrence %s %v %v (%d decisions), alone %s %v %v (%d)", r.Object,
				occ.ID, occ.FirstAt, occ.SecondAt, occ.Trace.Len(), w.ID, w.FirstAt, w.SecondAt, w.Trace.Len())
		}
	}
	if n := made(); n != 1 {
		t.Errorf("%d runs made for two races of one execution on one input, want 1", n)
	}

	// On an input that makes the program outrun the budget (100,000
	// rounds against 200,000 instructions) the run is cut for both races
	// at the same instruction: the second is told so without a run.
	short := opts
	short.Run.MaxInstructions = 200_000
	long := &race.Inputs{Args: []string{"4"}}
	made, restore = classify.SharedRelocations(16)
	defer restore()
	for _, r := range races {
		if occ, cut := classify.Relocate(prog, r, short, long); occ != nil || !cut {
			t.Errorf("race on %s, input %v: occurrence %v, cut %v; want the budget named", r.Object, long.Args, occ != nil, cut)
		}
	}
	if n := made(); n != 1 {
		t.Errorf("%d runs made for two races on an input that outruns the budget, want 1", n)
	}
}
