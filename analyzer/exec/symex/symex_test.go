package symex_test

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/internal/testutil"
)

var cacheDir string

func TestMain(m *testing.M) { testutil.MainWithCache(m, &cacheDir) }

// Each program states its expectation on a line:
//
//	// expect: [--sym-arg N:] KIND "message substring" [args A B]
//	// expect: paths N
var expectRe = regexp.MustCompile(`// expect: (?:--sym-arg (\d+): )?(?:--sym-stdin (\d+): )?(?:--sym-file (\S+):(\d+): )?(?:paths (\d+)|(\w+) "([^"]*)"(?: args (\S+))?(?: stdin (.*))?)`)

func TestNarrowInputs(t *testing.T) {
	for _, name := range []string{"magic_word", "index_range", "relation", "svcomp", "path_count", "stdin_line", "file_header", "table_lookup", "two_objects", "copied_input", "scanf_window", "sscanf_line", "scanf_hex", "mode_workloads", "byte_table"} {
		name := name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := "../../../testdata/symex/" + name + ".c"
			src, _ := os.ReadFile(path)
			m := expectRe.FindStringSubmatch(string(src))
			if m == nil {
				t.Fatal("no expect line")
			}
			prog := loadtest.Program(t, cacheDir, path)
			cfg := vm.Config{Args: []string{name}, MaxInstructions: 10_000_000}
			if m[1] != "" {
				n, _ := strconv.Atoi(m[1])
				cfg.SymArgs = []int{n}
			}
			if m[2] != "" {
				cfg.SymStdin, _ = strconv.Atoi(m[2])
			}
			if m[3] != "" {
				n, _ := strconv.Atoi(m[4])
				cfg.SymFiles = map[string]int{m[3]: n}
			}
			res, err := symex.Explore(prog, symex.Options{Run: cfg, MaxPaths: 500})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.StoppedBy != "" {
				t.Fatalf("stopped by %s", res.Stats.StoppedBy)
			}
			if m[5] != "" {
				want, _ := strconv.Atoi(m[5])
				if res.Stats.Paths != want || len(res.Failures) != 0 {
					t.Fatalf("%d paths (%d failing), want %d", res.Stats.Paths, len(res.Failures), want)
				}
				return
			}
			if len(res.Failures) == 0 {
				t.Fatalf("no failing path of %d", res.Stats.Paths)
			}
			for _, f := range res.Failures { // several inputs may reach the one failure
				if f.Term.Loc != res.Failures[0].Term.Loc || f.Term.Kind != res.Failures[0].Term.Kind {
					t.Fatalf("failures at %s and %s", f.Term.Loc, res.Failures[0].Term.Loc)
				}
			}
			f := res.Failures[0]
			if f.Term.Kind.String() != m[6] || !strings.Contains(f.Term.Message, m[7]) {
				t.Fatalf("failure %s: %s", f.Term.Kind, f.Term.Message)
			}
			if m[8] != "" && strings.Join(f.Inputs.Args, " ") != m[8] {
				t.Fatalf("generated args %q, want %q", f.Inputs.Args, m[8])
			}
			if m[9] != "" && !strings.HasPrefix(f.Inputs.Stdin, m[9]) {
				t.Fatalf("generated stdin %q, want it to start with %q", f.Inputs.Stdin, m[9])
			}
			// The generated inputs replay the failure concretely.
			replay := vm.Config{Args: append([]string{name}, f.Inputs.Args...), Inputs: f.Inputs.Vars, MaxInstructions: 10_000_000,
				Stdin: []byte(f.Inputs.Stdin), Files: map[string][]byte{}}
			for n, d := range f.Inputs.Files {
				replay.Files[n] = []byte(d)
			}
			replay.Models = libc.Models()
			mach, err := vm.New(prog, replay)
			if err != nil {
				t.Fatal(err)
			}
			r := mach.Run()
			if r.Term.Kind != f.Term.Kind || r.Term.Loc != f.Term.Loc {
				t.Fatalf("replay with %v ended %s at %s, explored failure %s at %s", f.Inputs, r.Term.Kind, r.Term.Loc, f.Term.Kind, f.Term.Loc)
			}
		})
	}
}

