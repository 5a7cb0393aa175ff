package race

import (
	"maps"
	"slices"
	"sync/atomic"

	"augur/analyzer/exec/vm"
)

// Forking a detector. A schedule enumeration that branches from a paused
// execution (snapshot.go) forks the execution and its detector with it:
// the fork must find exactly what a detector that watched the whole
// execution from the start finds. Shadow memory, most of a detector, is
// shared copy-on-write like the VM's objects: by generation, a page or an
// object's shadow is copied by whichever side changes it first. The rest
// (clocks, locks, what was found) is small and copied.

// genCounter numbers detector generations; forks run on several
// goroutines.
var genCounter atomic.Uint64

func newGen() uint64 { return genCounter.Add(1) }

// Fork implements vm.ForkableMonitor. The fork is not bound to a machine:
// its caller binds it to the forked one.
func (d *Detector) Fork() vm.Monitor { return d.fork() }

func (d *Detector) fork() *Detector {
	c := *d
	c.m = nil
	c.wide, c.missed = nil, 0 // the generations below make every leaf stale
	c.clocks = make([]VC, len(d.clocks))
	for i, v := range d.clocks {
		if v != nil {
			c.clocks[i] = v.Clone()
		}
	}
	c.syncs = make(map[vm.SyncKey]*VC, len(d.syncs))
	for k, v := range d.syncs {
		cp := v.Clone() // a release overwrites a key's clock in place
		c.syncs[k] = &cp
	}
	c.last = nil
	if d.syncsIn != nil {
		c.syncsIn = make(map[uint32][]vm.SyncKey, len(d.syncsIn))
		for k, v := range d.syncsIn {
			c.syncsIn[k] = v[:len(v):len(v)]
		}
	}
	// Both sides take a new generation, so neither changes a shared page
	// or shadow in place.
	c.shadows = slices.Clone(d.shadows)
	d.gen, c.gen = newGen(), newGen()
	c.found = make(map[pairKey]*Race, len(d.found))
	c.order = make([]*Race, len(d.order))
	copies := make(map[*Race]*Race, len(d.order))
	for i, r := range d.order {
		cp := *r // what record changes are values: instances, endpoints
		c.order[i], copies[r] = &cp, &cp
	}
	for k, r := range d.found {
		c.found[k] = copies[r]
	}
	c.locks = d.locks.fork()
	c.reportedNow = nil
	c.locksets = slices.Clone(d.locksets)
	c.dirty = slices.Clone(d.dirty)
	c.lsIndex = maps.Clone(d.lsIndex)
	c.lsets = d.lsets[:len(d.lsets):len(d.lsets)] // interned sets are never written
	c.lsSites = maps.Clone(d.lsSites)             // its lists are never written
	c.lsNoted = slices.Clone(d.lsNoted)
	c.births = maps.Clone(d.births)
	c.cands = make([]*Candidate, len(d.cands))
	for i, x := range d.cands {
		cp := *x
		c.cands[i] = &cp
	}
	c.candSeen = maps.Clone(d.candSeen)
	c.redo = slices.Clone(d.redo)
	c.frees = maps.Clone(d.frees)
	c.freeOrder = slices.Clone(d.freeOrder)
	return &c
}

// page returns shadow page pg for changing: made when there is none,
// copied first when a fork shares it.
func (d *Detector) page(pg int) *shadowPage {
	p := d.shadows[pg]
	switch {
	case p == nil:
		p = &shadowPage{gen: d.gen}
		d.shadows[pg] = p
	case p.gen != d.gen:
		cp := *p
		cp.gen = d.gen
		p = &cp
		d.shadows[pg] = p
	}
	return p
}

// clone copies a shadow for the detector of generation gen. Its chunks
// stay shared until an access changes them (Detector.chunk).
func (sh *objShadow) clone(gen uint64) *objShadow {
	c := *sh
	c.gen = gen
	c.chunks = slices.Clone(sh.chunks)
	return &c
}

// clone copies a chunk for the detector of generation gen.
func (ch *chunk) clone(gen uint64) *chunk {
	c := *ch
	c.gen = gen
	c.hot = slices.Clone(ch.hot)
	c.sites = slices.Clone(ch.sites)
	c.lines = slices.Clone(ch.lines) // each copied when an access changes it (Detector.line)
	if ch.reads != nil {
		// Reads are replaced in place, and a free slot's array is reused:
		// the copy has arrays of its own, as large, and none in free slots.
		c.reads = make([][]sharedRead, len(ch.reads))
		c.lists = listBytes * uint64(len(ch.reads))
		for k, v := range ch.reads {
			if len(v) > 0 {
				c.setList(uint64(k), append(make([]sharedRead, 0, cap(v)), v...))
			}
		}
		c.free = slices.Clone(ch.free)
	}
	return &c
}

// fork copies the lock graph: the locks each thread holds and the edges
// seen, whose lists only grow.
func (g *lockGraph) fork() *lockGraph {
	c := &lockGraph{holding: make([][]held, len(g.holding)), edges: make(map[[2]vm.SyncKey][]edge, len(g.edges)),
		seen: maps.Clone(g.seen), found: maps.Clone(g.found), pending: slices.Clone(g.pending)}
	for t, hs := range g.holding {
		c.holding[t] = slices.Clone(hs) // acquired and released change it in place
	}
	for k, es := range g.edges {
		c.edges[k] = es[:len(es):len(es)]
	}
	return c
}

// Fork implements vm.ForkableMonitor: the steps recorded so far and the
// object marks are copied (the last step may still grow: a state paused
// before a decision is still in the step before it). Its caller gives it
// the forked policy (snapshot.go).
func (f *footprints) Fork() vm.Monitor {
	c := *f
	c.det = f.det.Fork().(*Detector)
	c.Monitor = c.det
	c.steps = slices.Clone(f.steps)
	for i := range c.steps {
		s := &c.steps[i]
		s.keys = s.keys[:len(s.keys):len(s.keys)]
		s.forks = s.forks[:len(s.forks):len(s.forks)]
		s.joins = s.joins[:len(s.joins):len(s.joins)]
	}
	c.seen = slices.Clone(f.seen)
	return &c
}
