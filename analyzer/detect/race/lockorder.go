package race

import (
	"fmt"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Inversion is a potential deadlock: one thread took lock A then B, another
// took B then A, and no third lock held by both serialized them.
type Inversion struct {
	ID           string
	LockA        string
	LockB        string
	First        []Endpoint // thread 1: acquisition of A, then of B
	Second       []Endpoint // thread 2: acquisition of B, then of A
	FirstThread  int
	SecondThread int
}

// held is a lock a thread holds, with where it took it.
type held struct {
	key  vm.SyncKey
	site vm.Site
}

// edge records that a thread acquired `to` while holding `from`.
type edge struct {
	thread           int
	fromSite, toSite vm.Site
	gates            []vm.SyncKey // the other locks held at the time
}

type lockGraph struct {
	// holding is the locks each thread holds, by thread id, in the order
	// taken. Each thread's list is its own (fork clones them), so a lock
	// taken and released changes it in place: a fresh list per release
	// made every acquisition of a lock-heavy program allocate.
	holding [][]held
	edges   map[[2]vm.SyncKey][]edge
	// seen holds the edges recorded, so a lock pair taken in a loop adds
	// one edge, not one per acquisition (the scan for inversions was
	// quadratic in the acquisitions).
	seen    map[edgeKey]bool
	found   map[[2]vm.SyncKey]bool
	pending [][2]edgeRef // inversions found, reported when a machine is bound
}

// edgeKey identifies an edge: the pair, the thread, both sites and the
// gate locks.
type edgeKey struct {
	from, to         vm.SyncKey
	thread           int
	fromSite, toSite vm.Site
	gates            string
}

func gatesKey(gates []vm.SyncKey) string {
	var b strings.Builder
	for _, g := range gates {
		fmt.Fprintf(&b, "%d:%x,", g.Kind, g.Addr)
	}
	return b.String()
}

type edgeRef struct {
	from, to vm.SyncKey
	e        edge
}

func newLockGraph() *lockGraph {
	return &lockGraph{edges: map[[2]vm.SyncKey][]edge{}, found: map[[2]vm.SyncKey]bool{},
		seen: map[edgeKey]bool{}}
}

// acquired records that thread t took lock k at site: an edge from every
// lock it holds, unless a try-lock took it (tried). A try-lock never waits,
// so it closes no deadlock cycle: std::lock takes one lock and tries the
// others, in either order, and drew an inversion of the pair it exists to
// take safely.
func (g *lockGraph) acquired(t int, k vm.SyncKey, site vm.Site, tried bool) {
	for len(g.holding) <= t {
		g.holding = append(g.holding, nil)
	}
	hs := g.holding[t]
	from := hs // the locks an edge to k starts at: none for a try-lock
	if tried {
		from = nil
	}
	for _, h := range from {
		if h.key == k {
			continue // recursive
		}
		var gates []vm.SyncKey
		for _, o := range hs {
			if o.key != h.key && o.key != k {
				gates = append(gates, o.key)
			}
		}
		e := edge{thread: t, fromSite: h.site, toSite: site, gates: gates}
		fwd := [2]vm.SyncKey{h.key, k}
		ek := edgeKey{h.key, k, t, h.site, site, gatesKey(gates)}
		if g.seen[ek] {
			continue // the same edge again: it found whatever it could the first time
		}
		g.seen[ek] = true
		g.edges[fwd] = append(g.edges[fwd], e)
		rev := [2]vm.SyncKey{k, h.key}
		pair := fwd
		if pair[0].Addr > pair[1].Addr {
			pair = rev
		}
		if g.found[pair] {
			continue
		}
		for _, r := range g.edges[rev] {
			if r.thread != t && !sharesGate(r.gates, gates) {
				g.found[pair] = true
				g.pending = append(g.pending, [2]edgeRef{{rev[0], rev[1], r}, {fwd[0], fwd[1], e}})
				break
			}
		}
	}
	g.holding[t] = append(hs, held{k, site})
}

func (g *lockGraph) released(t int, k vm.SyncKey) {
	hs := g.heldBy(t)
	for i := len(hs) - 1; i >= 0; i-- {
		if hs[i].key == k {
			g.holding[t] = append(hs[:i], hs[i+1:]...)
			return
		}
	}
}

// heldBy is the locks thread t holds, in the order taken.
func (g *lockGraph) heldBy(t int) []held {
	if t < len(g.holding) {
		return g.holding[t]
	}
	return nil
}

func sharesGate(a, b []vm.SyncKey) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// Inversions returns the lock-order inversions seen in this execution.
func (d *Detector) Inversions() []*Inversion {
	var out []*Inversion
	for _, p := range d.locks.pending {
		first, second := p[0], p[1]
		inv := &Inversion{
			LockA:        d.lockName(first.from),
			LockB:        d.lockName(first.to),
			First:        []Endpoint{d.endpoint(first.e.thread, vm.Write, first.e.fromSite, 0), d.endpoint(first.e.thread, vm.Write, first.e.toSite, 0)},
			Second:       []Endpoint{d.endpoint(second.e.thread, vm.Write, second.e.fromSite, 0), d.endpoint(second.e.thread, vm.Write, second.e.toSite, 0)},
			FirstThread:  first.e.thread,
			SecondThread: second.e.thread,
		}
		inv.ID = pairID(endpointKey(inv.First[0])+";"+endpointKey(inv.First[1]),
			endpointKey(inv.Second[0])+";"+endpointKey(inv.Second[1]))
		out = append(out, inv)
	}
	return out
}

// lockName names a lock by the memory it lives in.
func (d *Detector) lockName(k vm.SyncKey) string {
	if d.m == nil {
		return ""
	}
	o := d.m.Memory().Object(uint32(k.Addr >> ir.AddrShift))
	if o == nil {
		return fmt.Sprintf("lock at 0x%x", k.Addr)
	}
	return describeObject(d.m, o, k.Addr&(1<<ir.AddrShift-1))
}
