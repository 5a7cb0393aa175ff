// Package sched decides which thread runs next at each preemption point and
// records those decisions as a schedule trace that replays the execution
// exactly. The VM calls a Policy at every preemption point (synchronization
// calls, thread start and exit, sleeps, and optionally shared accesses); a
// policy sees only thread ids, so policies are deterministic by construction.
package sched

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Point describes one preemption point: the thread that reached it and where.
type Point struct {
	Thread int    // the thread that reached the point; -1 when it exited or blocked
	Loc    string // source location of the point (file:line:col)
	What   string // what the thread did: "pthread_mutex_lock", "thread exit", ...
	Insts  uint64 // instructions executed so far, all threads together
}

// Policy chooses the next thread among the runnable ones (sorted ascending,
// never empty).
type Policy interface {
	Pick(p Point, runnable []int) (int, error)
	Name() string
}

// KnownPolicy reports whether a trace's policy name is one augur's
// policies record.
func KnownPolicy(name string) bool {
	switch name {
	case "round-robin", "random", "pct", "replay", "replay-prefix", "hold", "only":
		return true
	}
	return strings.HasPrefix(name, "postpone thread ")
}

// RoundRobin switches to the next runnable thread after the current one, in
// id order, at every preemption point.
type RoundRobin struct{}

func (RoundRobin) Name() string { return "round-robin" }

// Pick implements Policy.
func (RoundRobin) Pick(p Point, runnable []int) (int, error) {
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
func (r *Random) Pick(p Point, runnable []int) (int, error) {
	return runnable[r.rng.IntN(len(runnable))], nil
}

// Replay follows a recorded trace decision by decision and fails when the
// execution diverges from it (a different thread reaches a point, or the
// recorded choice is not runnable).
type Replay struct {
	Trace *Trace
	cur   Cursor
	begun bool
}

func (*Replay) Name() string { return "replay" }

// Pick implements Policy.
func (r *Replay) Pick(p Point, runnable []int) (int, error) {
	if !r.begun {
		r.cur, r.begun = r.Trace.Cursor(), true
	}
	i := r.cur.Index()
	ev, ok := r.cur.Next()
	if !ok {
		if r.Trace.Truncated() {
			return 0, fmt.Errorf("replay: the recorded schedule stops after %d decisions (its limit; %d more were not recorded), at %s",
				r.Trace.Len(), r.Trace.Dropped(), p.Loc)
		}
		return 0, fmt.Errorf("replay: execution reached more preemption points than the %d recorded (at %s)", r.Trace.Len(), p.Loc)
	}
	if ev.Thread != p.Thread || ev.Loc != p.Loc {
		return 0, fmt.Errorf("replay: diverged at decision %d: recorded thread %d at %s, got thread %d at %s",
			i, ev.Thread, ev.Loc, p.Thread, p.Loc)
	}
	for _, t := range runnable {
		if t == ev.Next {
			return t, nil
		}
	}
	return 0, fmt.Errorf("replay: decision %d: recorded thread %d is not runnable", i, ev.Next)
}
