package sched

import "errors"

// ReplayPrefix follows a recorded trace while the execution matches it and
// hands over to Fallback for good at the first decision that does not (or
// when the trace ends): the execution before a race replays exactly, the
// execution after it may go where it goes.
type ReplayPrefix struct {
	Trace    *Trace
	Fallback Policy
	cur      Cursor
	begun    bool
	off      bool
}

func (*ReplayPrefix) Name() string { return "replay-prefix" }

// Diverged reports whether the execution has left the recorded trace.
func (r *ReplayPrefix) Diverged() bool { return r.off }

// Fork copies the policy for a forked execution.
func (r *ReplayPrefix) Fork() Policy {
	c := *r
	if f, ok := r.Fallback.(interface{ Fork() Policy }); ok {
		c.Fallback = f.Fork()
	}
	return &c
}

// Pick implements Policy.
func (r *ReplayPrefix) Pick(p Point, runnable []int) (int, error) {
	if !r.begun {
		r.cur, r.begun = r.Trace.Cursor(), true
	}
	if !r.off {
		ev, ok := r.cur.Next()
		if ok && ev.Thread == p.Thread && ev.Loc == p.Loc {
			for _, t := range runnable {
				if t == ev.Next {
					return t, nil
				}
			}
		}
	}
	r.off = true
	return r.Fallback.Pick(p, runnable)
}

// ErrHeld is returned by Hold when only the held thread could run: the
// order the hold enforces cannot be reached.
var ErrHeld = errors.New("only the held thread can run")

// Hold runs every thread but Thread, with Fallback choosing among them, and
// refuses (ErrHeld) when Thread is the only one that can run.
type Hold struct {
	Thread   int
	Fallback Policy
}

func (*Hold) Name() string { return "hold" }

// Pick implements Policy.
func (h *Hold) Pick(p Point, runnable []int) (int, error) {
	var others []int
	for _, t := range runnable {
		if t != h.Thread {
			others = append(others, t)
		}
	}
	if len(others) == 0 {
		return 0, ErrHeld
	}
	return h.Fallback.Pick(p, others)
}

// Only runs Thread alone and refuses (ErrHeld) when it cannot run.
type Only struct{ Thread int }

func (*Only) Name() string { return "only" }

// Pick implements Policy.
func (o *Only) Pick(p Point, runnable []int) (int, error) {
	for _, t := range runnable {
		if t == o.Thread {
			return t, nil
		}
	}
	return 0, ErrHeld
}
