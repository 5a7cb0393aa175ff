package resolve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"augur/analyzer/frontend/build"
	"augur/internal/cachefile"
)

// project is testdata/project/tally, whose main.c says what completing it
// takes: tally.c for main.c, log.c for tally.c; other.c is another
// program and broken.c does not compile.
var project, _ = filepath.Abs("../../../testdata/project/tally")

// modeled stands for augur's models: the C library and pthreads.
func modeled(name string) bool {
	switch name {
	case "printf", "puts", "calloc", "pthread_create", "pthread_join", "pthread_mutex_init", "pthread_mutex_lock", "pthread_mutex_unlock":
		return true
	}
	return false
}

func complete(t *testing.T, files ...string) *Result {
	t.Helper()
	opts := build.Options{CacheDir: t.TempDir()}
	bc, err := build.Build(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Complete(context.Background(), files, bc, Walk(project), opts, modeled)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A program is completed as a linker would: the file that defines what
// main uses, then the file that defines what that one uses, and no
// other program's file though it defines the same name.
func TestCompleteTakesWhatTheProgramNeeds(t *testing.T) {
	r := complete(t, filepath.Join(project, "main.c"))
	want := []Taken{
		{File: filepath.Join(project, "tally.c"), Symbol: "tally_start", NeededBy: filepath.Join(project, "main.c")},
		{File: filepath.Join(project, "log.c"), Symbol: "log_line", NeededBy: filepath.Join(project, "tally.c")},
	}
	if !reflect.DeepEqual(r.Taken, want) {
		t.Errorf("taken %+v, want %+v", r.Taken, want)
	}
	if len(r.Skipped) != 0 {
		t.Errorf("left out %+v for names another file defined", r.Skipped)
	}
	if got := r.Sources([]string{"main.c"}); len(got) != 3 || got[0] != "main.c" {
		t.Errorf("sources %v", got)
	}
}

// A name only another program, or a file that does not compile, could
// define stays undefined, and the result says which file and why: the
// call the analysis cannot follow then names it.
func TestCompleteSaysWhyAFileWasNotTaken(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "uses.c")
	src := "void other_banner(void);\nint tally_reset(void *t);\n" +
		"int main(void) { other_banner(); return tally_reset(0); }\n"
	if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := complete(t, main)
	if len(r.Taken) != 0 {
		t.Errorf("took %+v", r.Taken)
	}
	for sym, want := range map[string]Skipped{
		"other_banner": {File: filepath.Join(project, "other.c"), Symbol: "other_banner", Why: "it defines main: it is another program"},
		"tally_reset":  {File: filepath.Join(project, "broken.c"), Symbol: "tally_reset", Why: "it does not compile on its own"},
	} {
		if got, ok := r.SkippedFor(sym); !ok || got != want {
			t.Errorf("%s: left out %+v (%v), want %+v", sym, got, ok, want)
		}
	}
}

// A program that needs nothing beyond augur's models reads no candidate.
func TestCompleteLeavesAWholeProgramAlone(t *testing.T) {
	r := complete(t, filepath.Join(project, "other.c"))
	if len(r.Taken)+len(r.Skipped) != 0 {
		t.Errorf("a whole program was completed: %+v", r)
	}
}

// The symbols kept beside a cached file hold while its contents do. The
// cache marks a file used by giving it a new modification time, and
// that keeps them (symbols kept by time were read again at every
// command); a file compiled again under the same name to other contents
// drops them; so do symbols kept in an older form.
func TestStoredSymbolsFollowTheContents(t *testing.T) {
	opts := build.Options{CacheDir: t.TempDir()}
	p, err := build.Build(context.Background(), []string{filepath.Join(project, "tally.c"), filepath.Join(project, "log.c")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tally, logged := p.Bitcode[0], p.Bitcode[1]
	forget := func() {
		memoMu.Lock()
		clear(symbolMemo)
		memoMu.Unlock()
	}
	if _, err := symbols(tally); err != nil {
		t.Fatal(err)
	}
	kept := storedPath(tally)
	if _, err := os.Stat(kept); err != nil {
		t.Fatalf("no symbols kept beside %s: %v", tally, err)
	}
	// Stand-in symbols under the file's sum: what is read while it holds.
	sum, _ := contentSum(tally)
	// Symbols of an older form (without aliases) are read again.
	data, _ := json.Marshal(stored{Sum: sum, Defined: []string{"stand_in"}})
	if err := os.WriteFile(kept, data, 0o644); err != nil {
		t.Fatal(err)
	}
	forget()
	if s, _ := symbols(tally); slices.Equal(s.Defined, []string{"stand_in"}) {
		t.Error("symbols kept in an older form were used")
	}
	data, _ = json.Marshal(stored{Format: symbolsFormat, Sum: sum, Defined: []string{"stand_in"}})
	if err := os.WriteFile(kept, data, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(tally, later, later) // what cachefile.Touch does, a minute on
	forget()
	if s, _ := symbols(tally); !slices.Equal(s.Defined, []string{"stand_in"}) {
		t.Errorf("after the file was marked used its symbols were read again: %v", s.Defined)
	}
	other, err := os.ReadFile(logged)
	if err != nil {
		t.Fatal(err)
	}
	if err := cachefile.WriteAtomic(tally, other); err != nil {
		t.Fatal(err)
	}
	forget()
	if s, _ := symbols(tally); !slices.Contains(s.Defined, "log_line") {
		t.Errorf("after the file was compiled again to other contents its old symbols were kept: %v", s.Defined)
	}
}
