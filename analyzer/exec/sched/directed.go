package sched

import (
	"maps"
	"slices"
)

// Directed is race-directed scheduling (Eslamimehr and Palsberg, PPoPP
// 2014, shared/papers/004_*; the idea goes back to Sen's RaceFuzzer): given
// a potential race, a pair of statements that earlier executions saw
// ordered only by chance, it drives the execution so that both reach their
// statement together. A thread that arrives at one of the two statements
// is postponed; when another thread arrives at the other one while it
// waits, both stand at the brink of the race, and the policy lets them run
// one right after the other (the waiting one first: the order the earlier
// executions did not show), so the detector sees two accesses with nothing
// between them. Everything else runs round robin.
//
// It needs preemption at shared accesses (Schedule.PreemptAccesses): a
// thread reaches a preemption point just before each of its accesses, with
// the access's location in Point.Loc.
//
// A postponed thread is let go when nothing else can run (its partner may
// never come: the pair was ordered for a reason) or after Patience
// decisions (the others may be spinning until it moves); it may be
// postponed again at a later instance of its statement. Before letting a
// waiter go, a sleeping thread is woken early (its partner may be asleep),
// unless it was woken early before and went back to sleep without
// reaching either statement: it polls (wakes, finds nothing, sleeps), and
// waking it at every postponement made pbzip2's file writer poll 26
// million times, 90% of the run, while its compressors waited at a
// statement of their hot loop.
type Directed struct {
	// Targets are the two statements' locations, as Point.Loc gives them
	// (file:line:col). They may be equal: a statement racing with itself
	// in another thread.
	Targets [2]string
	// Patience is how many decisions a thread waits for its partner (0:
	// DefaultPatience).
	Patience int
	// Met counts the times both statements were reached together.
	Met int

	waiting map[int]postponed // thread -> where and since when it waits
	step    int
	// next, when set, is the thread that runs at the next decision: the
	// second of a pair brought to the brink.
	next    int
	hasNext bool
	// woke is the sleeper woken early last, when hasWoke is set; pollers
	// are the ones that slept again without reaching either statement.
	woke    int
	hasWoke bool
	pollers map[int]bool
}

// DefaultPatience is how many scheduling decisions a postponed thread
// waits for its partner before it is let go.
const DefaultPatience = 4096

type postponed struct {
	loc   string
	since int // the decision it was postponed at
}

// NewDirected returns the policy that brings two statements together.
func NewDirected(a, b string) *Directed { return &Directed{Targets: [2]string{a, b}} }

func (d *Directed) Name() string { return "directed" }

// Fork implements Forker.
func (d *Directed) Fork() Policy {
	c := *d
	c.waiting = make(map[int]postponed, len(d.waiting))
	for k, v := range d.waiting {
		c.waiting[k] = v
	}
	c.pollers = maps.Clone(d.pollers)
	return &c
}

// other returns the target that pairs with loc, and whether loc is one.
func (d *Directed) other(loc string) (string, bool) {
	switch loc {
	case d.Targets[0]:
		return d.Targets[1], true
	case d.Targets[1]:
		return d.Targets[0], true
	}
	return "", false
}

// Pick implements Policy.
func (d *Directed) Pick(p *Point, runnable []int) (int, error) {
	if d.waiting == nil {
		d.waiting = map[int]postponed{}
	}
	d.step++
	if d.hasNext {
		d.hasNext = false
		if p.CanRun(d.next, runnable) {
			return d.next, nil
		}
	}
	if t := p.Thread; t >= 0 {
		if want, ok := d.other(p.Loc); ok {
			delete(d.pollers, t) // it reached a statement: it may be woken again
			if u := d.waiter(want, t, runnable); u >= 0 {
				// Both at the brink: the partner, which has waited,
				// accesses first and t right after it.
				d.Met++
				delete(d.waiting, u)
				d.next, d.hasNext = t, true
				return u, nil
			}
			d.waiting[t] = postponed{loc: p.Loc, since: d.step}
		}
	}
	patience := d.Patience
	if patience <= 0 {
		patience = DefaultPatience
	}
	var free []int
	oldest := -1
	for _, t := range runnable {
		w, ok := d.waiting[t]
		if ok && d.step-w.since > patience {
			delete(d.waiting, t) // its partner is not coming, or the others wait for it
			ok = false
		}
		if !ok {
			free = append(free, t)
		} else if oldest < 0 || w.since < d.waiting[oldest].since {
			oldest = t
		}
	}
	if len(free) > 0 {
		return RoundRobin{}.Pick(p, free)
	}
	if d.hasWoke && slices.Contains(p.Waking, d.woke) {
		if d.pollers == nil {
			d.pollers = map[int]bool{}
		}
		d.pollers[d.woke] = true // asleep or in a timed wait again, at neither statement
	}
	d.hasWoke = false
	for _, s := range p.Waking {
		if !d.pollers[s] {
			d.woke, d.hasWoke = s, true
			return s, nil
		}
	}
	// Everything runnable waits for a partner that cannot come now: the
	// one that waited longest goes.
	delete(d.waiting, oldest)
	return oldest, nil
}

// waiter returns a runnable thread other than t postponed at loc, the one
// that waited longest, or -1.
func (d *Directed) waiter(loc string, t int, runnable []int) int {
	best := -1
	for _, u := range runnable {
		if w, ok := d.waiting[u]; ok && u != t && w.loc == loc && (best < 0 || w.since < d.waiting[best].since) {
			best = u
		}
	}
	return best
}
