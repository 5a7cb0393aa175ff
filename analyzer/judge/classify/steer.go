package classify

import (
	"bytes"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// Output the schedule reorders anyway. Two orders of a race run under the
// same post-race schedule, but the schedule's decisions meet different
// states after them: in one order a thread waits where in the other it
// goes on, and two workers that print in turn can print in the other
// turn. Such a difference is the program's scheduling, which any run may
// show whatever the race's order, not the race's consequence. A pair's
// difference is kept as output-differs only when one order cannot print
// what the other printed: each order is run once more from the race,
// steered toward the other's output (outputSteer), and the difference is
// the schedule's when both get there.

// steerLimit is how many decisions in a row the steering gives the
// thread whose output comes next without that output appearing, before
// it lets the post-race schedule decide once: a thread that spins until
// another prints must not be run alone until the budget ends.
const steerLimit = 64

// outputSteer is a policy that runs, at each decision, the thread that
// prints the next event of target, when it can run, and leaves the other
// decisions to then. It gives up, leaving every decision to then, once
// the execution prints something target does not.
type outputSteer struct {
	m      *vm.Machine
	target []vm.OutputEvent
	then   sched.Policy
	seen   int // events of m's output checked against target
	streak int // decisions since the last event
	lost   bool
}

func (s *outputSteer) Name() string { return s.then.Name() }

// Pick implements sched.Policy.
func (s *outputSteer) Pick(p *sched.Point, runnable []int) (int, error) {
	out := s.m.Output()
	for ; !s.lost && s.seen < len(out); s.seen++ {
		if s.seen >= len(s.target) || !sameEvent(out[s.seen], s.target[s.seen]) {
			s.lost = true
		}
		s.streak = 0
	}
	if s.lost || s.seen >= len(s.target) {
		return s.then.Pick(p, runnable)
	}
	s.streak++
	if want := s.target[s.seen].Thread; s.streak%steerLimit != 0 && p.CanRun(want, runnable) {
		return want, nil
	}
	return s.then.Pick(p, runnable)
}

// sameEvent reports whether two output events print the same bytes on
// the same stream.
func sameEvent(a, b vm.OutputEvent) bool {
	return a.Stream == b.Stream && bytes.Equal(a.Data, b.Data)
}

// steered is a post-race schedule that applies base and then steers the
// run toward printing target.
type steered struct {
	base   postRace
	target []vm.OutputEvent
}

// backToBack implements backToBack as base does, so the steered order
// starts from where the pair's did.
func (s steered) backToBack() bool { return inTurn(s.base) }

func (s steered) apply(m *vm.Machine) []Action {
	actions := s.base.apply(m)
	m.SetPolicy(&outputSteer{m: m, target: s.target, then: m.Policy()})
	return actions
}

// pairSetup is what a classification path runs its pairs from: the
// checkpoint before the first racing access, how far the primary goes
// between the accesses, the instruction budget and the racing memory.
type pairSetup struct {
	ckpt        *vm.Machine
	gap, budget uint64
	target      *span
	holds       *holdShare // each order's hold, run once for all the pairs (holdshare.go)
}

// reorderedOnly reports whether the two orders of pair p each printed
// what the other printed: from the output of pairs run already under
// other schedules, or by running each order once more steered toward the
// other's output. Then the pair's difference is the schedule's. When not,
// unmatched says which order's output the other could not print.
func (c *path) reorderedOnly(p pairOutcome) (reordered bool, unmatched string) {
	pd, ad := p.primary.res.Digest, p.alt.res.Digest
	var primaryCan, altCan bool // the primary printed the alternate's output; the alternate the primary's
	for _, q := range c.outs {
		primaryCan = primaryCan || q.primary.res.Digest == ad
		altCan = altCan || q.alt.res.Digest == pd
	}
	steer := c.setup.ckpt != nil && c.opts.Run.Expired() == nil
	if steer && !primaryCan {
		primaryCan = c.prints(false, p.post, p.alt.res)
	}
	nor := ""
	if steer {
		nor = ", nor when steered toward it"
	}
	if !primaryCan {
		return false, cannotProduce(p.alt.res, p.primary.res, "alternate", "primary") + nor
	}
	if steer && !altCan {
		altCan = c.prints(true, p.post, p.primary.res)
	}
	if !altCan {
		return false, cannotProduce(p.primary.res, p.alt.res, "primary", "alternate") + nor
	}
	return true, ""
}

// prints runs one order of the race (the alternate when alt is set) from
// the checkpoint under post, steered toward want's output, and reports
// whether it ends as want did, printing the same.
func (c *path) prints(alt bool, post postRace, want *vm.Result) bool {
	s := c.setup
	m := s.ckpt.Fork()
	m.SetSteadyClock()
	steer := steered{base: post, target: want.Output}
	var o outcome
	if alt {
		var err error
		if o, err = runAlternate(m, c.r, steer, s, c.opts.BudgetFactor); err != nil {
			return false
		}
	} else {
		o = runPrimary(m, c.r, steer, s, c.opts.BudgetFactor)
	}
	return o.res.Term.Kind == want.Term.Kind && o.res.Digest == want.Digest
}
