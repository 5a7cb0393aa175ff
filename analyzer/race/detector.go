package race

import (
	"augur/analyzer/ir"
	"augur/analyzer/vm"
)

// hot is the shadow of one byte that every access reads: the epochs (with
// kinds) of the last write and the last read. Keeping it small keeps the
// common same-epoch case to one 16-byte load.
type hot struct {
	w, r epoch
}

// concurrentReads marks a byte whose reads since the last write are
// concurrent; they are kept in objShadow.shared.
const concurrentReads = ^epoch(0)

// sites is the cold half of a byte's shadow: where its last write and read
// happened, needed only to report a race.
type sites struct {
	w, r           vm.Site
	wCount, rCount uint64 // the accessing thread's instruction count
	wLS, rLS       uint32 // the locks the accessing thread held (interned; see candidates.go)
}

type sharedRead struct {
	e     epoch // with kind
	site  vm.Site
	count uint64
}

// objShadow is the shadow of one object, created on its first access. It
// keeps one cell per granule of 1<<shift bytes: as long as every access
// covers whole granules, the bytes of a granule share one history, so a
// cell holds exactly what a shadow per byte would hold for each of them.
// The first access picks the granule (8 bytes for a pointer, 4 for an
// int); an access that splits a granule splits every cell into smaller
// ones first (see refine), so the detector finds the same races as one
// with a shadow per byte, at a fraction of the memory.
type objShadow struct {
	// gen is the generation of the detector that may change it in place;
	// a fork shares shadows and copies one before changing it (fork.go).
	gen    uint64
	serial uint64
	size   uint64
	shift  uint8
	hot    []hot
	sites  []sites
	shared map[uint64][]sharedRead // by cell, for cells marked concurrentReads
}

// granuleShift returns the largest granule (as a shift, at most 3: 8
// bytes) that an access of size bytes at off covers whole, in an object
// of objSize bytes: the access starts on a granule and ends on one or at
// the object's end.
func granuleShift(off, size, objSize uint64, max uint8) uint8 {
	sh := max
	for sh > 0 {
		g := uint64(1) << sh
		if off%g == 0 && ((off+size)%g == 0 || off+size >= objSize) {
			break
		}
		sh--
	}
	return sh
}

// bytes is the memory the shadow holds.
func (sh *objShadow) bytes() uint64 { return shadowBytes + uint64(len(sh.hot))*cellBytes }

func newObjShadow(serial, size uint64, shift uint8) *objShadow {
	n := (size + 1<<shift - 1) >> shift
	return &objShadow{serial: serial, size: size, shift: shift, hot: make([]hot, n), sites: make([]sites, n)}
}

// refine splits every cell into cells of 1<<shift bytes, each a copy of
// the one it came from.
func (sh *objShadow) refine(shift uint8) {
	f := uint64(1) << (sh.shift - shift)
	n := (sh.size + 1<<shift - 1) >> shift
	hots, sts := make([]hot, n), make([]sites, n)
	for i := uint64(0); i < n; i++ {
		hots[i], sts[i] = sh.hot[i/f], sh.sites[i/f]
	}
	var shared map[uint64][]sharedRead
	if len(sh.shared) > 0 {
		shared = map[uint64][]sharedRead{}
		for c, rs := range sh.shared {
			for i := c * f; i < (c+1)*f && i < n; i++ {
				shared[i] = append([]sharedRead(nil), rs...)
			}
		}
	}
	sh.hot, sh.sites, sh.shared, sh.shift = hots, sts, shared, shift
}

