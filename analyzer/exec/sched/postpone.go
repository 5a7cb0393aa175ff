package sched

import (
	"fmt"
	"slices"
)

// Postpone replays the first Prefix decisions of a recorded schedule,
// then keeps Thread from running for as long as any other thread can: it
// reverses the order in which Thread reaches its next synchronization
// relative to the others (Carril and Tichy's interleaving generation: from
// one trace, schedules that acquire the same locks in another order).
//
// The postponement ends once the others show that they wait for Thread:
// one of them ran a whole time slice without reaching a preemption point
// that lets Thread go (it spins on a flag Thread is to set), or only
// threads in a sleep or timed wait were left and were woken maxOversleep
// times since Thread last ran (they poll for its progress: check, sleep or
// poll with a timeout, check). Holding Thread back then would run the
// others for ever while it never does, a hang of the schedule rather than
// of the program. From there on it is round robin.
type Postpone struct {
	Trace  *Trace // the recorded schedule whose prefix is replayed
	Prefix int    // how many of its decisions
	Thread int
	cur    Cursor
	begun  bool
	// overslept counts the sleeps and timed waits ended while Thread could
	// run, since it last ran.
	overslept int
	// released is set when the postponement ended.
	released bool
}

// maxOversleep is how many sleeps or timed waits in a row Postpone ends
// before Thread runs: enough for the others' waits to end first in any
// program that does not poll for Thread, few enough that one that polls
// lets it move.
const maxOversleep = 64

func (p *Postpone) Name() string {
	return fmt.Sprintf("postpone thread %d after %d decisions", p.Thread, p.Prefix)
}

// Fork implements Forker.
func (p *Postpone) Fork() Policy {
	c := *p
	return &c
}

// Pick implements Policy.
func (p *Postpone) Pick(pt *Point, runnable []int) (int, error) {
	if !p.begun {
		p.cur, p.begun = p.Trace.Cursor(), true
	}
	if p.cur.Index() < p.Prefix {
		if ev, ok := p.cur.Next(); ok && pt.CanRun(ev.Next, runnable) {
			return ev.Next, nil
		}
	}
	if p.released {
		return RoundRobin{}.Pick(pt, runnable)
	}
	if pt.What == WhatTimeSlice && pt.Thread != p.Thread && slices.Contains(runnable, p.Thread) {
		p.released = true // another thread spun a whole slice: Thread's turn
		return p.Thread, nil
	}
	// Round robin among the others (RoundRobin.Pick without Thread, and
	// without a list of the others made at every decision); Thread only
	// when nothing else can run.
	first := -1
	for _, t := range runnable {
		if t == p.Thread {
			continue
		}
		if t > pt.Thread {
			return t, nil
		}
		if first < 0 {
			first = t
		}
	}
	if first < 0 {
		// Thread may be slower than any sleep or timeout: another thread's
		// sleep or timed wait ends first.
		if s := pt.wakingOtherThan(p.Thread); s >= 0 {
			if p.overslept < maxOversleep {
				p.overslept++
				return s, nil
			}
			p.released = true // the sleepers poll for Thread
		}
		p.overslept = 0
		return runnable[0], nil
	}
	return first, nil
}

// Reversals derives up to max Postpone schedules from a trace: for each
// lock acquisition (first the ones at distinct places), postpone the
// acquiring thread from the decision that last chose it before the
// acquisition. It reads the trace once; the schedules share it.
func Reversals(t *Trace, max int, acquires func(what string) bool) []*Postpone {
	if max <= 0 {
		return nil
	}
	var out, later []*Postpone
	seen := map[string]bool{}
	lastChose := map[int]int{} // thread -> index of the latest decision that chose it
	c := t.Cursor()
	for i := 0; ; i++ {
		ev, ok := c.Next()
		if !ok || len(out) >= max {
			break
		}
		if ev.Thread >= 0 && acquires(ev.What) {
			if j, ok := lastChose[ev.Thread]; ok {
				p := &Postpone{Trace: t, Prefix: j, Thread: ev.Thread}
				key := fmt.Sprintf("%d@%s", ev.Thread, ev.Loc)
				switch {
				case !seen[key]:
					seen[key] = true
					out = append(out, p)
				case len(later) < max:
					later = append(later, p)
				}
			}
		}
		lastChose[ev.Next] = i
	}
	out = append(out, later...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}
