package sched

import (
	"slices"
	"unsafe"
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
// each location. A post-race schedule of a long program draws millions of
// times, so a draw must cost little: the visit count is found through a
// small cache keyed by the location text's address (the machine's texts
// are one table), and the text's hash is taken once per location, not at
// every draw (hashing the text byte by byte at each draw was 40% of such a
// classification's CPU).
type place struct {
	seed   uint64
	visits map[string]*locVisits
	cache  [placeCache]cachedLoc
}

// locVisits are the visits to one location, by thread id + 1 (a thread
// that blocked or exited decides as -1), and the hash of its text.
type locVisits struct {
	n    []uint64
	hash uint64
}

// cachedLoc remembers where a location text's visits are: the same
// address and length are the same text (the cache keeps the text alive).
type cachedLoc struct {
	ptr *byte
	len int
	v   *locVisits
}

const placeCache = 64

func newPlace(seed uint64) place { return place{seed: seed, visits: map[string]*locVisits{}} }

// textSlot picks a slot among slots for a text by where its bytes are,
// for the caches that spare a hot path the hash of a location's text
// (place's, a trace's memo of names): the machine's texts are made once,
// so a text comes back at the same address, and a hash of the address
// costs a shift where one of the bytes would read them.
func textSlot(s string, slots int) int {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return int((p>>3 ^ p>>11 ^ uintptr(len(s))) % uintptr(slots))
}

// visit counts a visit of thread to loc and returns the visits before it
// and the hash of loc's text.
func (pl *place) visit(thread int, loc string) (n, locHash uint64) {
	ptr := unsafe.StringData(loc)
	c := &pl.cache[textSlot(loc, placeCache)]
	if c.ptr != ptr || c.len != len(loc) || c.v == nil {
		v := pl.visits[loc]
		if v == nil {
			v = &locVisits{hash: textHash(loc)}
			pl.visits[loc] = v
		}
		*c = cachedLoc{ptr: ptr, len: len(loc), v: v}
	}
	i := thread + 1
	if i >= len(c.v.n) {
		c.v.n = append(c.v.n, make([]uint64, i+1-len(c.v.n))...)
	}
	n = c.v.n[i]
	c.v.n[i] = n + 1
	return n, c.v.hash
}

// draw returns the pseudo-random number of p's place: its thread, its
// location and the visit.
func (pl *place) draw(p *Point, salt uint64) uint64 {
	n, lh := pl.visit(p.Thread, p.Loc)
	return placeDraw(pl.seed, p.Thread, n, salt, lh)
}

// textHash is FNV-1a (64-bit) of a location's text.
func textHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// placeDraw mixes a place (seed, thread, visit, salt and the location
// text's hash) into one number whose every bit depends on all of them:
// each word enters through its own odd multiplier, the place's and the
// visit's in a round each of SplitMix64's finalizer, so neighbouring
// visits and threads draw unrelated numbers, low bits included (the draws
// are taken modulo small counts; TestKeyedDrawsAreUniform).
func placeDraw(seed uint64, thread int, n, salt, locHash uint64) uint64 {
	x := mix64(seed ^ locHash ^ uint64(int64(thread))*0x9e3779b97f4a7c15)
	return mix64(x ^ n*0xbf58476d1ce4e5b9 ^ salt*0x94d049bb133111eb)
}

// mix64 is SplitMix64's finalizer.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func (pl *place) fork() place {
	c := newPlace(pl.seed)
	for loc, v := range pl.visits {
		c.visits[loc] = &locVisits{n: slices.Clone(v.n), hash: v.hash}
	}
	return c
}

// Keyed picks among the runnable threads at random, each choice drawn
// from the place it is made at (see above).
type Keyed struct{ place }

// NewKeyed returns a Keyed policy seeded with seed.
func NewKeyed(seed uint64) *Keyed {
	return &Keyed{newPlace(seed)}
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
	return &KeyedPCT{place: newPlace(seed), depth: max(depth, 1), steps: max(steps, 1)}
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
