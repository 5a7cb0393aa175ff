package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/load"
)

// fuzzSeeds are small programs of the corpora, one per kind of thing the
// loader and the interpreter do: threads and locks, heap and strings,
// printf, a crash, a race.
var fuzzSeeds = []string{
	"../testdata/run/mutex_counter.c", "../testdata/run/linked_list.c", "../testdata/run/printf_int.c",
	"../testdata/run/structs.c", "../testdata/crash/use_after_free.c", "../testdata/race/counter.c",
	"../testdata/run/varargs.c", "../testdata/run/switch_loops.c",
}

// FuzzLoadRun builds mutants of C programs and runs them, and detects
// races in them, under small budgets: whatever clang accepts, augur must
// load or refuse with an error, and run to a termination it explains,
// never panic (a panic the interpreter recovers is reported as an
// internal error, which fails this too) nor exhaust the machine.
func FuzzLoadRun(f *testing.F) {
	for _, p := range fuzzSeeds {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	dir := f.TempDir()
	cache := filepath.Join(dir, "cache")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 16<<10 {
			return // clang's time, not augur's, would be measured
		}
		path := filepath.Join(t.TempDir(), "mutant.c")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		loaded, err := load.Sources(ctx, []string{path},
			build.Options{CacheDir: cache, CompileTimeout: 10 * time.Second, MaxMemory: 1 << 30}, nil, nil)
		if err != nil {
			return // does not compile, or not a program: an error is the right answer
		}
		prog := loaded.Prog
		lim := vm.Limits{Timeout: 2 * time.Second, MaxMemory: 64 << 20}
		cfg := vm.Config{Args: []string{"mutant"}, MaxInstructions: 200_000, Limits: lim}
		cfg.Models = libc.Models()
		m, err := vm.New(prog, cfg)
		if err != nil {
			return // refused up front (a global too large): an error again
		}
		res := m.Run()
		if strings.Contains(res.Term.Message, "internal error") {
			t.Fatalf("the interpreter panicked:\n%s", res.Term.Message)
		}
		det, err := race.Detect(prog, race.Options{Schedules: 2, Seed: 1, Run: cfg})
		if err != nil {
			t.Fatalf("detection: %v", err)
		}
		for _, f := range det.Failures {
			if strings.Contains(f.Message, "internal error") {
				t.Fatalf("the interpreter panicked under detection:\n%s", f.Message)
			}
		}
	})
}
