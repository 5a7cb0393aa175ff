package race_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/internal/testutil"
)

// Keeping objects private to their thread changes what detection costs,
// never what it finds: on every program of testdata/race, and on the
// corpus's heap-heavy ones, the races (with their instances, techniques
// and schedules), potential races, inversions, failures and executions
// are those of a detector that shadows every object from birth, through
// the plan and an exploration that resumes schedules from snapshots.
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
	prog, err := analyzer.LoadProgram([]string{f}, build.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	opts.Seed = 1
	opts.Run = vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000}
	findings := func(all bool) string {
		o := opts
		o.ShadowAll, o.Explore = all, &race.Explore{Max: 40, Workers: 2}
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

// A schedule resumed from a snapshot, in which the worker's object is
// published, runs again from the start with the object shadowed from birth,
// under the same schedule: it finds the races a detector shadowing all
// finds in it, the race on the published value among them.
func TestResumedScheduleRunsAgainFromTheStart(t *testing.T) {
	f := "../../../testdata/race/late_publish.c"
	prog, err := analyzer.LoadProgram([]string{f}, build.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
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
		a, b := testutil.LineIn(r.First, path), testutil.LineIn(r.Second, path)
		out = append(out, fmt.Sprintf("[%d %d]x%d@%v,%v", min(a, b), max(a, b), r.Instances, r.FirstAt, r.SecondAt))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