// Output computed from symbolic inputs is kept as terms, not forked or
// fixed per value, and compared by the solver: 2*x and x+x print the same
// for every x, x*x does not.
func TestSymbolicOutputComparison(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/symex/sym_output.c")
	res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"out"}}, MaxPaths: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Paths) != 1 {
		t.Fatalf("%d paths, want 1 (printing must not fork)", len(res.Paths))
	}
	out := res.Paths[0].Output
	if len(out) != 4 || out[0].Format != "double %d\n" || out[0].Args[0].Op == 0 || out[3].Format != "" {
		t.Fatalf("events %+v", out)
	}
	sym := res.Symbolic
	doubled := out[0]
	summed := out[1]
	summed.Format = doubled.Format // same format, argument x+x
	squared := out[2]
	squared.Format = doubled.Format // same format, argument x*x
	if same, err := symex.SameOutput(sym, []vm.OutputEvent{doubled}, []vm.OutputEvent{summed}); err != nil || !same {
		t.Errorf("2*x vs x+x: same=%v err=%v", same, err)
	}
	if same, err := symex.SameOutput(sym, []vm.OutputEvent{doubled}, []vm.OutputEvent{squared}); err != nil || same {
		t.Errorf("2*x vs x*x: same=%v err=%v", same, err)
	}
	if same, _ := symex.SameOutput(sym, out[3:], out[3:]); !same {
		t.Error("a concrete event differs from itself")
	}
}

// Every searcher explores the same paths; they differ only in order.
func TestSearchersAgree(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/symex/path_count.c")
	for _, s := range []string{"dfs", "bfs", "random-path", "coverage"} {
		res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"p"}}, Searcher: s, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		outs := map[string]bool{}
		for _, p := range res.Paths {
			outs[string(p.Output[0].Data)] = true
		}
		if res.Stats.Paths != 8 || len(outs) != 8 {
			t.Errorf("%s: %d paths, %d distinct outputs; want 8 and 8", s, res.Stats.Paths, len(outs))
		}
	}
}

// A state forked in the middle of an instruction, or paused after a fork
// (every searcher but dfs pauses), runs that instruction again: it must
// count once, so each path's instruction count is the count of a concrete
// run on the path's inputs, whatever the searcher.
func TestForkedPathsCountLikeConcreteRuns(t *testing.T) {
	path := "../../../testdata/symex/path_count.c"
	prog := loadtest.Program(t, cacheDir, path)
	for _, searcher := range []string{"dfs", "bfs"} {
		res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"p"}}, Searcher: searcher})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Paths {
			m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"p"}, Inputs: p.Inputs.Vars})
			if err != nil {
				t.Fatal(err)
			}
			if run := m.Run(); run.Instructions != p.Instructions {
				t.Errorf("%s: a path counted %d instructions, the concrete run of its inputs %v counts %d",
					searcher, p.Instructions, p.Inputs.Vars, run.Instructions)
			}
		}
	}
}

// PathsBudget bounds what the paths after the seed's run in all, from
// what the seed's ran: nine modes that each run the whole workload cost
// the multiple of one run it allows, not nine runs, and the path that
// reaches it stops there.
func TestPathsBudgetBoundsTheWorkloads(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/symex/mode_workloads.c")
	cfg := vm.Config{Args: []string{"mode_workloads"}, MaxInstructions: 100_000_000}
	res, err := symex.Explore(prog, symex.Options{Run: cfg, MaxPaths: 100,
		SeedBudget:  func(n uint64) uint64 { return 2 * n },
		PathsBudget: func(n uint64) uint64 { return 3 * n }})
	if err != nil {
		t.Fatal(err)
	}
	var seed, after uint64
	for _, p := range res.Paths {
		if p.Seed {
			seed = p.Instructions
		} else {
			after += p.Instructions
		}
	}
	if seed == 0 {
		t.Fatal("no seed path")
	}
	st := res.Stats
	if st.PathsBudget != 3*seed || !strings.HasPrefix(st.StoppedBy, "instruction budget") {
		t.Errorf("paths budget %d, stopped by %q; want %d and the instruction budget", st.PathsBudget, st.StoppedBy, 3*seed)
	}
	if after > 3*seed {
		t.Errorf("the paths after the seed ran %d instructions, past their budget of %d", after, 3*seed)
	}
	if len(res.Paths) < 4 || len(res.Paths) >= 9 {
		t.Errorf("%d paths, want the seed and three or so more of the nine", len(res.Paths))
	}
}

