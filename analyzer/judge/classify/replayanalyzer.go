package classify

import (
	"fmt"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// The baseline classifier of Narayanasamy et al. (PLDI 2007,
// shared/papers/001_*), for comparison with Portend+'s: replay both orders
// of the race to the end of the sequencing region (both racing accesses
// done) and compare the live state there (every object's contents and the
// two threads' registers). The same state is benign, a different state is
// harmful, and an order that cannot be replayed counts as harmful too.

// Baseline categories.
const (
	Benign  Category = "benign"
	Harmful Category = "harmful"
)

// ReplayAnalyzer classifies race r as the Record/Replay Analyzer does.
func ReplayAnalyzer(prog *ir.Program, r *race.Race, opts Options) *Verdict {
	if opts.BudgetFactor == 0 {
		opts.BudgetFactor = 5
	}
	v := &Verdict{RaceID: r.ID, Stage: "replay-analyzer"}
	if r.Trace == nil {
		return v.unclassified("the race has no recorded schedule to replay")
	}
	m, _, reason := replayToRace(prog, r, opts)
	if m == nil {
		return v.unclassified(reason)
	}
	// The recorded order: just past the second access.
	primary := m.Fork()
	start := primary.Instructions()
	primary.StopBefore(&vm.StopPoint{Thread: r.SecondAt.Thread, Count: r.SecondAt.Count + 1})
	if res := primary.Run(); res.Term.Kind != vm.TermPaused {
		return v.unclassified(fmt.Sprintf("replay ended (%s) before the second racing access", res.Term.Kind))
	}
	gap := max(primary.Instructions()-start, 1000)
	threads := primary.Threads()
	failed := func(what string, res *vm.Result) *Verdict {
		v.Category, v.Reason = Harmful, fmt.Sprintf("the other order could not be replayed: %s (%s)", what, res.Term.Kind)
		return v
	}
	// The other order: the second thread's access, then the first's, then
	// every thread to where it stands in the recorded order.
	alt := m.Fork()
	alt.SetMaxInstructions(alt.Instructions() + opts.BudgetFactor*gap)
	alt.SetPolicy(&sched.Hold{Thread: r.FirstAt.Thread, Fallback: sched.RoundRobin{}})
	if alt.Current() == r.FirstAt.Thread {
		alt.Yield()
	}
	other := r.SecondAt.Thread
	alt.StopBefore(&vm.StopPoint{Thread: other, Loc: r.SecondLoc, Count: alt.ThreadCount(other)})
	if res := alt.Run(); res.Term.Kind != vm.TermPaused {
		return failed("the second access cannot go first", res)
	}
	for _, step := range []vm.StopPoint{{Thread: other, Count: alt.ThreadCount(other) + 1}, {Thread: r.FirstAt.Thread, Count: r.FirstAt.Count + 1}} {
		if res := runAlone(alt, step); res != nil {
			return failed("a racing access", res)
		}
	}
	for _, t := range threads {
		want := primary.ThreadCount(t)
		if alt.ThreadCount(t) < want {
			if res := runAlone(alt, vm.StopPoint{Thread: t, Count: want}); res != nil {
				return failed(fmt.Sprintf("thread %d does not reach the end of the region", t), res)
			}
		}
	}
	threads = append(threads[:0:0], threads...)
	if primary.StateHash(threads...) == alt.StateHash(threads...) {
		v.Category, v.Reason = Benign, "both orders leave the same memory and registers after the racing accesses"
	} else {
		v.Category, v.Reason = Harmful, "the two orders leave different memory or registers after the racing accesses"
	}
	return v
}

// runAlone runs only p.Thread until it reaches p; it returns the result
// when it does not.
func runAlone(m *vm.Machine, p vm.StopPoint) *vm.Result {
	m.SetPolicy(&sched.Only{Thread: p.Thread})
	if m.Current() != p.Thread {
		m.Yield()
	}
	m.StopBefore(&p)
	res := m.Run()
	m.StopBefore(nil)
	if res.Term.Kind != vm.TermPaused && m.ThreadCount(p.Thread) < p.Count {
		return res
	}
	return nil // paused there, or the thread ended exactly there
}
