package sched

import "fmt"

// Spec names a seeded policy an execution switched to part way, so that a
// replay makes the policy again where the recorded decisions end rather
// than following decisions recorded from it: the policy's choices follow
// from its seed and the points it is asked at, which a replay repeats.
// The schedules classification runs after a race are such policies, and
// on a long program they make millions of decisions that never repeat:
// stored, they filled an execution's trace to its limit (a million
// events, 56 MB), past which no replay could follow them.
type Spec struct {
	// Policy is "random" (Keyed), "keyed-pct" (KeyedPCT) or "pct" (PCT).
	Policy string `json:"policy"`
	Seed   uint64 `json:"seed"`
	Depth  int    `json:"depth,omitempty"`
	Steps  int    `json:"steps,omitempty"`
}

// New makes the policy, as it was when the execution switched to it.
func (s *Spec) New() (Policy, error) {
	switch s.Policy {
	case "random":
		return NewKeyed(s.Seed), nil
	case "keyed-pct":
		return NewKeyedPCT(s.Seed, s.Depth, s.Steps), nil
	case "pct":
		return NewPCT(s.Seed, s.Depth, s.Steps), nil
	}
	return nil, fmt.Errorf("unknown schedule %q (want random, keyed-pct or pct)", s.Policy)
}

// Switch makes the policy for an execution that switches to it now and
// whose trace is t: t names s as what decides once its recorded decisions
// end (Then), and the policy marks each of its decisions Drawn, so that
// the machine records none of them (Trace.Stop at the first). Decisions
// made before that by a policy that wraps it (a thread forced to go
// first) are recorded, as a replay must make them before s's.
func (s *Spec) Switch(t *Trace) (Policy, error) {
	p, err := s.New()
	if err != nil {
		return nil, err
	}
	t.Then = s
	return drawn{p}, nil
}

// drawn marks its policy's decisions as drawn again by a replay
// (Point.Drawn).
type drawn struct{ Policy }

// Pick implements Policy.
func (d drawn) Pick(p *Point, runnable []int) (int, error) {
	p.Drawn = true
	return d.Policy.Pick(p, runnable)
}

// Fork implements Forker.
func (d drawn) Fork() Policy {
	if f, ok := d.Policy.(Forker); ok {
		return drawn{f.Fork()}
	}
	return d
}
