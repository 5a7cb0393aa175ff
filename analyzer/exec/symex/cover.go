package symex

import (
	"math/bits"
	"slices"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Coverage is what a path did to memory: which instructions accessed it,
// from which thread (main, the first two others, or any later one), as
// sorted keys (coverKey). It tells paths apart by what races are made of:
// race detection runs on the inputs of the paths that reach accesses,
// or threads at them, that no chosen path reached (SelectInputs).
type Coverage []uint32

// threadsKept is how many threads coverage tells apart; later ones share
// the last key.
const threadsKept = 4

func coverKey(loc ir.LocID, thread int) uint32 {
	return uint32(loc)*threadsKept + uint32(min(thread, threadsKept-1))
}

// accessCoverage is the monitor that records a path's coverage as a
// bitset over coverKey while it runs, and the latest accesses of its
// threads (vm.RecentAccesses); forks copy both.
type accessCoverage struct {
	set    []uint64
	recent [recentKept]recentAccess
	next   int // the ring's next slot
}

// recentKept is how many of the latest accesses a path remembers: enough
// for the few shared cells a worker touches around a store an input
// indexes, few enough that remembering costs a store per access.
const recentKept = 32

type recentAccess struct {
	thread int32
	obj    uint32
	off    uint64
}

func newAccessCoverage(prog *ir.Program) *accessCoverage {
	return &accessCoverage{set: make([]uint64, (len(prog.Locs)*threadsKept+63)/64)}
}

// Access implements vm.Monitor.
func (c *accessCoverage) Access(a *vm.Access) { c.record(a.Thread, a.Site.Loc, a.Obj.ID, a.Off) }

// RawAccess implements vm.RawMonitor: the loads and stores the exec loop
// runs inline, which are most of a path's accesses, without an Access.
func (c *accessCoverage) RawAccess(thread int, loc ir.LocID, o *vm.Object, off uint64) {
	c.record(thread, loc, o.ID, off)
}

// record adds an access by thread at loc, to offset off of object obj.
func (c *accessCoverage) record(thread int, loc ir.LocID, obj uint32, off uint64) {
	k := coverKey(loc, thread)
	if i := int(k >> 6); i < len(c.set) {
		c.set[i] |= 1 << (k & 63)
	}
	c.recent[c.next] = recentAccess{thread: int32(thread), obj: obj, off: off}
	c.next = (c.next + 1) % recentKept
}

// TouchedByOthers implements vm.RecentAccesses.
func (c *accessCoverage) TouchedByOthers(obj uint32, thread int) []uint64 {
	var out []uint64
	for i := 1; i <= recentKept; i++ {
		r := c.recent[(c.next-i+recentKept)%recentKept]
		if r.obj != obj || int(r.thread) == thread {
			continue
		}
		if a := ir.Addr(obj, r.off); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// Sync implements vm.Monitor.
func (c *accessCoverage) Sync(vm.SyncEvent) {}

// Fork implements vm.ForkableMonitor.
func (c *accessCoverage) Fork() vm.Monitor {
	return &accessCoverage{set: slices.Clone(c.set), recent: c.recent, next: c.next}
}

// keys lists the set's keys, sorted: a finished path keeps only those.
func (c *accessCoverage) keys() Coverage {
	var out Coverage
	for i, w := range c.set {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			out = append(out, uint32(i*64+b))
			w &^= 1 << b
		}
	}
	return out
}

// SelectInputs picks, among the paths of an exploration, the ones whose
// inputs are worth a race-detection run: greedily, the path with the most
// coverage keys that no earlier pick (nor the first path, the seed input's
// own) had, until no path adds any, or max are picked. Paths in
// exploration order break ties, so the choice is deterministic.
func SelectInputs(paths []*Path, max int) []*Path {
	if len(paths) == 0 {
		return nil
	}
	seen := map[uint32]bool{}
	add := func(p *Path) {
		for _, k := range p.Coverage {
			seen[k] = true
		}
	}
	add(paths[0])
	taken := make([]bool, len(paths))
	taken[0] = true
	var out []*Path
	for len(out) < max {
		best, bestN := -1, 0
		for i, p := range paths {
			if taken[i] {
				continue
			}
			n := 0
			for _, k := range p.Coverage {
				if !seen[k] {
					n++
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		out = append(out, paths[best])
		add(paths[best])
	}
	return out
}
