package classify

import (
	"fmt"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/solver"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Multipath analysis (Portend+'s Algorithm 2, shared/papers/000_*,
// section 4.3), as augur does it: the inputs are explored symbolically to
// find the input paths worth classifying the race on, and the race is
// then classified on each concretely, with its post-race schedules and
// harm search (classifyPath), so every verdict rests on concrete runs
// that replay.
//
// The symbolic exploration follows the recorded schedule to the first
// racing access (paths whose schedule leaves it are pruned: they do not
// reach the race), then runs both orders from each such checkpoint with
// the inputs still symbolic, forking at every branch that depends on
// them. Its leaves propose inputs, most telling first: those on which an
// order fails; those on which the two orders' outputs, compared as terms
// under both path constraints (symbolic output comparison), can differ;
// then every other path, before or after the race. Mp bounds the input
// paths classified, the recorded one included.

// maxLeaves bounds the executions of one order followed to their end in
// the symbolic exploration of one checkpoint.
const maxLeaves = 16

// solverSteps bounds each solver query of the exploration (Z3's rlimit).
const solverSteps = 20_000_000

// The solver budget of the exploration of one race's inputs, in calls of
// Z3, per path and in all (vm.Symbolic.MaxPathCalls, MaxCalls): past it
// a path goes on along one input, as a concrete run.
const (
	maxPathCalls = 128
	maxCalls     = 512
)

// pathInput is an input to classify a race on, and why it was chosen.
// moved is set when the input takes the racing thread along another path
// to the race than the recorded occurrence's, which does not replay on it:
// the race is found again there first (relocate).
type pathInput struct {
	in    *race.Inputs
	why   string
	moved bool
}

// candidateInputs explores the inputs of r's execution (see above) and
// returns the input paths to classify it on besides its own, at most
// opts.Mp-1, most telling first.
func candidateInputs(prog *ir.Program, r *race.Race, opts Options) []pathInput {
	// The solver's limit is a count of its steps, so a verdict does not
	// depend on the machine's speed; the time limit only guards against
	// a step count that takes too long anyway.
	slv := solver.NewLimited(time.Minute, solverSteps)
	slv.Cancel = opts.Run.Cancel
	sym := vm.NewSymbolic(slv)
	sym.MaxPathCalls, sym.MaxCalls = maxPathCalls, maxCalls
	cfg := replayConfig(r, opts)
	cfg.Symbolic = sym
	cfg.PauseAtFork = true
	cfg.Weak = nil // the inputs are searched under sequential consistency
	// replayConfig makes a new policy each call: pruning is this search's.
	cfg.Policy.(*sched.ReplayPrefix).Prune = true
	root, err := vm.New(prog, cfg)
	if err != nil {
		return nil
	}
	var fails, differs, others []pathInput
	solve := func(into *[]pathInput, pc []*expr.Expr, why string) bool {
		in, err := symex.InputsFor(sym, pc, cfg)
		if err != nil {
			return false
		}
		ri := race.Inputs(in)
		*into = append(*into, pathInput{in: &ri, why: why})
		return true
	}
	moved := func(pc []*expr.Expr) {
		if solve(&others, pc, "an input that takes the racing thread to the race along another path") {
			others[len(others)-1].moved = true
		}
	}
	reached, missed := checkpoints(root, r, opts.Mp)
	for _, ckpt := range reached {
		target := raceTarget(ckpt, r, r.FirstAt, r.First.Loc)
		if target == nil {
			// The thread stops at another instruction on this path (an
			// input that changes how far it runs before the race): the
			// recorded occurrence does not replay here, and the race is
			// found again on this input before it is classified on it.
			moved(ckpt.PathConstraint())
			continue
		}
		probe := ckpt.Fork()
		start := probe.Instructions()
		probe.StopBefore(&r.SecondAt)
		res := probe.Run()
		if stopped(res.Term) {
			continue
		}
		if res.Term.Kind != vm.TermPaused || diverged(probe) {
			// The path does not bring the second thread to its access
			// under the recorded schedule: it may at another count.
			moved(probe.PathConstraint())
			continue
		}
		if second := raceTarget(probe, r, r.SecondAt, r.Second.Loc); second == nil || !second.overlaps(*target) {
			moved(probe.PathConstraint())
			continue
		}
		solve(&others, ckpt.PathConstraint(), "another input path to the race")
		gap := max(probe.Instructions()-start, 1000)
		post := postSchedule{plan: sched.PostRacePlan(1, opts.Seed), i: 0}
		setup := pairSetup{ckpt: ckpt, gap: gap, budget: cfg.MaxInstructions, target: target} // one pair: no holds to share
		pm := ckpt.Fork()
		po := runPrimary(pm, r, post, setup, opts.BudgetFactor)
		primaries := leavesOf(po.m, po, cfg.MaxInstructions)
		var alternates []leaf
		am := ckpt.Fork()
		if o, err := runAlternate(am, r, post, setup, opts.BudgetFactor); err == nil {
			alternates = leavesOf(am, o, cfg.MaxInstructions)
		}
		for _, ls := range [][]leaf{primaries, alternates} {
			for _, l := range ls {
				if failed(outcome{res: l.res}) && !stopped(l.res.Term) {
					solve(&fails, l.pc, fmt.Sprintf("an input on which an order ends in %s", l.res.Term.Kind))
				}
			}
		}
		for _, p := range primaries {
			for _, a := range alternates {
				if p.res.OutputOmitted > 0 || a.res.OutputOmitted > 0 {
					continue
				}
				if pc, err := symex.DifferingInput(sym, p.pc, p.res.Output, a.pc, a.res.Output); err == nil && pc != nil {
					solve(&differs, pc, "an input on which the two orders' outputs, compared as terms, can differ")
				}
			}
		}
		for _, ls := range [][]leaf{primaries, alternates} {
			for _, l := range ls {
				solve(&others, l.pc, "an input path after the race")
			}
		}
	}
	for _, pc := range missed {
		moved(pc)
	}
	seen := map[string]bool{r.Inputs.Key(): true}
	var out []pathInput
	for _, p := range append(append(fails, differs...), others...) {
		if k := p.in.Key(); !seen[k] && len(out) < opts.Mp-1 {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// checkpoints runs root (paused at every fork) along the recorded
// schedule to r's first access and returns the states that reach it, at
// most n: the input paths to the race. missed are the path constraints of
// at most n others, which ended, or left the recorded schedule, before the
// racing thread ran as far as the first access: inputs that may take it
// to the race along another path. A path ends where it leaves the
// schedule (root's policy prunes, sched.ReplayPrefix.Prune): run on, it
// would only fork more paths that cannot reach the race as recorded, each
// running to the program's end (on pbzip2, nearly all of the
// symbolic replays' time). The states that reach the race stop pruning there.
func checkpoints(root *vm.Machine, r *race.Race, n int) (reached []*vm.Machine, missed [][]*expr.Expr) {
	work := []*vm.Machine{root}
	for steps := 0; len(work) > 0 && len(reached) < n && steps < 64*n; steps++ {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		m.StopBefore(&r.FirstAt)
		res := m.Run()
		work = append(work, m.Spawned()...)
		switch {
		case res.Term.Kind != vm.TermPaused || diverged(m): // ended, or left the schedule, before the race
			if len(missed) < n && !stopped(res.Term) && len(m.PathConstraint()) > 0 {
				missed = append(missed, m.PathConstraint())
			}
		case !m.AtStop():
			work = append(work, m) // paused after a fork
		default:
			m.SetPauseAtFork(false)
			if rp, ok := m.Policy().(*sched.ReplayPrefix); ok {
				rp.Prune = false
			}
			reached = append(reached, m)
		}
	}
	return reached, missed
}

// leaf is one execution of an order after the race with symbolic inputs.
type leaf struct {
	pc  []*expr.Expr
	res *vm.Result
}

// leavesOf returns the executions of an order whose own run on m ended
// in o: m's, then those of the states it forked (and theirs), each run to
// its end under round robin, at most maxLeaves.
func leavesOf(m *vm.Machine, o outcome, budget uint64) []leaf {
	out := []leaf{{pc: m.PathConstraint(), res: o.res}}
	work := append(append([]*vm.Machine(nil), o.spawned...), m.Spawned()...)
	for len(work) > 0 && len(out) < maxLeaves {
		s := work[0]
		work = work[1:]
		s.StopBefore(nil)
		s.SetMonitor(nil)
		s.SetPolicy(sched.RoundRobin{})
		s.SetMaxInstructions(budget)
		res := s.Run()
		work = append(work, s.Spawned()...)
		out = append(out, leaf{pc: s.PathConstraint(), res: res})
	}
	return out
}

func diverged(m *vm.Machine) bool {
	rp, ok := m.Policy().(*sched.ReplayPrefix)
	return ok && rp.Diverged()
}
