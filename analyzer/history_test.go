package analyzer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/judge/classify"
	"augur/analyzer/judge/history"
)

// A history carries one analysis's races and verdicts to the next
// analysis of the same program: a race only another schedule found stays
// known (and is classified again), a harmless verdict's k adds up, and
// each analysis starts its random schedules where the last one stopped.
func TestHistoryAcrossAnalyses(t *testing.T) {
	path := "../testdata/race/handoff.c" // its race needs a reversal: round robin alone misses it
	prog := mustLoad(t, path)
	hist := filepath.Join(t.TempDir(), "history.json")
	analyze := func(schedules int) *analyzer.Result {
		t.Helper()
		opts := options(path)
		opts.Schedules, opts.Directed, opts.History = schedules, -1, hist
		opts.ExploreTime = -1 // the exploration would find the race again itself
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) > 0 {
			t.Fatalf("warnings: %v", res.Warnings)
		}
		return res
	}
	first := analyze(5)
	if len(first.Races) != 1 || first.Races[0].Technique == race.ByHistory {
		t.Fatalf("first analysis: %d races", len(first.Races))
	}
	k1 := first.Verdicts[0].K
	second := analyze(1)
	if len(second.Races) != 1 || second.Races[0].Technique != race.ByHistory {
		t.Fatalf("second analysis (round robin only) did not recall the race: %+v", second.Races)
	}
	v := second.Verdicts[0]
	if v.Category != first.Verdicts[0].Category {
		t.Fatalf("recalled race classified %s, first %s", v.Category, first.Verdicts[0].Category)
	}
	if v.Category == classify.Harmless && (v.K <= k1 || !strings.Contains(v.Reason, "earlier analyses")) {
		t.Fatalf("k did not add up: %d after %d (%s)", v.K, k1, v.Reason)
	}
	third := analyze(5)
	if third.Detection.Schedules == 0 || len(third.Races) != 1 {
		t.Fatalf("third analysis: %d races", len(third.Races))
	}
	// Another program in the same file starts over.
	other := "../testdata/race/counter.c"
	opts := options(other)
	opts.History = hist
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, other), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Races {
		if r.Technique == race.ByHistory {
			t.Fatalf("a race of handoff.c was recalled for counter.c")
		}
	}
}

