package race_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/detect/race/racetest"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/internal/testutil"
)

// Keeping objects private to their thread changes what detection costs,
// never what it finds: on every program of testdata/race, and on the
// corpus's heap-heavy ones, the races (with their instances, techniques
// and schedules), potential races, inversions, failures and executions
// are those of a detector that shadows every object from birth, through
// the plan and an exploration that resumes schedules from snapshots. (The
// exploration enumerates without its reduction here: the reduction
// learns from the private phase which steps commute, and runs fewer
// schedules for it, TestPrivateAccessesCommute.)
func TestPrivateObjectsFindTheSame(t *testing.T) {
	files := testutil.Programs("../../../testdata/race")
	for _, f := range []string{"accuracy/fast_publish.c", "accuracy/early_free.c", "accuracy/refcount_drop.c",
		"explore/publish_early.c", "explore/refcount.c", "explore/pool_overflow.c", "recall/late_free.c",
		"run/thread_pool.c", "run/cas_stack.c", "run/hashtable.c"} {
		files = append(files, "../../../testdata/"+f)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			samePrivateOrNot(t, f, race.Options{Schedules: 5})
		})
	}
}

// An object first published in an explored schedule, which resumed from
// a snapshot made keeping it private, runs again from the start and
// finds what a detector shadowing all finds.
func TestPrivateObjectsFromSnapshots(t *testing.T) {
	for _, f := range []string{"late_publish.c", "private_phase.c"} {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			samePrivateOrNot(t, "../../../testdata/race/"+f, race.Options{Schedules: 1, Directed: -1})
		})
	}
}

// samePrivateOrNot checks that detection on the program f under opts,
// with an exploration of 40 schedules, finds the same with private
// objects and without.
func samePrivateOrNot(t *testing.T, f string, opts race.Options) {
	prog := loadtest.Program(t, cacheDir, f)
	opts.Seed = 1
	opts.Run = vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000}
	findings := func(all bool) string {
		o := opts
		o.ShadowAll, o.Explore = all, &race.Explore{Max: 40, Workers: 2, NoReduction: true}
		res, err := race.Detect(prog, o)
		if err != nil {
			t.Fatal(err)
		}
		type trace struct {
			Policy string
			Len    int
		}
		var traces []trace
		for _, r := range res.Races {
			traces = append(traces, trace{r.Trace.Policy, r.Trace.Len()})
		}
		out, err := json.Marshal([]any{res.Races, traces, res.Candidates, res.Inversions, res.Failures,
			res.Schedules, res.Instructions, res.Runs, res.Found, res.Directed, res.Confirmed,
			res.Explore.Schedules, res.Explore.Switches, res.Explore.Enumerated})
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if private, all := findings(false), findings(true); private != all {
		t.Errorf("with private objects:\n%s\nshadowing all:\n%s", private, all)
	}
}

