package sched

import (
	"math/rand/v2"
	"slices"
)

// PCT is Burckhardt et al.'s probabilistic concurrency testing policy: each
// thread gets a random priority when it first appears and the highest-
// priority runnable thread always runs; at d-1 randomly chosen decision
// points the running thread's priority drops below every initial one. A bug
// of depth d among k decision points and n threads is hit with probability at
// least 1/(n*k^(d-1)) per run.
type PCT struct {
	src     *rand.PCG
	rng     *rand.Rand
	depth   int
	prio    priorities
	changes []change // at most one per decision index; never changed after NewPCT, so forks share it
	step    int
	demoted int    // the last priority given a thread preempted at a time slice (below 0)
	again   streak // the points in a row its thread was picked again at (FairPoints)
	gather  string // where threads gather (GatherAt), "" for nowhere
}

// NewPCT returns a PCT policy of the given depth for executions of about
// steps decisions (a previous run's trace length is a good estimate).
func NewPCT(seed uint64, depth, steps int) *PCT {
	if depth < 1 {
		depth = 1
	}
	if steps < 1 {
		steps = 1
	}
	src := rand.NewPCG(seed, 0x7063742d73636865)
	p := &PCT{src: src, rng: rand.New(src), depth: depth}
	for i := 1; i < depth; i++ {
		c := change{step: 1 + p.rng.IntN(steps), low: depth - i}
		if j := slices.IndexFunc(p.changes, func(o change) bool { return o.step == c.step }); j >= 0 {
			p.changes[j] = c // the later draw for a step wins
		} else {
			p.changes = append(p.changes, c)
		}
	}
	return p
}

// change is a priority change point of PCT: at decision step the running
// thread's priority drops to low. A slice of them rather than a map: every
// decision looks its index up, and the map's hash was 2.6% of a PCT
// schedule of a program that takes a lock every few instructions.
type change struct{ step, low int }

// changeAt returns the priority a thread drops to at decision step, if
// step is a change point.
func (p *PCT) changeAt(step int) (int, bool) {
	for _, c := range p.changes {
		if c.step == step {
			return c.low, true
		}
	}
	return 0, false
}

func (*PCT) Name() string { return "pct" }

// GatherAt makes every thread that reaches the point location loc drop
// below every other thread there, each time it reaches it, and returns p.
// The threads that run the same code then pile up at loc while the rest
// of the program runs past them. A bug that needs one thread to stop
// between two steps while another runs (a two-step update read half done)
// needs every peer of that thread to stop there too when the peers run the
// same steps: PCT's chance of that falls with the number of peers, a
// gathering's does not. loc is a location several threads reached in an
// earlier run (Trace.Gathering).
func (p *PCT) GatherAt(loc string) *PCT {
	p.gather = loc
	return p
}

// Fork implements Forker: the copy, generator state included, makes the
// same future choices.
func (p *PCT) Fork() Policy {
	c := *p
	src := *p.src
	c.src, c.rng = &src, rand.New(&src)
	c.prio = p.prio.clone()
	return &c
}

// Pick implements Policy.
func (p *PCT) Pick(pt *Point, runnable []int) (int, error) {
	p.step++
	for _, t := range runnable {
		if !p.prio.given(t) {
			p.prio.set(t, p.depth+1+p.rng.IntN(1<<20))
		}
	}
	if low, ok := p.changeAt(p.step); ok && pt.Thread >= 0 {
		p.prio.set(pt.Thread, low)
	}
	if p.gather != "" && pt.Thread >= 0 && pt.Loc == p.gather {
		p.demoted--
		p.prio.set(pt.Thread, p.demoted)
	}
	return demoteAndPick(&p.prio, &p.demoted, &p.again, pt, runnable), nil
}

// demoteAndPick ends a pick of both PCT schedulers. A thread that ran a
// whole slice without synchronizing is spinning, or computing, and one
// that yields asks for the others to run: below every other thread (*low
// is the last priority so given) it cannot starve the one it waits for
// (PCT stays fair to polling loops). So is one picked again at FairPoints
// of its points in a row: it may spin on an atomic or poll under a lock,
// and a slice per hand-over would make a program that hands over a few
// hundred items that way exhaust the instruction budget. Then the runnable
// thread of the highest priority runs.
func demoteAndPick(prio *priorities, low *int, again *streak, pt *Point, runnable []int) int {
	drop := (pt.What == WhatTimeSlice || yields(pt.What) || again.due(pt)) && pt.Thread >= 0
	if drop {
		*low--
		prio.set(pt.Thread, *low)
	}
	best := highest(prio, runnable)
	again.picked(pt, best, drop)
	return best
}

// highest is the runnable thread of the highest priority (the first of
// runnable among equals), the thread a priority scheduler runs.
func highest(prio *priorities, runnable []int) int {
	best := runnable[0]
	for _, t := range runnable[1:] {
		if prio.of(t) > prio.of(best) {
			best = t
		}
	}
	return best
}

// priorities are the threads' priorities under a priority scheduler, by
// thread id (the machine's ids are dense from 0). A slice rather than a
// map: every decision looks up every runnable thread, and a program of a
// hundred threads made that a hundred map lookups a decision. A thread
// not yet given one has 0.
type priorities struct {
	v   []int
	has []bool
}

// of is t's priority, 0 when it has none.
func (p *priorities) of(t int) int {
	if t < len(p.v) {
		return p.v[t]
	}
	return 0
}

// given reports whether t has been given a priority.
func (p *priorities) given(t int) bool { return t < len(p.has) && p.has[t] }

// set gives t priority v.
func (p *priorities) set(t, v int) {
	if t >= len(p.v) {
		n := max(t+1, 2*len(p.v))
		p.v, p.has = append(p.v, make([]int, n-len(p.v))...), append(p.has, make([]bool, n-len(p.has))...)
	}
	p.v[t], p.has[t] = v, true
}

// clone is a copy that shares nothing with p.
func (p *priorities) clone() priorities {
	return priorities{v: slices.Clone(p.v), has: slices.Clone(p.has)}
}

// yields reports the calls by which a thread gives way to the others.
func yields(what string) bool {
	switch what {
	case "sched_yield", "pthread_yield", "usleep", "sleep", "nanosleep":
		return true
	}
	return false
}
