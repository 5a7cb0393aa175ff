package race

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"augur/analyzer/ir"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// Options configure detection over several schedules.
type Options struct {
	// Schedules is how many executions to run (at least 1): round robin
	// first; then schedules that reverse the order of lock acquisitions
	// seen in it (at most half of the rest); then PCT schedules seeded from
	// Seed.
	Schedules int
	Seed      uint64
	// Depth is the PCT bug depth (default 3).
	Depth int
	// Run is the template of every execution: arguments, input, budgets.
	// Its Policy and Monitor are set per schedule; its output is discarded.
	Run vm.Config
	// MutexBlind makes the detector ignore mutexes (for tests: races on
	// lock-protected data are then reported, and classification must call
	// them single-ordering).
	MutexBlind bool
	// Progress, when set, is told after each execution how many of the
	// Schedules have run.
	Progress func(done, total int)
}

// ErrCanceled is returned when Run.Cancel closes during detection.
var ErrCanceled = errors.New("detection canceled")

// Failure is how an execution ended when it did not exit normally: a
// crash, failed assert, abort, deadlock, exhausted budget or unsupported
// construct, found under some schedule.
type Failure struct {
	Kind     vm.TermKind
	Message  string `loc:"text"` // may name locations (ir.Relocate)
	Loc      ir.Loc
	Thread   int
	Stack    []vm.StackFrame
	Threads  map[int][]vm.StackFrame // deadlocks: every blocked thread
	Schedule string                  // which schedule: "round-robin" or "pct seed N"
	Budget   vm.Budget               // the budget a TermBudget failure exhausted
	Function string                  // the unmodeled function a TermUnsupported failure called
	Trace    *sched.Trace            // replays the failure
}

// Result is what detection found across all schedules.
type Result struct {
	Races        []*Race
	Inversions   []*Inversion
	Failures     []*Failure
	Schedules    int
	Instructions uint64
	Elapsed      time.Duration
	// Stopped is set when the analysis's time budget ran out during
	// detection: the races found until then are kept, Schedules counts the
	// executions that ran (the last one cut short).
	Stopped *vm.Termination
	// Havoc lists the undefined functions some schedule called under
	// vm.UndefinedHavoc, sorted.
	Havoc []string
}

// Detect runs prog under opts.Schedules schedules with a race detector and
// merges what they find. It is deterministic for a given Seed.
func Detect(prog *ir.Program, opts Options) (*Result, error) {
	if opts.Schedules < 1 {
		opts.Schedules = 1
	}
	if opts.Depth == 0 {
		opts.Depth = 3
	}
	start := time.Now()
	res := &Result{}
	var races [][]*Race
	seenInv := map[string]bool{}
	seenFail := map[string]bool{}
	plan := sched.DetectionPlan(opts.Schedules, opts.Seed)
	plan.Depth, plan.Acquires = opts.Depth, vm.AcquiresAt
	var first *sched.Trace
	ran := 0
	for i := 0; i < opts.Schedules; i++ {
		if t := opts.Run.Expired(); t != nil {
			res.Stopped = t
			break
		}
		cfg := opts.Run
		cfg.Stdout, cfg.Stderr, cfg.StdoutLineBuffered = nil, nil, false
		step := plan.Step(i, first)
		cfg.Policy = step.Policy
		name := step.Name
		d := New()
		d.mutexBlind = opts.MutexBlind
		cfg.Monitor = d
		m, err := vm.New(prog, cfg)
		if err != nil {
			return nil, err
		}
		d.Bind(m)
		run := m.Run()
		if run.Term.Kind == vm.TermCanceled {
			return nil, ErrCanceled
		}
		ran++
		if i == 0 {
			first = run.Trace
		}
		res.Instructions += run.Instructions
		res.Havoc = union(res.Havoc, run.Havoc)
		for _, r := range d.Races() {
			r.Trace = run.Trace
		}
		races = append(races, d.Races())
		if opts.Progress != nil {
			opts.Progress(i+1, opts.Schedules)
		}
		for _, inv := range d.Inversions() {
			if !seenInv[inv.ID] {
				seenInv[inv.ID] = true
				res.Inversions = append(res.Inversions, inv)
			}
		}
		if t := run.Term; t.Kind == vm.TermBudget && t.Budget == vm.BudgetTime {
			res.Stopped = t // the analysis's clock, not the program: no failure
			break
		}
		if t := run.Term; t.Kind != vm.TermExit {
			key := fmt.Sprintf("%s|%s|%s", t.Kind, t.Message, t.Loc)
			if t.Kind == vm.TermBudget {
				key = fmt.Sprintf("%s|%s|%s", t.Kind, t.Budget, t.Loc) // its message counts what it held
			}
			if !seenFail[key] {
				seenFail[key] = true
				res.Failures = append(res.Failures, &Failure{Kind: t.Kind, Message: t.Message, Loc: t.Loc, Thread: t.Thread,
					Stack: t.Stack, Threads: t.Threads, Schedule: name, Trace: run.Trace, Budget: t.Budget, Function: t.Function})
			}
		}
	}
	res.Races = Merge(races...)
	res.Schedules = ran
	res.Elapsed = time.Since(start)
	return res, nil
}

// union merges two sorted lists of names.
func union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
