package race

import (
	"fmt"
	"time"

	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// ByEnumeration is an execution of the bounded enumeration: one of every
// schedule with at most EnumerationBound preemptions at the points of the
// focus and the synchronization operations.
const ByEnumeration Technique = "bounded"

// The bounded enumeration's limits.
const (
	// EnumerationBound is the most preemptions a schedule of the
	// enumeration makes.
	EnumerationBound = 2
	// maxEnumerated is how many schedules the enumeration runs before it
	// gives up on being complete and leaves the rest to PCT.
	maxEnumerated = 2000
)

// bounded is a schedule of the enumeration: the choices it makes before
// running without preemption (the first at of base, the choices of the
// run it extends, shared by all its extensions, then choice), and its
// preemptions among them. The root has at -1: no prefix.
type bounded struct {
	base        []int
	at, choice  int
	preemptions int
}

// prefix is the schedule's choices before it runs without preemption.
func (b bounded) prefix() []int {
	if b.at < 0 {
		return nil
	}
	return append(b.base[:b.at:b.at], b.choice)
}

// enumerate runs, before the random exploration, every schedule with at
// most EnumerationBound preemptions at the synchronization operations and
// the focus (iterative context bounding, as CHESS does; no state
// caching), depth first, in batches run on every core and merged in
// order. A small program's schedules are all run within maxEnumerated,
// and the report can say so (ExploreStats.Exhaustive): no bug that needs
// at most that many preemptions at those points is left. A larger one
// runs the first maxEnumerated and moves on to PCT.
func (d *detection) enumerate() error {
	x := d.opts.Explore
	if x == nil || d.stop || d.res.TooLong != nil || d.opts.Prior.Enumerated {
		return nil
	}
	workers := x.workers()
	// Half of the exploration's time at most: PCT gets the rest.
	until := x.Until
	if !until.IsZero() {
		until = time.Now().Add(time.Until(until) / 2)
	}
	focus := d.focus()
	stack := []bounded{{at: -1}}
	complete, ran := true, 0
	for len(stack) > 0 {
		if ran >= maxEnumerated || !until.IsZero() && time.Now().After(until) {
			complete = false
			break
		}
		if t := d.opts.Run.Expired(); t != nil {
			d.res.Stopped, d.stop, complete = t, true, false
			d.res.Explore.Ended = EndedBudget // explore, which would say so, does not run
			break
		}
		n := min(exploreBatch, len(stack), maxEnumerated-ran)
		batch := make([]bounded, n)
		for k := range batch { // the top of the stack first: depth first
			batch[k] = stack[len(stack)-1-k]
		}
		stack = stack[:len(stack)-n]
		cfgs := make([]vm.Config, n)
		for k, b := range batch {
			cfgs[k] = d.opts.Run
			cfgs[k].Policy, cfgs[k].PreemptAt = &sched.Bounded{Prefix: b.prefix()}, focus
		}
		d.total += n
		runs, err := d.executeAll(cfgs, workers)
		if err != nil {
			return err
		}
		var next []bounded
		for k, ex := range runs {
			ran++
			d.steps = max(d.steps, ex.run.Trace.Len())
			d.cover(ex.run.Trace)
			name := fmt.Sprintf("bounded schedule %d (preemptions: %d, over %d accesses)", ran, batch[k].preemptions, len(focus))
			d.merge(ex, name, ByEnumeration, nil)
			pol := cfgs[k].Policy.(*sched.Bounded)
			if pol.Truncated || ex.run.Term.Kind == vm.TermBudget && !ex.run.Term.Budget.Hang() {
				complete = false // decisions it did not record, or a run the analysis cut short
			}
			next = append(next, extensions(batch[k], pol.Decisions)...)
		}
		// Pushed in reverse, so the first extension of the first run is
		// the next to run.
		for i := len(next) - 1; i >= 0; i-- {
			stack = append(stack, next[i])
		}
		// More left than may still run: it cannot finish, and the bottom
		// of the stack would never run. Keeping only what may bounds the
		// memory the enumeration holds.
		if left := maxEnumerated - ran; len(stack) > left {
			stack, complete = stack[len(stack)-left:], false
		}
	}
	d.res.Explore.Enumerated = ran
	d.res.Explore.Exhaustive = complete && len(stack) == 0
	return nil
}

// extensions are the schedules that follow b's run up to one of its
// decisions past b's prefix and choose another thread there, within the
// preemption bound. Past the prefix the run did not preempt, so the
// extension's preemptions are b's and perhaps the new choice.
func extensions(b bounded, decisions []sched.Decision) []bounded {
	var out []bounded
	chose := make([]int, len(decisions)) // shared by the extensions
	for i, d := range decisions {
		chose[i] = d.Chose
	}
	for i := b.at + 1; i < len(decisions); i++ {
		d := decisions[i]
		if d.GaveWay {
			continue // the thread gave way: the next one runs, fairly
		}
		for _, t := range d.Runnable {
			if t == d.Chose {
				continue
			}
			cost := b.preemptions
			if d.Preempts(t) {
				cost++
			}
			if cost > EnumerationBound {
				continue
			}
			out = append(out, bounded{base: chose, at: i, choice: t, preemptions: cost})
		}
	}
	return out
}
