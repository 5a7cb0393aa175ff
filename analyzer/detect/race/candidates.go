package race

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/internal/memo"
)

// Candidate is a potential race: two conflicting accesses by different
// threads that the execution ordered, but not by a lock both held, nor by
// the creation or the joining of a thread. Another schedule may well run
// them concurrently; race-directed scheduling (sched.Directed) tries to.
// The hybrid rule (happens-before to find conflicting pairs, locksets to
// judge the order accidental) is O'Callahan and Choi's.
type Candidate struct {
	// ID is the same for the same pair of statements on the same object
	// in every execution (see candidateID).
	ID     string `json:"id"`
	Object string `json:"object"`
	// A and B are the two accesses' locations as the scheduler sees them
	// (file:line:col, Point.Loc) and their kinds: the first instructions
	// of the two statements seen to conflict.
	A     string        `json:"a"`
	B     string        `json:"b"`
	AKind vm.AccessKind `json:"a_kind"`
	BKind vm.AccessKind `json:"b_kind"`
	// Inputs are the named inputs of the execution that saw the pair
	// (nil: the analysis's own).
	Inputs *Inputs `json:"inputs,omitempty"`
}

// maxCandidates bounds the candidates one execution keeps.
const maxCandidates = 256

// born is how a thread came to be: which thread created it, at which
// value of that thread's clock.
type born struct {
	parent int
	clock  uint64
}

// locksetOf returns the interned set of locks thread t holds (0: none).
func (d *Detector) locksetOf(t int) uint32 {
	for len(d.locksets) <= t {
		d.locksets = append(d.locksets, 0)
	}
	if d.lsDirty(t) {
		hs := d.locks.heldBy(t)
		id := d.intern(hs)
		d.locksets[t] = id
		d.lsClean(t)
		if id != 0 {
			d.noteLockSites(t, id, hs)
		}
	}
	return d.locksets[t]
}

// lsSite names a set of held locks as one thread held it.
type lsSite struct {
	thread int
	set    uint32
}

// noteLockSites records, the first time thread t holds the interned set
// id, where it took each of the set's locks (in the set's order): what
// a race's endpoint says about its locks, so that a fix can name a
// mutex the way the source that took it does (`&acct->lock`). The first
// time is the one kept: a thread that takes a lock in a loop takes it at
// the same place each time.
func (d *Detector) noteLockSites(t int, id uint32, hs []held) {
	if t < len(d.lsNoted) && d.lsNoted[t] == id {
		return
	}
	for len(d.lsNoted) <= t {
		d.lsNoted = append(d.lsNoted, 0)
	}
	d.lsNoted[t] = id
	k := lsSite{t, id}
	if _, ok := d.lsSites[k]; ok {
		return
	}
	if d.lsSites == nil {
		d.lsSites = map[lsSite][]vm.Site{}
	}
	keys := d.lsets[id]
	sites := make([]vm.Site, len(keys))
	for i, key := range keys {
		for _, h := range hs {
			if h.key == key {
				sites[i] = h.site
				break
			}
		}
	}
	d.lsSites[k] = sites
}

func (d *Detector) lsDirty(t int) bool { return t < len(d.dirty) && d.dirty[t] }
func (d *Detector) lsClean(t int)      { d.dirty[t] = false }

// lockChanged marks t's lockset stale after it took or released a lock.
func (d *Detector) lockChanged(t int) {
	for len(d.dirty) <= t {
		d.dirty = append(d.dirty, false)
	}
	d.dirty[t] = true
}

// intern gives a set of held locks its number; the empty set is 0. It
// runs at the first access after every acquisition and release, so the
// lookup builds its key in buffers on the stack (it used fmt.Sprint, a
// fifth of detection's time on a lock-heavy program) and allocates only
// for a set not seen before.
func (d *Detector) intern(hs []held) uint32 {
	if len(hs) == 0 {
		return 0
	}
	if len(hs) == 1 && d.oneID != 0 && hs[0].key == d.oneKey {
		return d.oneID
	}
	id := d.internSet(hs)
	if len(hs) == 1 {
		d.oneKey, d.oneID = hs[0].key, id
	}
	return id
}

