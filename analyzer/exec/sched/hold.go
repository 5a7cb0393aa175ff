package sched

import "errors"

// ErrHeld is returned by Hold when only the held thread could run: the
// order the hold enforces cannot be reached.
var ErrHeld = errors.New("only the held thread can run")

// Hold runs every thread but Thread, with Fallback choosing among them, and
// refuses (ErrHeld) when Thread is the only one that can run. Before it
// refuses it ends another thread's sleep or timed wait (Point.Waking): the
// held thread may be slower than any timeout, so a timer that fires while
// it waits is an order the program can take.
type Hold struct {
	Thread   int
	Fallback Policy
}

func (*Hold) Name() string { return "hold" }

// Pick implements Policy.
func (h *Hold) Pick(p *Point, runnable []int) (int, error) {
	var others []int
	for _, t := range runnable {
		if t != h.Thread {
			others = append(others, t)
		}
	}
	if len(others) == 0 {
		if s := p.wakingOtherThan(h.Thread); s >= 0 {
			return s, nil
		}
		return 0, ErrHeld
	}
	return h.Fallback.Pick(p, others)
}

// Only runs Thread alone and refuses (ErrHeld) when it cannot run.
type Only struct{ Thread int }

func (*Only) Name() string { return "only" }

// Pick implements Policy.
func (o *Only) Pick(p *Point, runnable []int) (int, error) {
	if p.CanRun(o.Thread, runnable) {
		return o.Thread, nil
	}
	return 0, ErrHeld
}

// First runs Thread at the first decision, when it can run, and leaves
// every decision after to Then: the alternate order of a race makes the
// held thread's access right after the other thread's.
type First struct {
	Thread int
	Then   Policy
	done   bool
}

func (f *First) Name() string { return f.Then.Name() }

// Pick implements Policy.
func (f *First) Pick(p *Point, runnable []int) (int, error) {
	if !f.done {
		f.done = true
		if p.CanRun(f.Thread, runnable) {
			return f.Thread, nil
		}
	}
	return f.Then.Pick(p, runnable)
}