// Detector is a vm.Monitor that finds data races in one execution.
type Detector struct {
	clocks []VC // per thread; nil once joined
	syncs  map[vm.SyncKey]VC
	// syncsIn lists the sync keys in each object, to drop them with it.
	syncsIn map[uint32][]vm.SyncKey
	shadows []*shadowPage // by object id, paged like the VM's object table
	found   map[pairKey]*Race
	order   []*Race
	locks   *lockGraph
	m       *vm.Machine
	// mutexBlind ignores mutex synchronization (Options.MutexBlind).
	mutexBlind bool
	// reportedNow holds the earlier sites already reported during the
	// current access, so a race counts one instance per access, not per byte.
	reportedNow []vm.Site
	// shadowBytes is the memory the live shadows hold (for the budget).
	shadowBytes uint64
	// gen is this detector's generation: shadows and pages of another
	// generation are shared with a fork and copied before a change.
	gen uint64

	// Potential races (candidates.go): each thread's held locks, interned;
	// how each thread was created; the candidates seen.
	locksets []uint32
	dirty    []bool
	lsIndex  map[string]uint32
	lsets    [][]vm.SyncKey
	births   map[int]born
	cands    []*Candidate
	candSeen map[string]bool

	// frees remembers the latest frees (afterfree.go).
	frees     map[uint32]freeRecord
	freeOrder []uint32
}

// Costs of shadow memory: per cell (hot and cold halves) and per object.
const (
	cellBytes   = 56
	shadowBytes = 96
)

// Footprint implements vm.Sizer: the memory the detector holds, its
// shadows and clocks.
func (d *Detector) Footprint() uint64 {
	n := d.shadowBytes + uint64(len(d.shadows))*8
	for _, c := range d.clocks {
		n += uint64(cap(c)) * 8
	}
	n += uint64(len(d.syncs)) * (48 + 8*uint64(len(d.clocks)))
	return n + uint64(len(d.order))*512
}

// New returns a detector for one execution. Bind must be called with the
// machine before it runs.
func New() *Detector {
	return &Detector{clocks: []VC{{1}}, syncs: map[vm.SyncKey]VC{}, found: map[pairKey]*Race{}, locks: newLockGraph(), gen: newGen()}
}

// Bind gives the detector the machine whose execution it monitors, for
// expanding call stacks and naming objects in reports.
func (d *Detector) Bind(m *vm.Machine) { d.m = m }

func (d *Detector) clock(t int) *VC {
	for len(d.clocks) <= t {
		d.clocks = append(d.clocks, nil)
	}
	return &d.clocks[t]
}

// Sync implements vm.Monitor.
func (d *Detector) Sync(ev vm.SyncEvent) {
	if d.mutexBlind && ev.Key.Kind == vm.MutexKey && ev.Op != vm.Fork && ev.Op != vm.JoinThread {
		return
	}
	c := d.clock(ev.Thread)
	switch ev.Op {
	case vm.Acquire:
		if l, ok := d.syncs[ev.Key]; ok {
			c.Join(l)
		}
	case vm.Release:
		// The key's clock is the detector's own (acquires copy out of it),
		// so it is overwritten in place rather than reallocated.
		l, ok := d.syncs[ev.Key]
		if !ok {
			d.indexSync(ev.Key)
		}
		d.syncs[ev.Key] = append(l[:0], *c...)
		c.Set(ev.Thread, c.Get(ev.Thread)+1)
	case vm.ReleaseMerge:
		l, ok := d.syncs[ev.Key]
		if !ok {
			d.indexSync(ev.Key)
		}
		l.Join(*c)
		d.syncs[ev.Key] = l
		c.Set(ev.Thread, c.Get(ev.Thread)+1)
	case vm.Fork:
		if d.births == nil {
			d.births = map[int]born{}
		}
		d.births[ev.Other] = born{parent: ev.Thread, clock: c.Get(ev.Thread)}
		child := d.clock(ev.Other)
		*child = d.clocks[ev.Thread].Clone()
		child.Set(ev.Other, 1)
		c = d.clock(ev.Thread) // d.clocks may have grown
		c.Set(ev.Thread, c.Get(ev.Thread)+1)
	case vm.JoinThread:
		c.Join(d.clocks[ev.Other])
		// Nothing learns from a joined thread again: its clock can go
		// (with thousands of threads, clocks are most of the detector).
		if ev.Other < len(d.clocks) {
			d.clocks[ev.Other] = nil
		}
	case vm.LockAcquired:
		d.locks.acquired(ev.Thread, ev.Key, ev.Site)
		d.lockChanged(ev.Thread)
	case vm.LockReleased:
		d.locks.released(ev.Thread, ev.Key)
		d.lockChanged(ev.Thread)
	}
}

