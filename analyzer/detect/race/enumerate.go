package race

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// ByEnumeration is an execution of the bounded enumeration: one of every
// schedule with at most EnumerationBound preemptions at the points of the
// focus and the synchronization operations, then of those with one more,
// and so on to MaxEnumerationBound, while its budget lasts.
const ByEnumeration Technique = "bounded"

// The bounded enumeration's limits.
const (
	// EnumerationBound is the most preemptions a schedule of the
	// enumeration's first round makes.
	EnumerationBound = 2
	// MaxEnumerationBound is the most preemptions a schedule of its last
	// round may make. Each round after the first runs the schedules with
	// one preemption more than the last, once the last has run them all
	// (iterative context bounding): a bug that needs three preemptions at
	// the points is then found in order, where PCT finds one only by
	// chance (SCTBench's StateWorkStealQueue, testdata/explore/
	// deep_handshake.c).
	MaxEnumerationBound = 5
	// maxEnumerated is how many schedules the enumeration runs before it
	// gives up on being complete and leaves the rest to PCT.
	maxEnumerated = 2000
)

// bounded is a schedule of the enumeration: the choices it makes before
// running without preemption (the first at of base, the choices of the
// run it extends, shared by all its extensions, then choice), and its
// preemptions among them. The root has at -1: no prefix. insts are the
// instruction counts at the decisions of the run it extends (shared
// too): what starting from a snapshot would save (snapshot.go).
type bounded struct {
	base        []int
	insts       []uint64
	at, choice  int
	preemptions int
}

// deferred holds the schedules a round of the enumeration left for the
// next, in the order their runs asked for them: those with one
// preemption more than the round's bound. It keeps at most limit, the
// schedules the enumeration may still run; lost says it dropped some, so
// that the next round cannot be complete.
type deferred struct {
	bound int
	next  []bounded
	limit int
	lost  bool
}