// After an edit elsewhere in the program, a known race is still known: its
// statements, found again relative to their functions, are the first pair
// race-directed scheduling aims at, and its verdict merges with the new
// one. An edit of a function that holds it forgets it.
func TestHistoryAcrossEdits(t *testing.T) {
	src, err := os.ReadFile("../testdata/race/handoff.c")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, hist := filepath.Join(dir, "handoff.c"), filepath.Join(dir, "history.json")
	analyze := func(text string, schedules int) *analyzer.Result {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		opts := options(path)
		opts.Schedules, opts.History = schedules, hist
		res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := analyze(string(src), 5)
	if len(first.Races) != 1 {
		t.Fatalf("first analysis: %d races", len(first.Races))
	}
	id := first.Races[0].ID
	// Lines and a function added above the racing ones: another program,
	// the same racing functions.
	edited := strings.Replace(string(src), "static void *producer", "static int unrelated(int x) {\n\treturn x * 3;\n}\n\nstatic void *producer", 1)
	second := analyze(edited, 1)
	if len(second.Races) != 1 || second.Races[0].ID != id {
		t.Fatalf("after an edit elsewhere: %d races", len(second.Races))
	}
	det := second.Detection
	want := race.RaceCandidateID(second.Races[0])
	if len(det.Directed) == 0 || det.Directed[0] != want || len(det.Confirmed) == 0 {
		t.Fatalf("the known race was not the first pair directed: directed %v, want %s first", det.Directed, want)
	}
	// The producer changes: the race it held is forgotten.
	changed := strings.Replace(edited, "data = 42;", "data = 43;", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := options(path)
	opts.History = hist
	prior, _, err := history.Open(hist, mustLoad(t, path), 1, analyzer.SettingsKey(&opts))
	if err != nil {
		t.Fatal(err)
	}
	if prior == nil {
		t.Fatal("the history was lost")
	}
	for _, c := range prior.Confirmed {
		t.Errorf("the pair %s / %s of changed code is still known", c.A, c.B)
	}
}

// A function's fingerprint does not move when another function, with
// string literals of its own, is added before it (objects are renumbered),
// and moves when the function itself changes.
func TestFuncHashIgnoresEditsElsewhere(t *testing.T) {
	src, err := os.ReadFile("../testdata/lsp/account.c")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "account.c")
	hashes := func(text string) map[string]string {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		prog := mustLoad(t, path)
		out := map[string]string{}
		for _, f := range prog.Funcs {
			if !f.Decl {
				out[f.Name] = prog.FuncHash(f.Name)
			}
		}
		return out
	}
	before := hashes(string(src))
	added := hashes("#include <stdio.h>\nstatic int early(int x) { printf(\"early %d\\n\", x); return x; }\n" + string(src) +
		"\nint late_helper(int x) { return early(x) + 1; }\n")
	for name, h := range before {
		if added[name] != h {
			t.Errorf("%s: fingerprint changed when other functions were added", name)
		}
	}
	changed := hashes(strings.Replace(string(src), "audited = 1;", "audited = 2;", 1))
	if changed["teller"] == before["teller"] {
		t.Error("teller's fingerprint did not change with its code")
	}
	if changed["main"] != before["main"] {
		t.Error("main's fingerprint changed with teller's code")
	}
}

// Each analysis that builds on a history explores schedules no earlier
// one explored: the editor's short per-save exploration adds up across
// saves instead of running the same schedules again.
func TestExplorationGoesOnAcrossAnalyses(t *testing.T) {
	// Its enumeration leaves schedules out (a fair decision), so PCT
	// explores after it.
	path := "../testdata/explore/publish_early.c"
	prog := mustLoad(t, path)
	hist := filepath.Join(t.TempDir(), "history.json")
	var last uint64
	for i := range 3 {
		opts := options(path)
		opts.History = hist
		opts.ExploreTime = 5 * time.Minute // it saturates long before
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		x := res.Detection.Explore
		if x.Schedules == 0 || x.Ended != race.EndedSaturated {
			t.Fatalf("analysis %d: explored %d schedules, ended %q", i+1, x.Schedules, x.Ended)
		}
		if x.Seeds[0] <= last {
			t.Errorf("analysis %d explored seeds %d..%d, the one before went up to %d", i+1, x.Seeds[0], x.Seeds[1], last)
		}
		last = x.Seeds[1]
	}
}

// The allocation sites an analysis had to shadow from birth go into the
// history, and the next analysis of the program starts knowing them
// (race.Prior.Shared), so its executions need not begin again to learn
// them; its races are the same.
func TestHistoryKeepsTheSharedSites(t *testing.T) {
	path := "../testdata/race/handoff_sites.c"
	prog := mustLoad(t, path)
	hist := filepath.Join(t.TempDir(), "history.json")
	analyze := func() *analyzer.Result {
		t.Helper()
		opts := options(path)
		opts.History, opts.ExploreTime = hist, -1
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := analyze()
	if len(first.Detection.Shared) != 2 {
		t.Fatalf("first analysis shadowed %q from birth, want handoff_sites.c's two job sites", first.Detection.Shared)
	}
	data, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct{ Shared []string }
	if err := json.Unmarshal(data, &rec); err != nil || !slices.Equal(rec.Shared, first.Detection.Shared) {
		t.Fatalf("the history keeps the sites %q (%v), want %q", rec.Shared, err, first.Detection.Shared)
	}
	second := analyze()
	if !slices.Equal(second.Detection.Shared, first.Detection.Shared) || len(second.Races) != len(first.Races) {
		t.Errorf("second analysis: sites %q and %d races, first %q and %d", second.Detection.Shared, len(second.Races),
			first.Detection.Shared, len(first.Races))
	}
}

// Where the enumeration ran every schedule at its points, PCT does not
// run after it, and analyses that build on the history of the same
// program neither enumerate nor explore again.
func TestNothingLeftAfterAllSchedules(t *testing.T) {
	path := "../testdata/race/handoff.c"
	prog := mustLoad(t, path)
	hist := filepath.Join(t.TempDir(), "history.json")
	for i := range 2 {
		opts := options(path)
		opts.History, opts.DetectOnly = hist, true
		opts.ExploreTime = 5 * time.Minute
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		x := res.Detection.Explore
		if x.Ended != race.EndedComplete || x.Schedules != 0 {
			t.Errorf("analysis %d: %d PCT schedules, ended %q; want none, ended %q", i+1, x.Schedules, x.Ended, race.EndedComplete)
		}
		if enumerated := x.Enumerated > 0; enumerated != (i == 0) || x.AllSchedules != (i == 0) {
			t.Errorf("analysis %d: enumerated %d schedules (all: %v); want them all in the first analysis only", i+1, x.Enumerated, x.AllSchedules)
		}
	}
}

// A small program's bounded enumeration runs every schedule with at most
// two preemptions at its points and says so; a bug that needs one
// preemption between two plain accesses is among them; an analysis that
// builds on a history of the same program skips it (its schedules would
// be the same) and goes on with PCT.
func TestBoundedEnumeration(t *testing.T) {
	path := "../testdata/explore/refcount.c"
	prog := mustLoad(t, path)
	hist := filepath.Join(t.TempDir(), "history.json")
	analyze := func() *analyzer.Result {
		opts := options(path)
		opts.History, opts.Workers, opts.DetectOnly = hist, 0, true
		opts.ExploreTime = 5 * time.Minute // both phases end long before: the run is deterministic
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := analyze()
	x := first.Detection.Explore
	if x.Enumerated == 0 || !x.Exhaustive {
		t.Fatalf("enumeration: %d schedules, exhaustive %v", x.Enumerated, x.Exhaustive)
	}
	found := false
	for _, f := range first.Detection.Failures {
		found = found || strings.HasPrefix(f.Schedule, "bounded schedule")
	}
	if !found {
		t.Errorf("no failure found by a bounded schedule: %+v", first.Detection.Failures)
	}
	if again := analyze().Detection.Explore; again.Enumerated != 0 || again.Schedules == 0 {
		t.Errorf("the second analysis enumerated %d schedules and explored %d with PCT", again.Enumerated, again.Schedules)
	}
}
