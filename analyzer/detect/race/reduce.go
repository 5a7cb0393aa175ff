package race

import (
	"slices"

	"augur/analyzer/exec/sched"
)

// The bounded enumeration's partial-order reduction. Two steps of a
// schedule (see step) that touch no common object, or only read it,
// commute: running them in the other order reaches the same state. A
// schedule that differs from one already run only in the order of such
// steps finds nothing new, so the enumeration runs another thread at a
// decision only where that reverses a pair of conflicting steps: dynamic
// partial-order reduction (Flanagan and Godefroid, POPL 2005), over
// steps rather than single operations. For each step j of a run, and
// each earlier step i of another thread that conflicts with it without
// being ordered before it (by program order, forks, joins and the
// conflicts between them: the run's happens-before at the granularity of
// steps), j's thread is tried at decision i, or every runnable thread
// when it could not run there.
//
// The preemption bound and the fair decisions (where a thread yielded)
// can forbid that choice; the reduction then also branches at the latest
// earlier decision where the running thread could not go on, as bounded
// partial-order reduction does (Coons, Musuvathi and McKinley, OOPSLA
// 2013), so that the reversal is reached without the forbidden
// preemption. TestReductionFindsWhatFullEnumerationFinds checks the
// result on the corpus against the enumeration without reduction.

// backtrack is a request to run thread at decision at.
type backtrack struct{ at, thread int }

// conflicts returns the backtracking requests of one run: its decisions
// and the steps that followed them.
func conflicts(decisions []sched.Decision, steps []step) []backtrack {
	n := min(len(decisions), len(steps))
	threads := 0
	for _, d := range decisions[:n] {
		threads = max(threads, d.Chose+1, d.Current+1)
		for _, t := range d.Runnable {
			threads = max(threads, t+1)
		}
	}
	for _, s := range steps[:n] {
		for _, t := range s.forks {
			threads = max(threads, t+1)
		}
		for _, t := range s.joins {
			threads = max(threads, t+1)
		}
	}
	h := newHappensBefore(threads, n)
	var out []backtrack
	for j := 0; j < n; j++ {
		p := decisions[j].Chose
		h.owner[j] = p
		clock := h.clocks[p]
		// The steps that j conflicts with, the run's happens-before aside:
		// those not ordered before j are races of steps.
		// A lock's releases since its last acquisition order j's
		// acquisition after them but ask for nothing: j's thread run
		// before a release would find the lock held (see releasesLock).
		var prior, released []int
		for _, k := range steps[j].keys {
			prior, released = h.conflicting(prior, released, k>>1, k&1 == 1, p)
		}
		prior, released = h.conflicting(prior, released, allKey, steps[j].all, p)
		for _, i := range prior {
			if q := decisions[i].Chose; q != p && clock[q] <= int32(i) {
				out = append(out, backtrack{at: i, thread: p})
			}
		}
		h.end(j, p, append(prior, released...), steps[j])
	}
	// The run ended in its last step (the program exited, or failed):
	// that end conflicts with the next step of every other thread that
	// could have run, as exit ends the threads it finds alive. Without
	// this, a thread that main's return leaves unrun has no steps to
	// conflict with, and no schedule runs it first.
	if n > 0 && n == len(decisions) {
		last := decisions[n-1]
		for _, t := range last.Runnable {
			if t != last.Chose {
				out = append(out, backtrack{at: n - 1, thread: t})
			}
		}
	}
	return out
}

// allKey is the object every step reads and a step that touched too much
// to record writes: such a step conflicts with every other.
const allKey = ^uint64(0) >> 1

// happensBefore tracks a run's happens-before at the granularity of
// steps, with vector clocks whose entry for thread q is 1 + the index of
// q's latest step ordered before (0: none).
type happensBefore struct {
	threads int
	clocks  [][]int32 // per thread, its current clock
	after   [][]int32 // per step, its clock once done
	objs    map[uint64]*lastAccess
	owner   []int // per step, its thread
}

// lastAccess is the latest write of an object and the reads since, per
// thread (-1: none).
type lastAccess struct {
	write int
	reads []int
}

func newHappensBefore(threads, steps int) *happensBefore {
	h := &happensBefore{threads: threads, clocks: make([][]int32, threads), after: make([][]int32, steps),
		objs: map[uint64]*lastAccess{}, owner: make([]int, steps)}
	for t := range h.clocks {
		h.clocks[t] = make([]int32, threads)
	}
	return h
}

// conflicting appends to prior the steps of other threads that the
// access of key (a write when write) conflicts with: the latest write,
// and for a write the reads since it; the reads of a lock's key (its
// releases) go to released instead.
func (h *happensBefore) conflicting(prior, released []int, key uint64, write bool, p int) ([]int, []int) {
	a := h.objs[key]
	if a == nil {
		return prior, released
	}
	if a.write >= 0 && h.owner[a.write] != p {
		prior = append(prior, a.write)
	}
	if write {
		reads := &prior
		if isLockKey(key) {
			reads = &released
		}
		for q, r := range a.reads {
			if r >= 0 && q != p {
				*reads = append(*reads, r)
			}
		}
	}
	return prior, released
}

// end finishes step j of p: ordered after the steps it conflicts with
// and the ends of the threads it joined, it becomes the latest access of
// what it touched, and the threads it forked start after it. The joins
// count only here, not for the step's own accesses: they may come
// before the join within the step.
func (h *happensBefore) end(j, p int, prior []int, s step) {
	c := h.clocks[p]
	for _, i := range prior {
		join(c, h.after[i])
	}
	for _, t := range s.joins {
		join(c, h.clocks[t])
	}
	c[p] = int32(j + 1)
	h.after[j] = slices.Clone(c)
	touch := func(key uint64, write bool) {
		a := h.objs[key]
		if a == nil {
			a = &lastAccess{write: -1, reads: make([]int, h.threads)}
			for q := range a.reads {
				a.reads[q] = -1
			}
			h.objs[key] = a
		}
		if write {
			a.write = j
			for q := range a.reads {
				a.reads[q] = -1
			}
		} else {
			a.reads[p] = j
		}
	}
	for _, k := range s.keys {
		touch(k>>1, k&1 == 1)
	}
	touch(allKey, s.all)
	for _, t := range s.forks {
		join(h.clocks[t], c)
	}
}

// join sets c to the entrywise maximum of c and o.
func join(c, o []int32) {
	for i := range c {
		c[i] = max(c[i], o[i])
	}
}
