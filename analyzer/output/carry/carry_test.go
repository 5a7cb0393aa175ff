package carry_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load/loadtest"
	"augur/analyzer/output/carry"
	"augur/analyzer/output/evidence"
	"augur/analyzer/output/report"
	"augur/internal/testutil"
)

var cacheDir string

func TestMain(m *testing.M) { testutil.MainWithCache(m, &cacheDir) }

func mustLoad(t testing.TB, path string) *ir.Program {
	t.Helper()
	prog := loadtest.Program(t, cacheDir, path)
	return prog
}

func options(path string) analyzer.Options {
	return analyzer.Options{Run: vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 20_000_000},
		Sources: []string{path}, Seed: 1, Workers: 1}
}

// copyWith writes src, passed through edit, to dir/name and returns its path.
func copyWith(t *testing.T, src, dir, name string, edit func(string) string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(edit(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A save that only adds comments and blank lines and reflows a statement
// leaves the code hash alone; the remapped result points at the new
// lines, and its rewritten evidence replays on the edited program.
func TestRelocateAfterCommentOnlyEdit(t *testing.T) {
	dir := t.TempDir()
	src := "../../../testdata/classify/double_free.c"
	path := copyWith(t, src, dir, "p.c", func(s string) string { return s })
	before := mustLoad(t, path)
	opts := options(path)
	opts.EvidenceDir = filepath.Join(dir, "evidence")
	res, err := analyzer.Analyze(context.Background(), before, opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	old := report.FromResult(res, "")
	// The race of the check (line 11) against the clear (line 13): the
	// exploration finds two more on the buffer (double_free.c's end).
	k := slices.IndexFunc(old.Races, func(r report.Race) bool {
		if len(r.Accesses) != 2 || r.Category != "spec-violated" {
			return false
		}
		a, b := r.Accesses[0].Line, r.Accesses[1].Line
		return min(a, b) == 11 && max(a, b) == 13
	})
	if k < 0 {
		t.Fatalf("races before the edit: %+v", old.Races)
	}

	copyWith(t, src, dir, "p.c", func(s string) string {
		s = "// A comment line\n\n/* and a block\n   comment */\n" + s
		return strings.Replace(s, "\t\tfree(buf);", "\t\tfree(\n\t\t\tbuf);", 1)
	})
	after := mustLoad(t, path)
	if before.CodeHash() != after.CodeHash() {
		t.Fatal("comment-only edit changed the code hash")
	}
	m := ir.MapLocs(before, after)
	if m == nil {
		t.Fatal("MapLocs refused programs with the same code")
	}
	moved := report.FromResult(carry.Relocate(res, m), "")
	marked := annotatedLines(t, path)
	for i, a := range moved.Races[k].Accesses {
		if !marked[a.Line] || a.Line == old.Races[k].Accesses[i].Line {
			t.Errorf("access %d at line %d after the edit (was %d), want one of the annotated lines %v",
				i, a.Line, old.Races[k].Accesses[i].Line, marked)
		}
	}
	if moved.Races[k].Category != "spec-violated" || moved.Races[k].Evidence == "" {
		t.Fatalf("remapped race: %+v", moved.Races[k])
	}
	ev, err := evidence.Read(moved.Races[k].Evidence)
	if err != nil {
		t.Fatal(err)
	}
	if tr := evidence.Replay(after, ev, vm.Limits{}); !tr.Reproduced {
		t.Fatalf("remapped evidence did not replay: %s", tr.Mismatch)
	}
	// The failure happens inside free: the crash is found at the reflowed
	// call, now on its second line.
	if !strings.Contains(moved.Races[k].Consequence, "p.c:") {
		t.Errorf("consequence: %s", moved.Races[k].Consequence)
	}
}

// annotatedLines returns the lines of path that carry a race annotation.
func annotatedLines(t *testing.T, path string) map[int]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "// race:") {
			out[i+1] = true
		}
	}
	return out
}

// A real change to the code changes the hash.
func TestCodeChangeChangesHash(t *testing.T) {
	dir := t.TempDir()
	src := "../../../testdata/classify/double_free.c"
	a := mustLoad(t, copyWith(t, src, dir, "a.c", func(s string) string { return s }))
	b := mustLoad(t, copyWith(t, src, dir, "a.c", func(s string) string {
		return strings.Replace(s, "malloc(32)", "malloc(64)", 1)
	}))
	if a.CodeHash() == b.CodeHash() {
		t.Fatal("changing malloc(32) to malloc(64) left the code hash unchanged")
	}
}

// Reignore moves a race whose line now carries an `augur:ignore` comment
// to the ignored ones, and refuses (ok false) when a race ignored before
// no longer is: it was never classified.
func TestReignore(t *testing.T) {
	path, _ := filepath.Abs("../../../testdata/race/counter.c")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), options(path), analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Races) != 1 || len(res.Ignored) != 0 {
		t.Fatalf("races %d, ignored %d before the comment; want 1, 0", len(res.Races), len(res.Ignored))
	}
	marked := strings.Replace(string(src), "hits++; // race: hits output-differs", "hits++; // augur:ignore", 1)
	if marked == string(src) {
		t.Fatal("test program changed: its racing line was not found")
	}
	read := func(text string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) {
			if p == path {
				return []byte(text), nil
			}
			return os.ReadFile(p)
		}
	}
	quiet, ok := carry.Reignore(res, read(marked))
	if !ok || len(quiet.Races) != 0 || len(quiet.Verdicts) != 0 || len(quiet.Ignored) != 1 {
		t.Fatalf("with the comment: ok %v, races %d, ignored %d; want true, 0, 1", ok, len(quiet.Races), len(quiet.Ignored))
	}
	if len(res.Races) != 1 || len(res.Ignored) != 0 {
		t.Error("Reignore changed the result it was given")
	}
	if again, ok := carry.Reignore(quiet, read(string(src))); ok {
		t.Errorf("the comment removed again: ok with %d races, want a refusal", len(again.Races))
	}
}
