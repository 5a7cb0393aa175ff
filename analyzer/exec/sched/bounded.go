package sched

import (
	"fmt"
	"slices"
)

// Bounded runs a schedule given as a prefix of choices and, past it,
// without preempting: the thread that reached a point goes on while it
// can, else the lowest runnable one runs; a thread that yields, sleeps,
// ran a whole time slice or went on through FairPoints of its points in a
// row gives way to the next one (a polling loop cannot starve the thread
// it waits for). It records its decisions, so an
// enumeration of the schedules with at most a few preemptions (iterative
// context bounding, after Musuvathi and Qadeer's CHESS) can extend each
// one at every later decision.
type Bounded struct {
	Prefix    []int
	Decisions []Decision
	// Truncated is set when the run made more than MaxDecisions
	// decisions: those past it were not recorded, so no enumeration can
	// extend them.
	Truncated bool
	again     streak // the points in a row its thread went on through (FairPoints)
	// yielded is 1 + the thread that last gave way, until another thread
	// goes on at a point of its own (0: none). It gives way again at its
	// points meanwhile: one that gave way while it held a lock (at the
	// point after taking it) would otherwise take the lock again before
	// the thread it gave way to, woken by the unlock, ran: that thread
	// blocks on the lock every time, and a poll under the lock never ends.
	yielded int
}

// Decision is one recorded choice of a Bounded schedule.
type Decision struct {
	Current  int // the thread that reached the point; -1 when it exited or blocked
	Runnable []int
	Chose    int
	// Insts is the instructions executed before the decision, all threads
	// together: how much of a run a schedule branching there shares.
	Insts uint64
	// GaveWay is set where the thread yielded, slept, ran a whole time
	// slice or went on through FairPoints of its points in a row: the
	// fair choice there is the next thread, and an enumeration tries no
	// other (there would be one at every slice of a loop).
	GaveWay bool
}

// MaxDecisions bounds the decisions a Bounded schedule records: a run
// with more has more extensions than an enumeration can run, and each
// pending one holds the choices of the run it extends.
const MaxDecisions = 1024

// Preempts reports whether choosing t at d preempts d's thread: it could
// have gone on and another runs instead.
func (d Decision) Preempts(t int) bool {
	return t != d.Current && slices.Contains(d.Runnable, d.Current)
}

func (*Bounded) Name() string { return "bounded" }

// Pick implements Policy.
func (b *Bounded) Pick(p *Point, runnable []int) (int, error) {
	i := len(b.Decisions)
	choice := runnable[0]
	due := b.again.due(p)
	gaveWay := p.What == WhatTimeSlice || yields(p.What) || due ||
		p.Thread >= 0 && b.yielded == p.Thread+1 && len(runnable) > 1
	switch {
	case i < len(b.Prefix):
		choice = b.Prefix[i]
		if !slices.Contains(runnable, choice) {
			return 0, fmt.Errorf("bounded schedule: at decision %d thread %d cannot run", i, choice)
		}
	case gaveWay:
		choice = nextAfter(p.Thread, runnable)
	case slices.Contains(runnable, p.Thread):
		choice = p.Thread
	}
	b.again.picked(p, choice, gaveWay)
	switch {
	case gaveWay && p.Thread >= 0:
		b.yielded = p.Thread + 1
	case p.Thread >= 0 && choice == p.Thread:
		b.yielded = 0
	}
	if i < MaxDecisions {
		b.Decisions = append(b.Decisions, Decision{Current: p.Thread, Runnable: b.runnableSet(runnable), Chose: choice,
			Insts: p.Insts, GaveWay: gaveWay})
	} else {
		b.Truncated = true
	}
	return choice, nil
}

// runnableSet returns runnable to keep in a decision: the previous
// decision's set when it is the same (a decision's Runnable is never
// written, so decisions share it), as it mostly is, or a copy.
func (b *Bounded) runnableSet(runnable []int) []int {
	if n := len(b.Decisions); n > 0 && slices.Equal(b.Decisions[n-1].Runnable, runnable) {
		return b.Decisions[n-1].Runnable
	}
	return slices.Clone(runnable)
}

// nextAfter is the first runnable thread after t, in id order and round
// again: t itself only when it is alone.
func nextAfter(t int, runnable []int) int {
	for _, r := range runnable {
		if r > t {
			return r
		}
	}
	return runnable[0]
}

// Fork implements Forker: a fork has the decisions made so far and
// records its own from there. Its Prefix is the parent's until the caller
// gives it another (an enumeration branching from a paused state).
func (b *Bounded) Fork() Policy {
	c := *b
	c.Decisions = slices.Clone(b.Decisions) // each Runnable is never written again
	return &c
}
