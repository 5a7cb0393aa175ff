package classify

import (
	"augur/analyzer/ir"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
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
// occurrence, replayable on in, or nil when neither run shows r.
func relocate(prog *ir.Program, r *race.Race, opts Options, in *race.Inputs) *race.Race {
	rr := *r
	rr.Inputs = in
	cfg := replayConfig(&rr, opts)
	cfg.Weak = nil // detection runs under sequential consistency; classification replays under the model
	if occ := raceOn(prog, cfg, r, in); occ != nil {
		return occ
	}
	a, b := r.First.Loc.String(), r.Second.Loc.String()
	cfg.Policy, cfg.PreemptAt = sched.NewDirected(a, b), []string{a, b}
	return raceOn(prog, cfg, r, in)
}

// raceOn runs one execution under cfg with a detector and returns its
// occurrence of r (the same statements on the same memory: r's id), with
// what replays it.
func raceOn(prog *ir.Program, cfg vm.Config, r *race.Race, in *race.Inputs) *race.Race {
	det := race.New()
	cfg.Monitor = det
	m, err := vm.New(prog, cfg)
	if err != nil {
		return nil
	}
	det.Bind(m)
	res := m.Run()
	if res.Term.Kind == vm.TermBudget || res.Term.Kind == vm.TermCanceled {
		return nil
	}
	for _, found := range det.Races() {
		if found.ID != r.ID {
			continue
		}
		occ := *found
		// The same race: it keeps the name the analysis gave its memory
		// (the source's expression), not the detector's description.
		occ.Object, occ.Memory = r.Object, r.Memory
		occ.Trace, occ.Inputs, occ.Technique = res.Trace, in, r.Technique
		occ.PreemptAccesses = cfg.PreemptAccesses // a directed run's PreemptAt is in its trace
		return &occ
	}
	return nil
}
