package sched

import (
	"hash/fnv"
	"maps"
)

// The schedules classification runs after a race must be the same
// schedule in both orders of the race: a difference in output or outcome
// is the race's consequence only if nothing else differs. A generator
// drawn at every decision is not: the order of two accesses changes a
// value, a value changes how many preemption points a thread passes (a
// number printed with more digits), and from there the two orders draw
// their choices at other points. These policies draw each choice from the
// place it is made at: the thread, its location, and how many times the
// thread stood there before. Where the two orders' threads stand at the
// same places, they make the same choices, whatever happened elsewhere.

// place counts, for a policy keyed by places, the visits of each thread to
// each location.
type place struct {
	seed   uint64
	visits map[placeKey]uint64
}

type placeKey struct {
	thread int
	loc    string
}

// draw returns the pseudo-random number of p's place: its thread, its
// location and the visit.
func (pl *place) draw(p *Point, salt uint64) uint64 {
	k := placeKey{p.Thread, p.Loc}
	n := pl.visits[k]
	pl.visits[k] = n + 1
	h := fnv.New64a()
	var b [32]byte
	put := func(i int, v uint64) {
		for j := 0; j < 8; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	put(0, pl.seed)
	put(8, uint64(int64(p.Thread)))
	put(16, n)
	put(24, salt)
	h.Write(b[:])
	h.Write([]byte(p.Loc))
	x := h.Sum64()
	// A final mix: FNV's low bits follow its last bytes too closely.
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

func (pl *place) fork() place {
	return place{seed: pl.seed, visits: maps.Clone(pl.visits)}
}

// Keyed picks among the runnable threads at random, each choice drawn
// from the place it is made at (see above).
type Keyed struct{ place }

// NewKeyed returns a Keyed policy seeded with seed.
func NewKeyed(seed uint64) *Keyed {
	return &Keyed{place{seed: seed, visits: map[placeKey]uint64{}}}
}

func (*Keyed) Name() string { return "random" }

// Fork implements Forker.
func (k *Keyed) Fork() Policy { return &Keyed{k.fork()} }

// Pick implements Policy.
func (k *Keyed) Pick(p *Point, runnable []int) (int, error) {
	return runnable[k.draw(p, 0)%uint64(len(runnable))], nil
}

// KeyedPCT is PCT (Burckhardt et al.) with its random choices drawn from
// places: a thread's priority from its id, and a change point, lowering
// the priority of the thread at it, at a place drawn to be one with
// probability (depth-1)/steps, so that about depth-1 changes fall in an
// execution of steps decisions, at the same places in both orders of a
// race. Threads that yield, sleep or run a whole time slice drop below
// the others, as under PCT.
type KeyedPCT struct {
	place
	depth, steps int
	prio         priorities
	low          int // the last priority given at a change point or a drop
	again        streak
}

// NewKeyedPCT returns a KeyedPCT policy of the given depth for executions
// of about steps decisions.
func NewKeyedPCT(seed uint64, depth, steps int) *KeyedPCT {
	return &KeyedPCT{place: place{seed: seed, visits: map[placeKey]uint64{}}, depth: max(depth, 1), steps: max(steps, 1)}
}

func (*KeyedPCT) Name() string { return "pct" }

// Fork implements Forker.
func (p *KeyedPCT) Fork() Policy {
	c := *p
	c.place = p.fork()
	c.prio = p.prio.clone()
	return &c
}

// Pick implements Policy.
func (p *KeyedPCT) Pick(pt *Point, runnable []int) (int, error) {
	for _, t := range runnable {
		if !p.prio.given(t) {
			p.prio.set(t, p.depth+1+int(p.draw(&Point{Thread: t, Loc: "priority"}, 1)%(1<<20)))
		}
	}
	if pt.Thread >= 0 && p.depth > 1 && p.draw(pt, 2)%uint64(p.steps) < uint64(p.depth-1) {
		p.low--
		p.prio.set(pt.Thread, p.low)
	}
	return demoteAndPick(&p.prio, &p.low, &p.again, pt, runnable), nil
}