// add keeps b, a schedule with one preemption more than the round's
// bound (a schedule of the round makes at most its bound, and an
// extension adds at most one), for the next round.
func (q *deferred) add(b bounded) {
	if len(q.next) >= q.limit {
		q.lost = true
		return
	}
	q.next = append(q.next, b)
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
// the focus, before and after its reads as PCT switches (iterative
// context bounding, as CHESS does; no state caching), depth first, in
// batches run on every core and merged in order. A small program's
// schedules are all run within maxEnumerated, and the report can say so
// (ExploreStats.Exhaustive): no bug that needs at most that many
// preemptions at those points is left. A larger one runs the first
// maxEnumerated and moves on to PCT.
func (d *detection) enumerate() error {
	x := d.opts.Explore
	if x == nil || d.stop || d.res.TooLong != nil {
		return nil
	}
	if d.opts.Prior.Enumerated {
		d.allAt = d.opts.Prior.AllSchedules // its schedules would be the same
		return nil
	}
	if !d.threaded {
		d.res.Explore.Ended = EndedOneThread // and explore, after this, runs nothing either
		return nil
	}
	if d.forkJoin {
		d.res.Explore.Ended = EndedForkJoin // and explore, after this, runs nothing either
		d.res.Explore.OutputOrder = d.forkJoinOutput
		return nil
	}
	workers := x.workers()
	// Half of the exploration's time at most, as of its instructions
	// (enumerationBudget): PCT gets the rest.
	until := x.Until
	if !until.IsZero() {
		until = time.Now().Add(time.Until(until) / 2)
	}
	focus := d.focus()
	stack := []bounded{{at: -1}}
	tried, full := triedThreads{}, false
	complete, cut, ran := true, false, 0
	limited := false // the budget or the memory of tried threads ended it
	over := &deferred{bound: EnumerationBound, limit: maxEnumerated}
	var snaps *snapshotStore
	if !x.NoSnapshots && d.opts.Run.Timeout == 0 { // a fork keeps its parent's deadline
		snaps = newSnapshotStore(d.opts.Run.MaxMemory)
	}
	for {
		if len(stack) == 0 {
			// The round ran all it could (all its schedules, unless a run
			// made more decisions than it records): the next, with one
			// preemption more, while its schedules and its budget last.
			if limited || len(over.next) == 0 || over.bound >= MaxEnumerationBound ||
				ran >= maxEnumerated || !until.IsZero() && time.Now().After(until) {
				break
			}
			for i := len(over.next) - 1; i >= 0; i-- {
				stack = append(stack, over.next[i])
			}
			if complete {
				d.res.Explore.CompleteBound = over.bound
			}
			complete = complete && !over.lost
			over = &deferred{bound: over.bound + 1, limit: maxEnumerated - ran}
		}
		if ran >= maxEnumerated || !until.IsZero() && time.Now().After(until) {
			complete = false
			d.res.TimeCut = d.res.TimeCut || ran < maxEnumerated
			break
		}
		if t := d.opts.Run.Expired(); t != nil {
			d.res.Stopped, d.stop, complete = t, true, false
			d.res.Explore.Ended = EndedBudget // explore, which would say so, does not run
			break
		}
		n := d.affordableAt(min(exploreBatch, len(stack), maxEnumerated-ran), d.enumerated, d.enumerationBudget())
		batch := make([]bounded, n)
		for k := range batch { // the top of the stack first: depth first
			batch[k] = stack[len(stack)-1-k]
		}
		stack = stack[:len(stack)-n]
		cfgs := make([]vm.Config, n)
		starts := make([]*started, n)
		for k, b := range batch {
			cfgs[k] = d.opts.Run
			cfgs[k].Policy, cfgs[k].PreemptAt, cfgs[k].PreemptAfterReads = &sched.Bounded{Prefix: b.prefix()}, focus, true
			if snaps == nil {
				continue
			}
			st, err := snaps.start(d, cfgs[k], b)
			if err != nil {
				return err
			}
			if st != nil {
				starts[k], cfgs[k].Policy = st, st.m.Policy()
			}
		}
		d.total += n
		beside, err := d.besideEnumeration(n)
		if err != nil {
			return err
		}
		if beside != nil {
			cfgs, starts = append(cfgs, beside.cfgs...), append(starts, beside.starts...)
		}
		runs, err := d.executeAll(cfgs, starts, workers)
		if err != nil {
			return err
		}
		runs, besideRuns := runs[:n], runs[n:]
		var next []bounded
		spent := false
		for k, ex := range runs {
			if spent {
				break // executed, but past the exploration's instruction budget
			}
			ran++
			d.steps = max(d.steps, ex.run.Trace.Len())
			d.cover(ex.run.Trace)
			name := fmt.Sprintf("bounded schedule %d (preemptions: %d, over %d accesses)", ran, batch[k].preemptions, len(focus))
			d.merge(ex, name, ByEnumeration, nil)
			spent = d.spendEnumerated(ex)
			pol := ex.policy.(*sched.Bounded)
			if pol.Truncated || ex.run.Term.Kind == vm.TermBudget {
				complete = false // decisions it did not record, or a run the analysis cut short
			}
			if x.NoReduction {
				more, c := extensions(batch[k], pol.Decisions, over)
				next, cut = append(next, more...), cut || c
				continue
			}
			more, ok, c := tried.extensions(batch[k], pol.Decisions, ex.steps, over)
			next, cut = append(next, more...), cut || c
			full = full || !ok
		}
		if beside != nil {
			d.pctp.merge(beside, besideRuns) // after the batch's own, in order
		}
		if full || spent { // too many decisions to remember, or its half of the instructions spent: the rest is PCT's
			complete, limited, stack, next = false, true, nil, nil
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
	d.res.Explore.Bound = over.bound // the last round's, complete or not (Exhaustive)
	if snaps != nil {
		d.res.Explore.Snapshots += snaps.made
		d.res.Explore.Resumed += snaps.resumed
		d.res.Explore.Skipped += snaps.skipped
	}
	d.res.Explore.Exhaustive = complete && len(stack) == 0
	if d.res.Explore.Exhaustive {
		d.res.Explore.CompleteBound = over.bound
	}
	// Every schedule, with PCT then skipped, only where the first round
	// left nothing out: cut also counts the schedules a fair decision
	// left out, which no later round runs. The enumeration switches
	// where PCT does (after reads at the focus too): at fewer points,
	// its "every schedule" skipped PCT on testdata/explore/
	// flag_then_lock.c and missed the assert a switch after a read finds.
	d.res.Explore.AllSchedules = d.res.Explore.Exhaustive && !cut
	d.res.Explore.Reduced = !x.NoReduction
	if d.res.Explore.AllSchedules {
		d.res.Explore.AllFocus, d.allAt = focus, focus
	}
	return nil
}

// extensions are the schedules that follow b's run up to one of its
// decisions past b's prefix and choose another thread there, within the
// preemption bound. Past the prefix the run did not preempt, so the
// extension's preemptions are b's and perhaps the new choice. cut is set
// when the bound or a fair decision left out another thread that could
// have run: schedules the enumeration will not have. Those with one
// preemption too many go to over, for the next round.
func extensions(b bounded, decisions []sched.Decision, over *deferred) (out []bounded, cut bool) {
	chose, insts := choicesOf(decisions) // shared by the extensions
	for i := b.at + 1; i < len(decisions); i++ {
		d := decisions[i]
		if d.GaveWay {
			// The thread gave way: the next one runs, fairly.
			cut = cut || len(d.Runnable) > 1
			continue
		}
		for _, t := range d.Runnable {
			if t == d.Chose {
				continue
			}
			cost := b.preemptions
			if d.Preempts(t) {
				cost++
			}
			e := bounded{base: chose, insts: insts, at: i, choice: t, preemptions: cost}
			if cost > over.bound {
				cut = true // left to the next round, which may not run
				over.add(e)
				continue
			}
			out = append(out, e)
		}
	}
	return out, cut
}

// choicesOf returns the thread chosen at each decision and the
// instruction count there.
func choicesOf(decisions []sched.Decision) ([]int, []uint64) {
	chose, insts := make([]int, len(decisions)), make([]uint64, len(decisions))
	for i, d := range decisions {
		chose[i], insts[i] = d.Chose, d.Insts
	}
	return chose, insts
}

// triedThreads remembers, for each decision of the schedules the reduced
// enumeration ran or queued, the threads tried there: by a hash of the
// choices before the decision, the threads chosen at it. A decision no
// extension branched at has had only the choice its runs made, so only
// branched decisions are kept.
type triedThreads map[uint64][]int

// maxTried bounds the decisions triedThreads keeps: an enumeration that
// branches more often than that is far past maxEnumerated schedules.
const maxTried = 1 << 18

// extensions are the schedules the reduction asks for after b's run:
// the thread of each step at each decision of a conflicting earlier step
// of another thread (conflicts), within the preemption bound, and not
// tried before at that decision. ok is false when triedThreads is full;
// cut is set when the bound or a fair decision forbade a thread the
// reduction asked for, so that a reversal of conflicting steps may be
// missing (even where the conservative branch below reaches it).
//
// Those with one preemption too many go to over, for the next round, once
// each: triedThreads takes them as tried when they are deferred (the same
// choices before a decision make the same preemptions, so the same
// request always costs the same).
func (tt triedThreads) extensions(b bounded, decisions []sched.Decision, steps []step, over *deferred) (out []bounded, ok, cut bool) {
	n := len(decisions)
	chose, insts := choicesOf(decisions) // shared by the extensions
	hash := make([]uint64, n+1)
	pre := make([]int, n+1) // preemptions before each decision
	hash[0] = 14695981039346656037
	for i, d := range decisions {
		hash[i+1] = (hash[i] ^ uint64(d.Chose+1)) * 1099511628211
		pre[i+1] = pre[i]
		if d.Preempts(d.Chose) {
			pre[i+1]++
		}
	}
	// try queues thread t at decision i, and reports false when the bound
	// or a fair decision forbids it.
	try := func(i, t int) bool {
		d := decisions[i]
		cost := pre[i]
		if d.Preempts(t) {
			cost++
		}
		if d.GaveWay || !slices.Contains(d.Runnable, t) {
			cut = cut || t != d.Chose && slices.Contains(d.Runnable, t)
			return t == d.Chose
		}
		if t == d.Chose {
			return true
		}
		deeper := cost > over.bound // for the next round, which may not run
		cut = cut || deeper
		set, seen := tt[hash[i]]
		if !seen {
			set = []int{d.Chose}
		}
		if slices.Contains(set, t) {
			return !deeper
		}
		if len(tt) >= maxTried {
			if deeper {
				over.lost = true
				return false
			}
			ok = false
			return true
		}
		tt[hash[i]] = append(set, t)
		e := bounded{base: chose, insts: insts, at: i, choice: t, preemptions: cost}
		if deeper {
			over.add(e)
			return false
		}
		out = append(out, e)
		return true
	}
	// request runs t at i, or every thread that can run there when t
	// cannot.
	request := func(i, t int) bool {
		if slices.Contains(decisions[i].Runnable, t) {
			return try(i, t)
		}
		all := true
		for _, r := range decisions[i].Runnable {
			all = try(i, r) && all
		}
		return all
	}
	ok = true
	reqs := conflicts(decisions, steps)
	slices.SortFunc(reqs, func(a, b backtrack) int { return cmp.Or(a.at-b.at, a.thread-b.thread) })
	reqs = slices.Compact(reqs)
	for _, r := range reqs {
		if request(r.at, r.thread) {
			continue
		}
		// Forbidden there: branch where the running thread could not go
		// on, so no preemption is spent (bounded POR's conservative
		// branch).
		for i := r.at - 1; i >= 0; i-- {
			if d := decisions[i]; !d.GaveWay && !slices.Contains(d.Runnable, d.Current) && len(d.Runnable) > 1 {
				request(i, r.thread)
				break
			}
		}
	}
	return out, ok, cut
}
