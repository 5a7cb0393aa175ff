package sched

import (
	"errors"
	"fmt"
)

// Replay follows a recorded trace decision by decision and fails when the
// execution diverges from it (a different thread reaches a point, or the
// recorded choice is not runnable). Past the recorded decisions of a
// trace whose execution switched to a seeded policy (Trace.Then), that
// policy decides, made again.
type Replay struct {
	Trace *Trace
	cur   Cursor
	begun bool
	then  Policy
}

func (*Replay) Name() string { return "replay" }

// Replaying is implemented by the policies that follow a recorded trace:
// an execution under one stops at the trace's preemption points
// (Trace.PreemptAt) as the recorded one did.
type Replaying interface {
	Replays() *Trace
}

// Replays implements Replaying.
func (r *Replay) Replays() *Trace { return r.Trace }

// Replays implements Replaying.
func (r *ReplayPrefix) Replays() *Trace { return r.Trace }

// Pick implements Policy.
func (r *Replay) Pick(p *Point, runnable []int) (int, error) {
	if !r.begun {
		r.cur, r.begun = r.Trace.Cursor(), true
	}
	if r.then != nil {
		return r.then.Pick(p, runnable)
	}
	i := r.cur.Index()
	ev, ok := r.cur.Next()
	if !ok {
		if r.Trace.Then != nil {
			then, err := r.Trace.Then.New()
			if err != nil {
				return 0, fmt.Errorf("replay: %w", err)
			}
			// Drawn, as the recorded execution's were: the replay records
			// none of them either.
			r.then = drawn{then}
			return r.then.Pick(p, runnable)
		}
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
	if p.CanRun(ev.Next, runnable) {
		return ev.Next, nil
	}
	return 0, fmt.Errorf("replay: decision %d: recorded thread %d is not runnable", i, ev.Next)
}

// ReplayPrefix follows a recorded trace while the execution matches it and
// hands over to Fallback for good at the first decision that does not (or
// when the trace ends): the execution before a race replays exactly, the
// execution after it may go where it goes.
//
// With Prune set, a decision that does not match the trace ends the
// execution instead (TermReplay, ErrLeft), as a search of the inputs that
// reach a point of the recorded execution wants: a path that left the
// schedule cannot reach that point as recorded, and running it on would
// only spend instructions (and, with symbolic inputs, fork more such
// paths). The end of the trace still hands over to Fallback.
type ReplayPrefix struct {
	Trace    *Trace
	Fallback Policy
	Prune    bool
	cur      Cursor
	begun    bool
	off      bool
}

func (*ReplayPrefix) Name() string { return "replay-prefix" }

// ErrLeft ends an execution that left the trace a pruning ReplayPrefix
// follows.
var ErrLeft = errors.New("replay: left the recorded schedule")

// Diverged reports whether the execution has left the recorded trace.
func (r *ReplayPrefix) Diverged() bool { return r.off }

// Fork copies the policy for a forked execution.
func (r *ReplayPrefix) Fork() Policy {
	c := *r
	if f, ok := r.Fallback.(Forker); ok {
		c.Fallback = f.Fork()
	}
	return &c
}

// Pick implements Policy.
func (r *ReplayPrefix) Pick(p *Point, runnable []int) (int, error) {
	if !r.begun {
		r.cur, r.begun = r.Trace.Cursor(), true
	}
	if !r.off {
		ev, ok := r.cur.Next()
		if ok && ev.Thread == p.Thread && ev.Loc == p.Loc && p.CanRun(ev.Next, runnable) {
			return ev.Next, nil
		}
		if ok && r.Prune {
			return 0, fmt.Errorf("%w at %s: recorded thread %d at %s", ErrLeft, p.Loc, ev.Thread, ev.Loc)
		}
	}
	r.off = true
	return r.Fallback.Pick(p, runnable)
}