// A solver budget bounds the calls of Z3 however much the inputs reach:
// past it, paths are pinned to one input each and go on concretely, and
// the inputs solved for each path still take it to the output it
// printed.
func TestSolverBudgetPinsPaths(t *testing.T) {
	path := "../../../testdata/symex/solver_budget.c"
	prog := loadtest.Program(t, cacheDir, path)
	cfg := vm.Config{Args: []string{"solver_budget"}, MaxInstructions: 10_000_000}
	const perPath, all = 8, 24
	res, err := symex.Explore(prog, symex.Options{Run: cfg, MaxPaths: 100, MaxPathCalls: perPath, MaxCalls: all})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	if st.Pinned == 0 {
		t.Fatalf("no path pinned: %+v", st)
	}
	// Each pinning may ask Z3 once more, for the path's solution.
	if st.Z3Calls > all+st.Pinned {
		t.Fatalf("%d calls of Z3 under a budget of %d (%d paths pinned)", st.Z3Calls, all, st.Pinned)
	}
	if len(res.Failures) != 0 || st.Paths < 2 {
		t.Fatalf("%d paths, %d failing", st.Paths, len(res.Failures))
	}
	for _, p := range res.Paths {
		replay := cfg
		replay.Inputs = p.Inputs.Vars
		replay.Models = libc.Models()
		m, err := vm.New(prog, replay)
		if err != nil {
			t.Fatal(err)
		}
		r := m.Run()
		got, _ := vm.Streams(r.Output)
		want, _ := vm.Streams(p.Output)
		if r.Term.Kind != vm.TermExit || string(got) != string(want) {
			t.Errorf("inputs %v replay to %s printing %q; the path printed %q", p.Inputs.Vars, r.Term.Kind, got, want)
		}
	}
}

// The inputs an exploration solves to do not follow the Go collector:
// Z3 hands a freed object's id to the next one it makes, and go-z3 frees
// an object when the collector finds its wrapper unreachable, so a
// backend that let go of what it made got other models for the same
// queries when the collector ran at other times (scanf_hex.c's failure
// was found on stdin 0000BEE1, 0000BEe1, 0000BEE4 or 0000BEED from run to
// run under GOGC=5).
func TestExplorationDoesNotFollowTheCollector(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/symex/scanf_hex.c")
	defer debug.SetGCPercent(debug.SetGCPercent(2))
	var first string
	for i := 0; i < 4; i++ {
		res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"scanf_hex"}, SymStdin: 8,
			MaxInstructions: 10_000_000}, MaxPaths: 500})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, p := range res.Paths {
			fmt.Fprintf(&b, "%v %v\n", p.Inputs, p.Term)
		}
		runtime.GC()
		if i == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatalf("exploration %d found other inputs than the first:\n%s\nagainst\n%s", i+1, b.String(), first)
		}
	}
}

// A load through a table indexed by an input byte masked to 0..255 can
// reach no other object and cannot leave the table: the bounds of the
// index say so (expr.Bounds), and the exploration asks the solver nothing
// about it. Before, each of byte_table.c's sixteen loads cost four queries,
// the most expensive a proof by exhausting every byte the index mixes
// (85 queries and 29 calls of Z3 in all), and one more asked whether the
// element's offset was aligned, which its low zeros say (TrailingZeros).
// What is left (6) is the branch's.
func TestMaskedTableIndexNeedsNoSolver(t *testing.T) {
	path := "../../../testdata/symex/byte_table.c"
	prog := loadtest.Program(t, cacheDir, path)
	res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"byte_table"}, MaxInstructions: 10_000_000}, MaxPaths: 10})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	if len(res.Failures) != 1 {
		t.Fatalf("%d failures, want the division by zero", len(res.Failures))
	}
	if st.Queries > 8 || st.Z3Calls > 0 {
		t.Logf("%+v", st)
		t.Fatalf("%d solver queries, %d calls of Z3, for sixteen loads and a branch", st.Queries, st.Z3Calls)
	}
}
