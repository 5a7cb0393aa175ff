package sched

import "fmt"

// New returns the policy of a name: "quantum" (augur run's), "round-robin",
// "random" (seeded) or "pct" (seeded, depth 3, for executions of about a
// thousand decisions).
// It is how a command line or a setting names a schedule.
func New(name string, seed uint64) (Policy, error) {
	switch name {
	case "round-robin", "":
		return RoundRobin{}, nil
	case QuantumName:
		return Quantum{}, nil
	case "random":
		return NewRandom(seed), nil
	case "pct":
		return NewPCT(seed, 3, 1000), nil
	}
	return nil, fmt.Errorf("unknown schedule %q (want quantum, round-robin, random or pct)", name)
}

// Schedule is one execution's scheduling: its policy, how reports name
// it, and whether threads also switch at shared memory accesses.
type Schedule struct {
	Policy          Policy
	Name            string
	PreemptAccesses bool
	// Spec makes Policy, for an execution that switches to it part way
	// (the post-race plan's random schedules: Spec.Switch); nil
	// otherwise.
	Spec *Spec
}

// Plan is the sequence of schedules a series of executions of one program
// runs under. Detection and classification each follow one:
//
//   - detection (DetectionPlan): round robin first, then schedules that
//     reverse the order of the lock acquisitions round robin's trace shows
//     (Postpone, at most half of the rest), then PCT schedules;
//   - classification after a race (PostRacePlan): round robin, then
//     seeded random choices with switches at shared accesses.
//
// Step i of a plan may depend on the trace of its first execution.
type Plan struct {
	Runs int
	Seed uint64
	// Depth is PCT's bug depth (detection).
	Depth int
	// Reversals and PCT fill the steps after round robin (detection);
	// Random fills them with random schedules that preempt at accesses
	// (after a race).
	Reversals bool
	Random    bool

	// Acquires says which calls are acquisitions worth reversing (by the
	// name a trace records after them); the interpreter's models know.
	Acquires func(what string) bool

	reversals []*Postpone
	steps     int
}

// DetectionPlan is the plan of race detection: n executions from seed.
func DetectionPlan(n int, seed uint64) *Plan {
	return &Plan{Runs: max(n, 1), Seed: seed, Depth: 3, Reversals: true}
}

// PostRacePlan is the plan of the post-race schedules of classification:
// ma pairs from seed.
func PostRacePlan(ma int, seed uint64) *Plan {
	return &Plan{Runs: max(ma, 1), Seed: seed, Random: true}
}

// Step returns the schedule of execution i. first is the trace of
// execution 0, which steps after it may derive from (nil for step 0).
func (p *Plan) Step(i int, first *Trace) Schedule {
	if i == 0 {
		return Schedule{Policy: RoundRobin{}, Name: "round-robin"}
	}
	seed := p.Seed + uint64(i)
	if p.Random {
		spec := &Spec{Policy: "random", Seed: seed}
		pol, _ := spec.New()
		return Schedule{Policy: pol, Name: fmt.Sprintf("random seed %d", seed), PreemptAccesses: true, Spec: spec}
	}
	if first != nil && p.steps == 0 {
		p.steps = first.Len() + 1
		if p.Reversals && p.Acquires != nil {
			p.reversals = Reversals(first, p.Runs/2, p.Acquires)
		}
	}
	if k := i - 1; k < len(p.reversals) {
		return Schedule{Policy: p.reversals[k], Name: p.reversals[k].Name()}
	}
	return Schedule{Policy: NewPCT(seed, p.Depth, p.steps), Name: fmt.Sprintf("pct seed %d", seed)}
}
