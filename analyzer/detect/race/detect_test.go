package race_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// The hand-off race needs a schedule where the consumer takes the lock
// first: round robin alone misses it, the lock-order reversals find it.
func TestHandoffNeedsAnotherSchedule(t *testing.T) {
	if n := len(detect(t, "../../../testdata/race/handoff.c", 1).Races); n != 0 {
		t.Fatalf("round robin alone found %d races; the test program no longer hides its race", n)
	}
	if n := len(detect(t, "../../../testdata/race/handoff.c", 5).Races); n != 1 {
		t.Fatalf("5 schedules found %d races, want 1", n)
	}
}

// A racy statement in a loop is one distinct race however many times it
// races; instances add up over the executions (FastTrack checks a location
// again only after another thread touched it).
func TestLoopRaceIsOneRaceWithInstances(t *testing.T) {
	res := detect(t, "../../../testdata/race/loop_instances.c", 5)
	if len(res.Races) != 1 {
		t.Fatalf("%d races", len(res.Races))
	}
	r := res.Races[0]
	if r.Instances < 5 || r.Object != "total" {
		t.Fatalf("race on %q with %d instances", r.Object, r.Instances)
	}
}

// Inserting lines above the racing functions changes no race id.
func TestRaceIDStableAcrossEdits(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/race/heap_fields.c")
	if err != nil {
		t.Fatal(err)
	}
	shifted := filepath.Join(t.TempDir(), "heap_fields.c")
	edited := strings.Replace(string(src), "struct stats {", "/* a comment\n   of three lines\n   added above */\nstruct stats {", 1)
	if err := os.WriteFile(shifted, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	a := detect(t, "../../../testdata/race/heap_fields.c", 2).Races
	b := detect(t, shifted, 2).Races
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("races: %d and %d", len(a), len(b))
	}
	if a[0].ID != b[0].ID || a[0].First.Loc.Line+3 != b[0].First.Loc.Line {
		t.Fatalf("ids %s vs %s (lines %d vs %d)", a[0].ID, b[0].ID, a[0].First.Loc.Line, b[0].First.Loc.Line)
	}
}

func TestDeadlockIsAFailure(t *testing.T) {
	res := detect(t, "../../../testdata/crash/deadlock.c", 2)
	if len(res.Failures) == 0 || res.Failures[0].Kind != vm.TermDeadlock || len(res.Failures[0].Threads) != 2 {
		t.Fatalf("failures: %+v", res.Failures)
	}
	if res.Failures[0].Trace == nil || res.Failures[0].Trace.Len() == 0 {
		t.Fatal("deadlock failure without a trace to replay it")
	}
}

// The same program, options and seed give the same races, ids, instance
// counts and failures.
func TestDetectionIsDeterministic(t *testing.T) {
	summary := func() string {
		res := detect(t, "../../../testdata/race/stats_server.c", 5)
		var b strings.Builder
		for _, r := range res.Races {
			b.WriteString(r.ID + " " + r.Object + "\n")
			b.WriteString(fmt.Sprint(r.Instances, r.First.Thread, r.Second.Thread, r.First.Loc, r.Second.Loc) + "\n")
		}
		for _, f := range res.Failures {
			b.WriteString(f.Message + "\n")
		}
		return b.String()
	}
	a, b := summary(), summary()
	if a != b || a == "" {
		t.Fatalf("two runs differ or found nothing:\n%s\n---\n%s", a, b)
	}
}

