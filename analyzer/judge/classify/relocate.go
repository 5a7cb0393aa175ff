package classify

import (
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Input paths that move the race. A race's occurrence names its accesses
// by how many instructions their threads had run (race.Instance.FirstAt),
// which holds only on inputs that take the same path to them: an input
// that makes the racing thread parse one more byte or go round a loop once
// more brings it to the race at another count, and a replay of the
// recorded occurrence on that input stops at some other instruction.
// Portend+ follows a schedule of synchronization and racing accesses, not
// of counts, so such paths are primary paths like any other. augur finds
// the race again on the path's input (relocate), with a detector, and
// classifies the occurrence found there: its own counts, schedule and
// evidence.

// relocate runs prog on inputs in with a race detector, looking for an
// occurrence of r: first under r's recorded schedule (an input that
// changes only what a thread computes leaves its synchronization, and so
// the schedule, as it was), then, when that run does not race r's two
// statements, under race-directed scheduling at them. It returns the
// occurrence, replayable on in, or nil when neither run shows r, with
// cut set when a budget stopped the run before it could. A first run that
// outruns its budget is the only one: on an input that makes the program
// run longer than the budget allows (ocean's bigger grids) the directed
// run would run the budget out as well.
func relocate(prog *ir.Program, r *race.Race, opts Options, in *race.Inputs) (occ *race.Race, cut bool) {
	rr := *r
	rr.Inputs = in
	cfg := replayConfig(&rr, opts)
	cfg.Weak = nil // detection runs under sequential consistency; classification replays under the model
	if occ, cut = raceOn(prog, cfg, r.Trace, r, in); occ != nil || cut {
		return occ, cut
	}
	a, b := r.First.Loc.String(), r.Second.Loc.String()
	cfg.Policy, cfg.PreemptAt = sched.NewDirected(a, b), []string{a, b}
	return raceOn(prog, cfg, nil, r, in)
}

// raceOn runs one execution under cfg with a detector, following the
// schedule in follows (nil: cfg's policy is directed at its PreemptAt),
// and returns its occurrence of r (the same statements on the same memory:
// r's id), with what replays it; cut is set when a budget or cancellation
// stopped the execution (nil is returned then). Another race of this
// process may have made the same execution already (relocRuns).
func raceOn(prog *ir.Program, cfg vm.Config, follows *sched.Trace, r *race.Race, in *race.Inputs) (occ *race.Race, cut bool) {
	made := func() *sharedRun { return detectOnce(prog, cfg) }
	var run *sharedRun
	if key, ok := executionKey(cfg, follows); ok {
		run = relocRuns.run(prog.Key(), key, made)
	} else {
		run = made()
	}
	if run.cut {
		return nil, true
	}
	for _, found := range run.races {
		if found.ID != r.ID {
			continue
		}
		o := *found
		// The same race: it keeps the name the analysis gave its memory
		// (the source's expression), not the detector's description.
		o.Object, o.Memory = r.Object, r.Memory
		o.Trace, o.Inputs, o.Technique = run.trace, in, r.Technique
		o.PreemptAccesses = cfg.PreemptAccesses // a directed run's PreemptAt is in its trace
		return &o, false
	}
	return nil, false
}

// detectOnce runs one execution under cfg with a race detector: the races
// it found and its schedule, or cut when a budget or cancellation stopped
// it (outran when the instruction budget did).
func detectOnce(prog *ir.Program, cfg vm.Config) *sharedRun {
	det := race.New()
	cfg.Monitor = det
	m, err := vm.New(prog, cfg)
	if err != nil {
		return &sharedRun{}
	}
	det.Bind(m)
	res := m.Run()
	if res.Term.Kind == vm.TermBudget || res.Term.Kind == vm.TermCanceled {
		return &sharedRun{cut: true, outran: res.Term.OutOfInstructions()}
	}
	return &sharedRun{races: det.Races(), trace: res.Trace}
}
