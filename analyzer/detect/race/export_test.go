package race

import (
	"errors"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// ResumedPCT runs the PCT schedule of seed on prog from a fork of the
// state before its first decision, as the exploration does, with nothing
// learnt yet about which objects another thread sees (or, with all,
// shadowing every object from birth). It returns the races found and how
// many allocation sites the run learnt to shadow from birth.
func ResumedPCT(prog *ir.Program, run vm.Config, seed uint64, all bool) ([]*Race, int, error) {
	d := &detection{prog: prog, opts: Options{ShadowAll: all, Run: run}}
	root := &rootSnapshot{limit: 1 << 30}
	cfg := run
	cfg.Policy = sched.NewPCT(seed, 3, 50)
	st, err := root.start(d, cfg)
	if err != nil {
		return nil, 0, err
	}
	if st == nil {
		return nil, 0, errors.New("no snapshot before the first decision")
	}
	ex, err := d.complete(cfg, st)
	if err != nil {
		return nil, 0, err
	}
	return ex.races, len(d.shared.get()), nil
}

// RoundRobinStarts runs prog once under round robin, as the plan's first
// schedule, and returns how many times the execution began and how many
// allocation sites it learnt to shadow from birth.
func RoundRobinStarts(prog *ir.Program, run vm.Config) (int, int, error) {
	starts, shared, err := RoundRobinStartsFrom(prog, run, nil)
	return starts, len(shared), err
}

// RoundRobinStartsFrom is RoundRobinStarts for a detection that knows
// the sites prior (Prior.Shared) from the start; it returns the sites it
// ends with by name (Result.Shared).
func RoundRobinStartsFrom(prog *ir.Program, run vm.Config, prior []string) (int, []string, error) {
	d := &detection{prog: prog, opts: Options{Run: run}}
	d.shared.add(sitesAt(prog, prior))
	cfg := run
	cfg.Policy = sched.RoundRobin{}
	ex, err := d.complete(cfg, nil)
	if err != nil {
		return 0, nil, err
	}
	return ex.starts, siteNames(prog, d.shared.get()), nil
}

// SetWideAfter makes every detector make its wide leaf cache after n
// misses of its sixteen leaves, until the returned function restores the
// default.
func SetWideAfter(n int) (restore func()) {
	old := wideAfter
	wideAfter = n
	return func() { wideAfter = old }
}

// FollowProgram is followProgram, a stage's instruction budget.
var FollowProgram = followProgram

// EarlyDirected is how many race-directed executions detection merged
// that ran while the work beside it went on.
func EarlyDirected(r *Result) int { return r.early }

// SideBySide is sideBySide for a detection whose first schedule ran
// first instructions.
func SideBySide(first uint64, tech Technique) bool {
	return (&detection{firstRan: first}).sideBySide(tech)
}