// shadowPage holds the shadows of 1<<shadowPageBits consecutive object
// ids; n counts those in use, and a page with none is dropped, so shadow
// follows the objects the program holds, not every id it ever allocated.
type shadowPage struct {
	s   [1 << shadowPageBits]*objShadow
	n   int
	gen uint64 // as objShadow.gen
}

const shadowPageBits = 10

// shadow returns the shadow of the accessed object, made on first access
// (or when the id now names a newer object), with cells no larger than the
// access at off of size bytes covers whole.
func (d *Detector) shadow(o *vm.Object, off, size uint64) *objShadow {
	pg := int(o.ID >> shadowPageBits)
	for pg >= len(d.shadows) {
		d.shadows = append(d.shadows, nil)
	}
	p := d.page(pg)
	slot := &p.s[o.ID&(1<<shadowPageBits-1)]
	s := *slot
	if s != nil && s.gen != d.gen && s.serial == o.Serial {
		s = s.clone(d.gen) // shared with a fork: this access may change it
		*slot = s
	}
	if s == nil || s.serial != o.Serial {
		if s == nil {
			p.n++
		}
		if s != nil {
			d.shadowBytes -= s.bytes()
		}
		s = newObjShadow(o.Serial, o.Size, granuleShift(off, size, o.Size, 3))
		s.gen = d.gen
		d.shadowBytes += s.bytes()
		*slot = s
	} else if s.shift > 0 && (off|size)&(1<<s.shift-1) != 0 {
		if g := granuleShift(off, size, o.Size, s.shift); g < s.shift {
			d.shadowBytes -= s.bytes()
			s.refine(g)
			d.shadowBytes += s.bytes()
		}
	}
	return s
}

// indexSync notes a sync key that lives in a heap or global object, so
// the key's clock goes when the object is freed.
func (d *Detector) indexSync(k vm.SyncKey) {
	if id := uint32(k.Addr >> ir.AddrShift); id != 0 {
		if d.syncsIn == nil {
			d.syncsIn = map[uint32][]vm.SyncKey{}
		}
		d.syncsIn[id] = append(d.syncsIn[id], k)
	}
}

// drop forgets the shadow of a freed object, and the clocks of the
// synchronization objects (mutexes, atomics) it held: any later access to
// it is a use after free the VM stops at, so nothing can race with it or
// synchronize through it any more.
func (d *Detector) drop(o *vm.Object) {
	if keys, ok := d.syncsIn[o.ID]; ok {
		for _, k := range keys {
			delete(d.syncs, k)
		}
		delete(d.syncsIn, o.ID)
	}
	pg := int(o.ID >> shadowPageBits)
	if pg >= len(d.shadows) || d.shadows[pg] == nil {
		return
	}
	p := d.page(pg)
	if slot := &p.s[o.ID&(1<<shadowPageBits-1)]; *slot != nil {
		d.shadowBytes -= (*slot).bytes()
		*slot = nil
		p.n--
		if p.n == 0 {
			d.shadows[pg] = nil
		}
	}
}