// An execution whose detector cannot vouch for one object's private
// phase goes on (to twice as far as it had come) and learns the other
// sites it must shadow from birth before it runs again: handoff_sites.c
// hands the main thread two jobs from two sites under a mutex, and its
// round-robin execution begins twice, not three times.
func TestOneRunLearnsEverySite(t *testing.T) {
	f := "../../../testdata/race/handoff_sites.c"
	prog := loadtest.Program(t, cacheDir, f)
	starts, sites, err := race.RoundRobinStarts(prog, vm.Config{Args: []string{"handoff_sites.c"}, MaxInstructions: 5_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if starts != 2 || sites != 2 {
		t.Errorf("the execution began %d times and learnt %d sites; want 2 and 2", starts, sites)
	}
}

// The sites an earlier analysis learnt (Prior.Shared, kept in a
// history) are shadowed from birth from the first execution on, which
// then begins once; the sites come back by name.
func TestKnownSitesNeedNoSecondStart(t *testing.T) {
	f := "../../../testdata/race/handoff_sites.c"
	prog := loadtest.Program(t, cacheDir, f)
	run := vm.Config{Args: []string{"handoff_sites.c"}, MaxInstructions: 5_000_000}
	starts, learnt, err := race.RoundRobinStartsFrom(prog, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if starts != 2 || len(learnt) != 2 || !strings.Contains(learnt[0], "handoff_sites.c:") {
		t.Fatalf("first analysis: began %d times, learnt %q; want 2 and two sites of handoff_sites.c", starts, learnt)
	}
	starts, again, err := race.RoundRobinStartsFrom(prog, run, learnt)
	if err != nil {
		t.Fatal(err)
	}
	if starts != 1 || !slices.Equal(again, learnt) {
		t.Errorf("knowing the sites: began %d times, ended with %q; want once, with %q", starts, again, learnt)
	}
}

// The reduction takes a step's accesses to objects private to its thread
// to conflict with no other thread's (footprints): on private_steps.c,
// whose workers' steps share only ids their stack frames and scratch
// blocks give back, it runs every schedule in fewer than when every object
// is shadowed, and finds the same race. TestReductionFindsWhatFullEnumerationFinds
// checks on the corpora that it loses nothing against the full enumeration.
func TestPrivateAccessesCommute(t *testing.T) {
	f := "../../../testdata/race/private_steps.c"
	prog := loadtest.Program(t, cacheDir, f)
	enumerate := func(all bool) *race.Result {
		res, err := race.Detect(prog, race.Options{Schedules: 1, Seed: 1, ShadowAll: all,
			Explore: &race.Explore{Max: -1, Workers: 2},
			Run:     vm.Config{Args: []string{"private_steps.c"}, MaxInstructions: 1_000_000}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Explore.Exhaustive {
			t.Fatalf("shadowing all: %v: the enumeration ran %d schedules, not all", all, res.Explore.Enumerated)
		}
		return res
	}
	private, all := enumerate(false), enumerate(true)
	if a, b := findings(private), findings(all); !slices.Equal(a, b) {
		t.Errorf("keeping objects private found\n\t%v\nshadowing all\n\t%v", a, b)
	}
	if len(private.Races) != 1 {
		t.Errorf("%d races, want the one on hits", len(private.Races))
	}
	t.Logf("schedules enumerated: %d keeping objects private, %d shadowing all", private.Explore.Enumerated, all.Explore.Enumerated)
	if private.Explore.Enumerated >= all.Explore.Enumerated {
		t.Errorf("keeping objects private, the enumeration ran %d schedules; shadowing all, %d", private.Explore.Enumerated, all.Explore.Enumerated)
	}
}

// A schedule resumed from a snapshot, in which the worker's object is
// published, runs again from the start with the object shadowed from birth,
// under the same schedule: it finds the races a detector shadowing all
// finds in it, the race on the published value among them.
func TestResumedScheduleRunsAgainFromTheStart(t *testing.T) {
	f := "../../../testdata/race/late_publish.c"
	prog := loadtest.Program(t, cacheDir, f)
	run := vm.Config{Args: []string{"late_publish.c"}, MaxInstructions: 1_000_000}
	again := 0
	for seed := uint64(1); seed <= 20; seed++ {
		got, learnt, err := race.ResumedPCT(prog, run, seed, false)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := race.ResumedPCT(prog, run, seed, true)
		if err != nil {
			t.Fatal(err)
		}
		a, b := raceLines(t, f, got), raceLines(t, f, want)
		if a != b {
			t.Errorf("seed %d: private objects found %s, shadowing all %s", seed, a, b)
		}
		if learnt > 0 {
			again++
			if !strings.Contains(a, "[17 29]") {
				t.Errorf("seed %d ran again, and found %s without the published value's race (lines 17 and 29)", seed, a)
			}
		}
	}
	if again == 0 {
		t.Error("no schedule published the worker's object")
	}
}

// raceLines renders races as their sorted endpoint line pairs, with
// instances and where their accesses were.
func raceLines(t *testing.T, path string, races []*race.Race) string {
	var out []string
	for _, r := range races {
		a, b := racetest.LineIn(r.First, path), racetest.LineIn(r.Second, path)
		out = append(out, fmt.Sprintf("[%d %d]x%d@%v,%v", min(a, b), max(a, b), r.Instances, r.FirstAt, r.SecondAt))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