// A pair ordered only by the accident of a lock hand-off is a potential
// race, and race-directed scheduling makes it a race; pairs ordered by a
// lock both hold, or by creating or joining a thread, are not potential
// races at all.
func TestPotentialRacesAndDirectedRuns(t *testing.T) {
	run := func(path string, directed int) *race.Result {
		t.Helper()
		prog := loadtest.Program(t, cacheDir, path)
		res, err := race.Detect(prog, race.Options{Schedules: 5, Directed: directed, Seed: 1,
			Run: vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 50_000_000}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	base := run("../../../testdata/recall/lock_iteration.c", -1)
	if len(base.Races) != 0 || len(base.Candidates) == 0 {
		t.Fatalf("base plan: %d races, %d potential races; want the race hidden and a potential race", len(base.Races), len(base.Candidates))
	}
	full := run("../../../testdata/recall/lock_iteration.c", 0)
	if len(full.Races) != 1 || full.Races[0].Technique != race.ByDirected || len(full.Confirmed) != 1 || full.Runs[race.ByDirected] == 0 {
		t.Fatalf("whole plan: %d races, confirmed %d, runs %v", len(full.Races), len(full.Confirmed), full.Runs)
	}
	if r := full.Races[0]; r.PreemptAccesses || len(r.Trace.PreemptAt) != 2 {
		// The directed execution switches only at the pair's two
		// statements; its trace carries them, so its schedule replays.
		t.Fatalf("a race found by a directed execution: preempt accesses %v, preemption points %v", r.PreemptAccesses, r.Trace.PreemptAt)
	}
	locked := run("../../../testdata/run/mutex_counter.c", 0)
	for _, c := range locked.Candidates {
		t.Errorf("potential race in a program whose accesses share a lock or are ordered by join: %s %s / %s", c.Object, c.A, c.B)
	}
	if locked.Runs[race.ByDirected] != 0 {
		t.Errorf("%d race-directed runs with no potential race", locked.Runs[race.ByDirected])
	}
}

// The race-directed runs are Directed for the analysis's own inputs and
// for each explored input whose plan ran in full: an input on which the
// program keeps one thread shows no potential race, and its share went
// to the own input's pairs (SPLASH-2 ocean made 113 directed runs so).
func TestDirectedRunsFollowTheInputsThatRan(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/budget/barrier_pairs.c")
	directed := func(args ...string) int {
		t.Helper()
		var ins []*race.Inputs
		for _, a := range args {
			ins = append(ins, &race.Inputs{Args: []string{a}})
		}
		res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Inputs: ins,
			Run: vm.Config{Args: []string{"barrier_pairs"}, MaxInstructions: 50_000_000}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Candidates) < 20 {
			t.Fatalf("%d potential races; the program orders 24 pairs by a barrier", len(res.Candidates))
		}
		return res.Runs[race.ByDirected]
	}
	if n := directed("h1", "h2", "h3"); n != 5 {
		t.Errorf("three one-thread inputs: %d race-directed runs, want 5 (the own input's)", n)
	}
	if n := directed("x", "y", "h"); n != 15 {
		t.Errorf("two threaded inputs and a one-thread one: %d race-directed runs, want 15", n)
	}
}

// A race another detector reported is directed at on the explored inputs
// whose plan ran in full only: on one where the program kept one thread
// the directed run would repeat that execution.
func TestExternalRunsSkipInputsThatCouldNotRun(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/budget/barrier_pairs.c")
	never := &race.Candidate{ID: "external", A: "nowhere.c:1:1", B: "nowhere.c:2:1"} // never met
	res, err := race.Detect(prog, race.Options{Schedules: 1, Seed: 1, Directed: -1, External: []*race.Candidate{never},
		Inputs: []*race.Inputs{{Args: []string{"h"}}, {Args: []string{"x"}}},
		Run:    vm.Config{Args: []string{"barrier_pairs"}, MaxInstructions: 50_000_000}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.External) != 1 || res.External[0].Inputs != 1 || res.Runs[race.ByExternal] != 2 {
		t.Errorf("external runs %+v, %d executions; want the own input and the one threaded input (2)", res.External, res.Runs[race.ByExternal])
	}
}

// The plans on explored inputs and the race-directed runs each stop once
// they have run their share of instructions (StageInstructions), at the
// same execution on any machine: here two and a half runs' worth of the
// program, so each stage runs three executions and says how many it left
// out, and the inputs it never ran get no race-directed run.
func TestStagesStopAtTheirShare(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/budget/barrier_pairs.c")
	detect := func(share uint64) *race.Result {
		t.Helper()
		res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, StageInstructions: share,
			Inputs: []*race.Inputs{{Args: []string{"x"}}, {Args: []string{"y"}}, {Args: []string{"z"}}},
			Run:    vm.Config{Args: []string{"barrier_pairs"}, MaxInstructions: 50_000_000}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	all := detect(race.Unbounded)
	if all.Runs[race.ByInputs] != 15 || all.Runs[race.ByDirected] != 20 || all.InputsShare.LeftOut != 0 || all.DirectedShare.LeftOut != 0 {
		t.Fatalf("with no share: %d executions on inputs, %d race-directed runs, left out %d and %d; want 15, 20, none",
			all.Runs[race.ByInputs], all.Runs[race.ByDirected], all.InputsShare.LeftOut, all.DirectedShare.LeftOut)
	}
	run := all.DirectedShare.Spent / 20 // the runs differ by a few instructions at most
	res := detect(run*5/2 + 1)
	for _, c := range []struct {
		what      string
		runs      int
		share     race.Share
		ran, left int
	}{
		{"plans on inputs", res.Runs[race.ByInputs], res.InputsShare, 3, 12},
		{"race-directed runs", res.Runs[race.ByDirected], res.DirectedShare, 3, 7}, // the own input's 5 and x's
	} {
		if c.runs != c.ran || c.share.LeftOut != c.left || c.share.Spent < c.share.Budget || c.share.Spent > c.share.Budget+run+run/10 {
			t.Errorf("%s: %d executions, left out %d, ran %d instructions of %d; want %d, %d, the budget and at most one run more",
				c.what, c.runs, c.share.LeftOut, c.share.Spent, c.share.Budget, c.ran, c.left)
		}
	}
	if again := detect(run*5/2 + 1); again.Schedules != res.Schedules || again.Instructions != res.Instructions {
		t.Errorf("the same share ran %d executions, %d instructions, then %d, %d", res.Schedules, res.Instructions, again.Schedules, again.Instructions)
	}
}

// A race-directed run that confirms its race is not charged to the
// stage's share: a stage that keeps finding goes on.
func TestFindingRunsAreNotCharged(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/recall/lock_iteration.c")
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, StageInstructions: 1,
		Run: vm.Config{Args: []string{"lock_iteration"}, MaxInstructions: 50_000_000}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Confirmed) != 1 || res.Runs[race.ByDirected] != 1 || res.DirectedShare.Spent != 0 || res.DirectedShare.LeftOut != 0 {
		t.Errorf("%d confirmed in %d race-directed runs, share %+v; want the one race, its run not charged", len(res.Confirmed), res.Runs[race.ByDirected], res.DirectedShare)
	}
}
