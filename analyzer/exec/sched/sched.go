// Package sched decides which thread runs next at each preemption point and
// records those decisions as a schedule trace that replays the execution
// exactly. The VM calls a Policy at every preemption point (synchronization
// calls, thread start and exit, sleeps, and optionally shared accesses); a
// policy sees only thread ids, so policies are deterministic by construction.
package sched

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// Point describes one preemption point: the thread that reached it and where.
type Point struct {
	Thread int    // the thread that reached the point; -1 when it exited or blocked
	Loc    string // source location of the point (file:line:col)
	What   string // what the thread did: "pthread_mutex_lock", "thread exit", ...
	Insts  uint64 // instructions executed so far, all threads together
	// Waking are the threads whose wait ends by itself: the sleepers and
	// the threads blocked in a wait with a timeout (poll, select,
	// epoll_wait, a timed condition wait), in the order the machine would
	// end them if no thread could run (earliest deadline first, then the
	// timed waits whose deadline it does not know). A policy may pick one:
	// a sleeper wakes and a timed wait times out at once, with virtual time
	// moved to its deadline, since any other thread may be slower than a
	// sleep or a timeout. Policies that keep a thread waiting (Hold,
	// Postpone, Directed) use them before giving up, so that a server's
	// timer fires while a thread is held back.
	Waking []int
	// Drawn is set by a policy whose decision a replay makes again from
	// its seed (Spec.Switch): the machine records no decision from the
	// first such one on.
	Drawn bool
}

// WhatTimeSlice is Point.What when the thread was preempted for running a
// whole time slice without a preemption point.
const WhatTimeSlice = "time slice"

// WhatAfterRead is Point.What right after a read at a focused location,
// a point only under vm.Config.PreemptAfterReads.
const WhatAfterRead = "after a read"

// CanRun reports whether t may be picked at p: it is runnable, or its
// wait ends by itself (Waking, which holds the sleepers too).
func (p Point) CanRun(t int, runnable []int) bool {
	return slices.Contains(runnable, t) || slices.Contains(p.Waking, t)
}

// wakingOtherThan is the first thread of Waking that is not t, or -1.
func (p Point) wakingOtherThan(t int) int {
	for _, s := range p.Waking {
		if s != t {
			return s
		}
	}
	return -1
}

// Policy chooses the next thread among the runnable ones (sorted ascending,
// never empty). The point is the caller's and valid only during the call
// (the machine fills one in place at every decision, since a decision is
// made every few instructions in a lock-heavy program): a policy that keeps
// anything of it copies it.
type Policy interface {
	Pick(p *Point, runnable []int) (int, error)
	Name() string
}

// Forker is a policy with state a forked execution must copy (its
// generator, its place in a trace): the fork continues with a copy that
// makes the same future choices.
type Forker interface {
	Fork() Policy
}

// KnownPolicy reports whether a trace's policy name is one augur's
// policies record.
func KnownPolicy(name string) bool {
	switch name {
	case "round-robin", QuantumName, "random", "pct", "replay", "replay-prefix", "hold", "only", "directed", "bounded":
		return true
	}
	return strings.HasPrefix(name, "postpone thread ")
}

// RoundRobin switches to the next runnable thread after the current one, in
// id order, at every preemption point.
type RoundRobin struct{}

func (RoundRobin) Name() string { return "round-robin" }

// Pick implements Policy.
func (RoundRobin) Pick(p *Point, runnable []int) (int, error) {
	for _, t := range runnable {
		if t > p.Thread {
			return t, nil
		}
	}
	return runnable[0], nil
}

// Random picks uniformly among runnable threads with a seeded generator: the
// same seed gives the same schedule.
type Random struct {
	src *rand.PCG
	rng *rand.Rand
}

// NewRandom returns a Random policy seeded with seed.
func NewRandom(seed uint64) *Random {
	src := rand.NewPCG(seed, 0x61756775722d7363)
	return &Random{src: src, rng: rand.New(src)}
}

// Fork copies the policy, generator state included, for a forked
// execution: both continue with the same future choices.
func (r *Random) Fork() Policy {
	src := *r.src
	return &Random{src: &src, rng: rand.New(&src)}
}

func (*Random) Name() string { return "random" }

// Pick implements Policy.
func (r *Random) Pick(p *Point, runnable []int) (int, error) {
	return runnable[r.rng.IntN(len(runnable))], nil
}
