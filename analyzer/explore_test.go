package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/detect/race/racetest"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/category"
	"augur/analyzer/output/evidence"
	"augur/internal/testutil"
)

// exploreExpect is what a program of testdata/explore must give: the
// failure it must reach ("assert", "crash", "deadlock") on its `bug:`
// line, "no harm", or "race" (its `race:` lines found).
type exploreExpect struct {
	what string
	line int
}

var (
	expectLine = regexp.MustCompile(`(?m)^ \* expect: (assert|crash|deadlock|no harm|race)\b`)
	bugLine    = regexp.MustCompile(`//\s*bug:`)
)

func readExploreExpect(t testing.TB, path string) exploreExpect {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := expectLine.FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no `expect:` line", path)
	}
	e := exploreExpect{what: string(m[1])}
	for i, l := range strings.Split(string(data), "\n") {
		if bugLine.MatchString(l) {
			e.line = i + 1
		}
	}
	if e.line == 0 && e.what != "no harm" && e.what != "race" {
		t.Fatalf("%s: expects %s but marks no `bug:` line", path, e.what)
	}
	return e
}

// TestExploreCorpus analyzes every program of testdata/explore with the
// default plan and exploration, as `augur analyze` does: each bug is
// reached (as a failure of some schedule, or as a spec-violated race) and
// replays from its evidence; the programs that must not be called
// harmful (fair polling, printed time, long loops) get no failure and no
// harmful race.
func TestExploreCorpus(t *testing.T) {
	for _, f := range testutil.Programs("../testdata/explore") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			want := readExploreExpect(t, f)
			prog := mustLoad(t, f)
			opts := options(f)
			opts.Workers = 0
			opts.ExploreTime = 5 * time.Minute // it saturates long before: the run is deterministic
			opts.Run.MaxMemory = 1 << 30
			res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			switch want.what {
			case "no harm":
				for _, fl := range res.Detection.Failures {
					if fl.Kind == vm.TermBudget && res.Detection.TooLong != nil {
						continue // round robin outran the instruction budget: reported once, as a limit
					}
					t.Errorf("failure %s at %s (%s) under %s", fl.Kind, fl.Loc, fl.Message, fl.Schedule)
				}
				for i, v := range res.Verdicts {
					if v.Harmful() {
						t.Errorf("race on %s called %s: %s", res.Races[i].Object, v.Category, v.Reason)
					}
				}
			case "race":
				racetest.CheckRaces(t, f, res.Races)
			default:
				if !reachedBug(t, prog, res, want, f) {
					t.Errorf("the %s at line %d was not reached (%d schedules, %d races)", want.what, want.line,
						res.Detection.Schedules, len(res.Races))
				}
			}
		})
	}
}

// reachedBug reports whether the analysis reached the expected failure,
// and checks that what reached it replays.
func reachedBug(t testing.TB, prog *ir.Program, res *analyzer.Result, want exploreExpect, path string) bool {
	t.Helper()
	matches := func(k vm.TermKind, loc ir.Loc, stacks ...[]vm.StackFrame) bool {
		if k.String() != want.what && !(want.what == "crash" && k == vm.TermCrash) {
			return false
		}
		if loc.Line == want.line && filepath.Base(loc.File) == filepath.Base(path) {
			return true
		}
		for _, st := range stacks { // a deadlock is where its threads block
			for _, fr := range st {
				if fr.Loc.Line == want.line {
					return true
				}
			}
		}
		return false
	}
	for _, fl := range res.Detection.Failures {
		var stacks [][]vm.StackFrame
		for _, st := range fl.Threads {
			stacks = append(stacks, st)
		}
		if !matches(fl.Kind, fl.Loc, stacks...) {
			continue
		}
		replayFailure(t, prog, res, fl)
		return true
	}
	for i, v := range res.Verdicts {
		if v == nil || v.Category != category.SpecViolated || v.Failure == nil {
			continue
		}
		var stacks [][]vm.StackFrame
		for _, st := range v.Failure.Threads {
			stacks = append(stacks, st)
		}
		if !matches(v.Failure.Kind, v.Failure.Loc, stacks...) {
			continue
		}
		ev, err := evidence.FromVerdict(res.Races[i], v, res.Options.Sources, res.Options.Run)
		if err != nil {
			t.Fatal(err)
		}
		if tr := evidence.Replay(prog, ev, vm.Limits{}); !tr.Reproduced {
			t.Errorf("race on %s (spec-violated) does not replay: %s", res.Races[i].Object, tr.Mismatch)
		}
		return true
	}
	return false
}

// replayFailure replays a failure from its evidence, as `augur replay`
// does, and checks it fails the same way and prints the same.
func replayFailure(t testing.TB, prog *ir.Program, res *analyzer.Result, fl *race.Failure) {
	t.Helper()
	ev, err := evidence.FromFailure(fl, res.Options.Sources, res.Options.Run)
	if err != nil {
		t.Fatal(err)
	}
	if tr := evidence.Replay(prog, ev, vm.Limits{}); !tr.Reproduced {
		t.Errorf("failure %s at %s under %s does not replay: %s", fl.Kind, fl.Loc, fl.Schedule, tr.Mismatch)
	}
}

// The race on the lock-free stack's next field is spec-violated (the ABA's
// assert): in the occurrence where the slow popper read its successor
// before the recycler's pops and push, its primary order with the two
// accesses back to back (or the harm search's PCT over the exploration's
// points) reaches the assert; its evidence replays.
func TestClassificationReachesTheABA(t *testing.T) {
	f := "../testdata/explore/aba_stack.c"
	prog := mustLoad(t, f)
	opts := options(f)
	opts.Workers = 0
	opts.ExploreTime = 5 * time.Minute // it saturates long before: the run is deterministic
	res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res.Verdicts {
		if v == nil || v.Category != category.SpecViolated {
			continue
		}
		if v.Failure == nil || v.Failure.Kind != vm.TermAssert {
			t.Fatalf("the verdict has no assert: %+v", v.Failure)
		}
		ev, err := evidence.FromVerdict(res.Races[i], v, res.Options.Sources, res.Options.Run)
		if err != nil {
			t.Fatal(err)
		}
		if tr := evidence.Replay(prog, ev, vm.Limits{}); !tr.Reproduced {
			t.Fatalf("the verdict's evidence does not replay: %s", tr.Mismatch)
		}
		return
	}
	for i, v := range res.Verdicts {
		t.Logf("race on %s: %s (%s) %s", res.Races[i].Object, v.Category, v.Stage, v.Reason)
	}
	t.Fatal("no race was found spec-violated")
}