// Access implements vm.Monitor: the FastTrack read and write rules, byte by
// byte, each starting with FastTrack's same-epoch check, which settles the
// common case (a thread touching memory it touched since its last
// synchronization) in one comparison per byte.
func (d *Detector) Access(a *vm.Access) {
	if a.Obj.Unwatched {
		return
	}
	c := *d.clock(a.Thread)
	if a.Obj.Freed {
		d.afterFree(a, c)
		return
	}
	e := mkEpoch(a.Thread, c.Get(a.Thread)).withKind(a.Kind)
	sh := d.shadow(a.Obj, a.Off, a.Size)
	first := a.Off >> sh.shift
	end := min((a.Off+a.Size+1<<sh.shift-1)>>sh.shift, uint64(len(sh.hot)))
	d.reportedNow = d.reportedNow[:0]
	ls := d.locksetOf(a.Thread)
	if a.Kind.IsWrite() {
		ownRead := (e &^ (0xff << kindShift)).withKind(vm.Read) // a plain read by this thread, this epoch
		for i := first; i < end; i++ {
			x := &sh.hot[i]
			if x.w == e && (x.r == 0 || x.r == ownRead) {
				continue // this thread wrote (and maybe read) it in this epoch
			}
			d.write(sh, i, a, e, c, ls)
		}
		if a.Kind == vm.Free {
			d.drop(a.Obj)
			d.rememberFree(a, e)
		}
		return
	}
	for i := first; i < end; i++ {
		if sh.hot[i].r == e {
			continue
		}
		d.read(sh, i, a, e, c, ls)
	}
}

// conflict reports whether two accesses of these kinds race when
// concurrent: at least one writes, and not both are atomic.
func conflict(prev, cur vm.AccessKind) bool {
	return (prev.IsWrite() || cur.IsWrite()) && !(prev.IsAtomic() && cur.IsAtomic())
}

// read applies FastTrack's read rule to cell i of sh.
func (d *Detector) read(sh *objShadow, i uint64, a *vm.Access, e epoch, c VC, ls uint32) {
	x, st := &sh.hot[i], &sh.sites[i]
	off := max(i<<sh.shift, a.Off) // the first byte of the access in the cell
	d.check(a, off, x.w, st.w, st.wCount, st.wLS, c, ls)
	switch {
	case x.r == concurrentReads:
		reads := sh.shared[i]
		for k := range reads {
			if reads[k].e.tid() == a.Thread {
				reads[k] = sharedRead{e, a.Site, a.Count}
				return
			}
		}
		sh.shared[i] = append(reads, sharedRead{e, a.Site, a.Count})
	case x.r == 0 || x.r.before(c) || x.r.tid() == a.Thread:
		x.r, st.r, st.rCount, st.rLS = e, a.Site, a.Count, ls
	default: // concurrent with the previous read: keep both
		if sh.shared == nil {
			sh.shared = map[uint64][]sharedRead{}
		}
		sh.shared[i] = []sharedRead{{x.r, st.r, st.rCount}, {e, a.Site, a.Count}}
		x.r = concurrentReads
	}
}

// write applies FastTrack's write rule to cell i of sh.
func (d *Detector) write(sh *objShadow, i uint64, a *vm.Access, e epoch, c VC, ls uint32) {
	x, st := &sh.hot[i], &sh.sites[i]
	off := max(i<<sh.shift, a.Off) // the first byte of the access in the cell
	d.check(a, off, x.w, st.w, st.wCount, st.wLS, c, ls)
	if x.r == concurrentReads {
		for _, r := range sh.shared[i] {
			if !r.e.before(c) && conflict(r.e.kind(), a.Kind) {
				d.record(a, off, r.e.tid(), r.site, r.e.kind(), r.count)
			}
		}
		delete(sh.shared, i)
	} else {
		d.check(a, off, x.r, st.r, st.rCount, st.rLS, c, ls)
	}
	x.w, st.w, st.wCount, st.wLS = e, a.Site, a.Count, ls
	x.r, st.r = 0, vm.Site{}
}

// check compares the current access a (clock c, lockset ls) with an
// earlier one, prev at site (made when its thread had run count
// instructions, under lockset prevLS): concurrent and conflicting, it is a
// race; ordered, by another thread and conflicting, it may be a potential
// race (candidate).
func (d *Detector) check(a *vm.Access, off uint64, prev epoch, site vm.Site, count uint64, prevLS uint32, c VC, ls uint32) {
	if prev == 0 || prev.tid() == a.Thread || !conflict(prev.kind(), a.Kind) {
		return
	}
	if !prev.before(c) {
		d.record(a, off, prev.tid(), site, prev.kind(), count)
		return
	}
	d.candidate(a, off, prev, site, ls, prevLS)
}