// internSet is intern's lookup, by a key built from the sorted set.
func (d *Detector) internSet(hs []held) uint32 {
	var keyArr [4]vm.SyncKey
	keys := keyArr[:0]
	for _, h := range hs {
		keys = append(keys, h.key)
	}
	slices.SortFunc(keys, func(a, b vm.SyncKey) int {
		if c := cmp.Compare(a.Addr, b.Addr); c != 0 {
			return c
		}
		return cmp.Compare(a.Kind, b.Kind)
	})
	var nameArr [4 * 9]byte
	name := nameArr[:0]
	for _, k := range keys {
		name = append(binary.LittleEndian.AppendUint64(name, k.Addr), k.Kind)
	}
	if id, ok := d.lsIndex[string(name)]; ok {
		return id
	}
	if d.lsIndex == nil {
		d.lsIndex, d.lsets = map[string]uint32{}, [][]vm.SyncKey{nil}
	}
	id := uint32(len(d.lsets))
	d.lsets = append(d.lsets, slices.Clone(keys))
	d.lsIndex[string(name)] = id
	return id
}

// disjoint reports whether two interned locksets share no lock.
func (d *Detector) disjoint(a, b uint32) bool {
	if a == 0 || b == 0 {
		return true
	}
	if a == b {
		return false
	}
	for _, x := range d.lsets[a] {
		for _, y := range d.lsets[b] {
			if x == y {
				return false
			}
		}
	}
	return true
}

// orderedByThreads reports whether an access by thread u at clock value
// clk precedes every access of thread t because t was created after it
// (by u, or by a descendant u created later) or because t joined u.
func (d *Detector) orderedByThreads(u int, clk uint64, t int) bool {
	if u < len(d.clocks) && d.clocks[u] == nil {
		return true // joined
	}
	for cur, hops := t, 0; hops < 64; hops++ {
		b, ok := d.births[cur]
		if !ok {
			return false
		}
		if b.parent == u {
			return clk <= b.clock
		}
		cur = b.parent
	}
	return false
}

// candidate notes that the current access a (at byte off, under lockset
// ls) was ordered after a conflicting access by another thread, prev, made
// under lockset prevLS: a potential race when no lock both held, and not
// the creation or joining of a thread, ordered them.
func (d *Detector) candidate(a *vm.Access, off uint64, prev epoch, prevSite vm.Site, ls, prevLS uint32) {
	if len(d.cands) >= maxCandidates || d.m == nil {
		return
	}
	if !d.disjoint(ls, prevLS) || d.orderedByThreads(prev.tid(), prev.clock(), a.Thread) {
		return
	}
	prog := d.m.Program()
	la, lb := prog.Loc(prevSite.Loc), prog.Loc(a.Site.Loc)
	id := CandidateID(la, lb, d.objectKey(a.Obj))
	if d.candSeen[id] {
		return
	}
	if d.candSeen == nil {
		d.candSeen = map[string]bool{}
	}
	d.candSeen[id] = true
	d.cands = append(d.cands, &Candidate{ID: id, Object: describeObject(d.m, a.Obj, off),
		A: prog.LocString(prevSite.Loc), B: prog.LocString(a.Site.Loc), AKind: prev.kind(), BKind: a.Kind})
}

// CandidateID names a pair of statements (by file and line) on an object
// (by its ObjectKey), unordered: a race between the same statements has
// the same id (RaceCandidateID), whichever of their instructions raced.
func CandidateID(a, b ir.Loc, object string) string {
	return candidateIDs.Get(candidateKey{a.File, a.Line, b.File, b.Line, object})
}

// candidateKey is what a candidate id hashes.
type candidateKey struct {
	aFile  string
	aLine  int
	bFile  string
	bLine  int
	object string
}

// candidateIDs remembers candidate ids, which detection asks for every
// race of every schedule.
var candidateIDs = memo.New(func(k candidateKey) string {
	return pairID(fmt.Sprintf("%s:%d", k.aFile, k.aLine), fmt.Sprintf("%s:%d", k.bFile, k.bLine), "candidate", k.object)
})

// RaceCandidateID is the candidate id of a race's statements: a candidate
// with it has been confirmed.
func RaceCandidateID(r *Race) string { return CandidateID(r.First.Loc, r.Second.Loc, r.ObjectKey) }

// Candidates returns the potential races of the execution, in the order
// they were seen.
func (d *Detector) Candidates() []*Candidate { return d.cands }
