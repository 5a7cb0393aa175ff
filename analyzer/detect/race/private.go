package race

import (
	"maps"
	"slices"
	"sync"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Objects private to the thread that made them.
//
// Most accesses of a program are to memory only one thread uses: the
// heap objects and escaping stack slots a worker allocates for itself
// (a compressor's window and hash chains, a parser's buffers). A race
// needs a second thread, so the detector need not keep a history of
// such an object per cell while it has one thread: it keeps, per object,
// only its owner's clock at its last access. The first access by another
// thread ends the private phase (publish), and from there on the object
// is shadowed cell by cell as any other.
//
// This is exact when every access of the private phase happens before
// every access of another thread, through the creation or joining of
// threads (orderedByThreads): such accesses can race with nothing, and
// make no potential race (candidate) either, so a shadow of them would
// have reported nothing. Each other thread is checked against the phase
// (vouch) at its first access to the object. When that check fails, the
// phase may hold a race or a potential race the detector no longer knows
// the cells of: it names the object's allocation site (Redo), and the
// execution is run again with that site's objects shadowed from birth
// (detection.complete). An execution's findings are therefore the same
// with private objects as without; only its cost differs.

// While the program has one thread (before it creates a second, and once
// it joined every other), nothing it does can race, nor make a potential
// race: each access is ordered by the creation or joining of threads
// before every access of a thread that runs later. With objects kept
// private, the detector then records no access (alone), and has the
// machine skip it until the next synchronization event. What it records
// of the earlier threads stays, and says the same of later accesses as
// the skipped ones would (they too are ordered by threads).

// alone settles the access a made while the program has one thread.
func (d *Detector) alone(a *vm.Access) {
	switch {
	case a.Kind == vm.Free:
		d.drop(a.Obj) // its shadow, if an earlier thread made one, goes with it
	case d.m != nil:
		d.m.QuietUntilSync()
	}
}

// owned is a cache of the objects the last accesses found private to
// the accessing thread, indexed by object id, so that such an access
// costs a lookup and a store.
type owned struct {
	obj    *vm.Object
	serial uint64
	sh     *objShadow
}

// ownsFrom makes the detector keep objects private to their thread, but
// those allocated at the sites in shared (which it must not change), and
// has the machine skip the monitor for the owner's accesses in its
// current epoch (a monitor wrapped around the detector sees none of
// them: footprints needs none).
func (d *Detector) ownsFrom(shared map[ir.LocID]bool) {
	d.private, d.sharedSites = true, shared
}

// Redo returns the allocation sites of the objects whose private phase
// the detector could not vouch for: the execution's findings are then
// incomplete, and it must run again with these sites shadowed from birth.
func (d *Detector) Redo() []ir.LocID { return d.redo }

// mayOwn reports whether the object a first accesses may be kept private
// to the accessing thread: a heap object or stack slot it allocated
// itself, from a site not known to be shared.
func (d *Detector) mayOwn(a *vm.Access) bool {
	o := a.Obj
	return (o.Kind == vm.ObjHeap || o.Kind == vm.ObjStack) && int(o.Thread) == a.Thread &&
		a.Kind != vm.Free && !d.sharedSites[o.Site]
}

// ownAccess settles the access a (by a thread of clock c) when its object
// is private to the accessing thread, and reports whether it did. When it
// did not, it returns the object's shadow for the caller to go on with:
// shared from birth, or published now by this access of another thread.
func (d *Detector) ownAccess(a *vm.Access, c VC) (*objShadow, bool) {
	me := int32(a.Thread) + 1
	k := &d.owned[a.Obj.ID%uint32(len(d.owned))]
	if k.obj == a.Obj && k.serial == a.Obj.Serial && a.Kind != vm.Free {
		if sh := k.sh; sh.owner == me && sh.gen == d.gen {
			sh.last = c.Get(a.Thread)
			d.hush(a)
			return nil, true
		}
	}
	var owner int32
	if d.mayOwn(a) {
		owner = me
	}
	sh := d.shadowOf(a.Obj, owner)
	switch sh.owner {
	case 0:
		return sh, false
	case me:
	default:
		d.publish(sh)
		if d.m != nil {
			d.m.Unquiet(a.Obj)
		}
		return sh, false
	}
	if a.Kind == vm.Free {
		d.drop(a.Obj)
		d.rememberFree(a, mkEpoch(a.Thread, c.Get(a.Thread)).withKind(a.Kind), true)
		*k = owned{}
		return nil, true
	}
	sh.last = c.Get(a.Thread)
	*k = owned{obj: a.Obj, serial: a.Obj.Serial, sh: sh}
	d.hush(a)
	return nil, true
}

// hush tells the machine that the owner's further accesses to a's object
// in its current epoch change nothing here (vm.Machine.Quiet): sh.last
// is its clock already.
func (d *Detector) hush(a *vm.Access) {
	if d.m != nil {
		d.m.Quiet(a.Obj, a.Thread)
	}
}

// publish ends the private phase of sh: it is shadowed cell by cell from
// now on, and each thread but the owner is checked against the phase.
func (d *Detector) publish(sh *objShadow) {
	sh.from, sh.owner = sh.owner, 0
	n := (sh.size + chunkSize - 1) >> chunkBits
	sh.chunks = make([]*chunk, n)
	d.grow(sh, 8*n)
}

// seenBy reports whether thread t's accesses need no check against the
// private phase of sh: it had none, t was its owner, or t was vouched for
// (threads from 64 on have no bit: each of their accesses is checked, the
// long way).
func (sh *objShadow) seenBy(t int) bool {
	return sh.from == 0 || int(sh.from) == t+1 || (t < 64 && sh.vouched&(1<<t) != 0)
}

// vouch checks the access a, by a thread of clock c, against the private
// phase of its object (shadow sh): when every access of the phase
// precedes it through the creation or joining of threads, it and the
// thread's later accesses can race with none of them; otherwise the
// object's allocation site is to be shadowed from birth (Redo).
//
// The execution then goes on as far again as it has come (AbandonAt), to
// learn the other sites its next run must shadow: a program that hands
// objects from several sites to its workers under locks would otherwise
// run again for each site, each time to a later point. Ending at twice
// the first failure's count keeps the cost of an execution that has only
// one such site within twice what ending at once costs.
func (d *Detector) vouch(sh *objShadow, a *vm.Access, c VC) {
	owner := int(sh.from) - 1
	ok := mkEpoch(owner, sh.last).before(c) && d.orderedByThreads(owner, sh.last, a.Thread)
	if a.Thread < 64 {
		sh.vouched |= 1 << a.Thread // once is enough: a failed check is redone from birth
	}
	if !ok {
		d.redoSite(a.Obj.Site)
	}
}

// redoSite names site as one whose objects the next run must shadow from
// birth (Redo), once.
func (d *Detector) redoSite(site ir.LocID) {
	for _, s := range d.redo {
		if s == site {
			return
		}
	}
	if d.redo = append(d.redo, site); len(d.redo) == 1 && d.m != nil {
		d.m.AbandonAt(2 * d.m.Instructions())
	}
}

// sharedSites is the set of allocation sites whose objects a detection's
// executions shadow from birth. It only grows, by a new map each time (a
// detector holds the one it started with), and executions running in
// parallel add to it.
type sharedSites struct {
	mu    sync.Mutex
	sites map[ir.LocID]bool
}

// get returns the set as it is now; the caller must not change it.
func (s *sharedSites) get() map[ir.LocID]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sites
}

// add adds sites to the set.
func (s *sharedSites) add(sites []ir.LocID) {
	if len(sites) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := maps.Clone(s.sites)
	if m == nil {
		m = map[ir.LocID]bool{}
	}
	for _, l := range sites {
		m[l] = true
	}
	s.sites = m
}

// stale reports whether det, made for an execution from a snapshot, keeps
// objects private that the set now says to shadow from birth: a snapshot
// of it would make every execution from it run twice.
func (s *sharedSites) stale(det *Detector) bool {
	return det.private && len(det.sharedSites) != len(s.get())
}

// sitesAt returns the allocation sites of prog at the locations locs
// (file:line:col, Prior.Shared).
func sitesAt(prog *ir.Program, locs []string) []ir.LocID {
	var out []ir.LocID
	for id, at := range prog.LocSet(locs) {
		if at && id != 0 {
			out = append(out, ir.LocID(id))
		}
	}
	return out
}

// siteNames returns the locations of the allocation sites sites, sorted
// (Result.Shared).
func siteNames(prog *ir.Program, sites map[ir.LocID]bool) []string {
	var out []string
	for id := range sites {
		if l := prog.LocString(id); l != "" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
