package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
	"augur/analyzer/output/evidence"
	"augur/analyzer/output/report"
	"augur/internal/testutil"
)

// analyzeModel runs the whole analysis of a testdata/weak program under a
// memory model, with evidence.
func analyzeModel(t *testing.T, name, model string) *report.Report {
	t.Helper()
	path := filepath.Join("..", "testdata", "weak", name)
	prog := mustLoad(t, path)
	opts := options(path)
	opts.MemoryModel, _ = memmodel.Parse(model)
	opts.EvidenceDir = t.TempDir()
	res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	rep := report.FromResult(res, "")
	if rep.MemoryModel.String() != model {
		t.Errorf("report says memory model %q, want %q", rep.MemoryModel, model)
	}
	return rep
}

// allowed reads a program's `outputs sc: ...` / `outcomes weak: ...` line.
func allowed(t *testing.T, name, model string) []string {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "weak", name))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?:outputs|outcomes) ` + model + `: (.*)`).FindStringSubmatch(string(src))
	if m == nil {
		t.Fatalf("%s states no outputs under %s", name, model)
	}
	out := strings.Fields(m[1])
	sort.Strings(out)
	return out
}

// seenOutputs is the union of the outputs the classification of every race
// printed, one line each.
func seenOutputs(rep *report.Report) []string {
	set := map[string]bool{}
	for _, r := range rep.Races {
		for _, o := range r.Outputs {
			set[strings.TrimSpace(o)] = true
		}
	}
	var out []string
	for o := range set {
		out = append(out, o)
	}
	sort.Strings(out)
	return out
}

// The printing microbenchmark and the litmus programs: classifying their
// races shows every output the model allows, and none it forbids.
func TestWeakOutputs(t *testing.T) {
	for _, name := range []string{"no_sync.c", "mp.c", "sb.c", "mp_acqrel.c", "sync.c"} {
		for _, model := range []string{"sc", "weak"} {
			got := seenOutputs(analyzeModel(t, name, model))
			want := allowed(t, name, model)
			for _, o := range got {
				if !contains(want, o) {
					t.Errorf("%s under %s printed %q, which the model forbids (allowed %v)", name, model, o, want)
				}
			}
			if name != "mp_acqrel.c" && !reflect.DeepEqual(got, want) {
				// mp_acqrel's races are found on fewer schedules; its
				// exhaustive check is symex's litmus test.
				t.Errorf("%s under %s: classification saw outputs %v, want every allowed one %v", name, model, got, want)
			}
		}
	}
}

// The crashing microbenchmarks: no crash under sequential consistency;
// spec-violated under the weak model, explained, with evidence that
// replays the crash.
func TestWeakCrashes(t *testing.T) {
	for _, name := range []string{"no_sync_bug.c", "sync_bug.c"} {
		for _, r := range analyzeModel(t, name, "sc").Races {
			if r.Category == "spec-violated" {
				t.Errorf("%s under sc: race on %s is spec-violated: %s", name, r.Object, r.Consequence)
			}
		}
		path := filepath.Join("..", "testdata", "weak", name)
		prog := mustLoad(t, path)
		violated := 0
		for _, r := range analyzeModel(t, name, "weak").Races {
			if r.Category != "spec-violated" {
				continue
			}
			violated++
			if !strings.Contains(r.Consequence, "It needs the weak memory model: only if the store to x at") ||
				!strings.Contains(r.Consequence, "becomes visible after the store to y at") {
				t.Errorf("%s: consequence does not say what the weak model allows: %s", name, r.Consequence)
			}
			if len(r.WeakReads) == 0 || r.WeakReads[0].Object != "x" || r.WeakReads[0].Value != 0 {
				t.Errorf("%s: weak reads %+v, want the stale read of x = 0", name, r.WeakReads)
			}
			ev, err := evidence.Read(r.Evidence)
			if err != nil {
				t.Fatal(err)
			}
			if ev.MemoryModel != memmodel.Weak || len(ev.WeakReads) == 0 {
				t.Errorf("%s: evidence does not record the weak reads", name)
			}
			if tr := evidence.Replay(prog, ev, vm.Limits{}); !tr.Reproduced || tr.Result.Term.Kind.String() != "crash" {
				t.Errorf("%s: the weak evidence does not replay the crash: %s", name, tr.Mismatch)
			}
		}
		if violated == 0 {
			t.Errorf("%s under weak: no race is spec-violated", name)
		}
	}
}

// Annotated categories hold under both models (sync.c: the two identical
// stores are harmless either way).
func TestWeakCategories(t *testing.T) {
	path := filepath.Join("..", "testdata", "weak", "sync.c")
	want := map[int][2]string{}
	for _, a := range testutil.RaceAnnotations(t, path) {
		want[a.Line] = [2]string{a.Category, a.Weak}
	}
	for i, model := range []string{"sc", "weak"} {
		rep := analyzeModel(t, "sync.c", model)
		if len(rep.Races) != 1 {
			t.Fatalf("%s: %d races, want 1", model, len(rep.Races))
		}
		r := rep.Races[0]
		if w := want[r.Accesses[0].Line][i]; r.Category != w {
			t.Errorf("sync.c under %s: %s, want %s", model, r.Category, w)
		}
	}
}

// The same program, flags and seed give the same weak-model verdicts.
func TestWeakDeterministic(t *testing.T) {
	a := analyzeModel(t, "no_sync_bug.c", "weak")
	b := analyzeModel(t, "no_sync_bug.c", "weak")
	for i := range a.Races {
		x, y := a.Races[i], b.Races[i]
		x.Evidence, y.Evidence = "", ""
		x.ClassifySeconds, y.ClassifySeconds = 0, 0 // the time taken differs by nature
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("two runs differ:\n%+v\n%+v", x, y)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
