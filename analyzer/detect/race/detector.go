package race

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// hot is the shadow of one byte that every access reads: the epochs (with
// kinds) of the last write and the last read, and the site of the last
// read, which a read in the same epoch compares with its own (readAgain).
// Keeping them together keeps the common same-epoch case to one load.
type hot struct {
	w, r epoch
	rs   vm.Site
}

// listed marks the read epoch of a cell whose reads since the last write
// are concurrent, or one thread's at several sites: they are kept in
// chunk.reads, and the cell's hot.r and hot.rs still say which was the
// last, so that reading it again where it was last read (a loop over a
// buffer that several sites read) is settled by one comparison, as for a
// cell of one read.
const listed = epoch(1) << 63

// sites is the cold half of a byte's shadow: where its last write
// happened, and what only a report of a race needs.
type sites struct {
	w              vm.Site
	wCount, rCount uint64 // the accessing thread's instruction count
	wLS, rLS       uint32 // the locks the accessing thread held (interned; see candidates.go)
}

type sharedRead struct {
	e     epoch // with kind
	site  vm.Site
	count uint64
	ls    uint32 // the locks the reading thread held (interned)
}

// Detector is a vm.Monitor that finds data races in one execution.
type Detector struct {
	clocks []VC // per thread; nil once joined
	live   int  // threads created and not joined, the first included
	syncs  map[vm.SyncKey]*VC
	// lastKey and last are the sync key used last and its clock: a
	// program that takes one mutex for every few instructions asks for
	// the same key at each acquire and release (syncOf).
	lastKey vm.SyncKey
	last    *VC
	// syncsIn lists the sync keys in each object, to drop them with it.
	syncsIn map[uint32][]vm.SyncKey
	shadows []*shadowPage // by object id, paged like the VM's object table
	found   map[pairKey]*Race
	order   []*Race
	locks   *lockGraph
	m       *vm.Machine
	// mutexBlind ignores mutex synchronization (Options.MutexBlind).
	mutexBlind bool
	// met is Met's answer: how the threads first met, while two lived,
	// other than where they were created and joined.
	met string
	// lastBorn is the thread created last (0: none yet).
	lastBorn int
	// reportedNow holds the earlier sites already reported during the
	// current access, so a race counts one instance per access, not per byte.
	reportedNow []vm.Site
	// leaves are the shadows the last accesses went to, by object id and
	// line: compression code reads several buffers, and several places
	// in one, in turn. An execution whose accesses miss them often
	// caches many more (wide, leafOf).
	leaves [16]leafCache
	wide   *[wideLeaves]leafCache
	missed int
	// shadowBytes is the memory the live shadows hold (for the budget).
	shadowBytes uint64
	// private keeps objects private to their thread (private.go) but
	// those allocated at sharedSites, and has the machine skip the
	// owner's accesses to them within an epoch; redo names the sites
	// whose private phase it could not vouch for; owned caches private
	// objects.
	private bool
	// unordered reports whether the last access (Access) could be
	// unordered with another thread's: false when it came while the
	// program had one thread or was to an object private to its thread.
	// What the enumeration's reduction records of a step (footprints)
	// needs no such access.
	unordered   bool
	sharedSites map[ir.LocID]bool
	redo        []ir.LocID
	owned       [16]owned
	// gen is this detector's generation: shadows and pages of another
	// generation are shared with a fork and copied before a change.
	gen uint64

	// Potential races (candidates.go): each thread's held locks, interned;
	// how each thread was created; the candidates seen.
	locksets []uint32
	dirty    []bool
	lsIndex  map[string]uint32
	lsets    [][]vm.SyncKey
	// oneKey and oneID are the last set of one lock interned (oneID 0:
	// none): a program that takes one mutex around each update interns
	// that set after every acquisition.
	oneKey vm.SyncKey
	oneID  uint32
	// lsSites are where each thread took the locks of each set it held
	// (noteLockSites), for the endpoints of races; lsNoted, by thread,
	// the set whose sites it noted last, so that a thread that takes one
	// mutex around each update does not look the set up in lsSites again
	// at every acquisition (5% of a lock-heavy program's detection).
	lsSites  map[lsSite][]vm.Site
	lsNoted  []uint32
	births   map[int]born
	cands    []*Candidate
	candSeen map[string]bool

	// frees remembers the latest frees (afterfree.go).
	frees     map[uint32]freeRecord
	freeOrder []uint32
}

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
	return &Detector{clocks: []VC{{1}}, live: 1, syncs: map[vm.SyncKey]*VC{}, found: map[pairKey]*Race{}, locks: newLockGraph(), gen: newGen()}
}

// Met says how the threads of the execution met, while two of them
// lived, other than where one created another and one joined another:
// the first synchronization of any other kind, atomic access or access to
// the runtime's own streams, or two creations of threads that no order of
// creations and joins put one before the other (the ids the new threads
// get then follow the schedule); "" when they met nowhere else. Races
// are Races'.
func (d *Detector) Met() string { return d.met }

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
	if d.live > 1 && d.met == "" && ev.Op != vm.Fork && ev.Op != vm.JoinThread {
		d.met = "synchronization"
	}
	if d.mutexBlind && ev.Key.Kind == vm.MutexKey && ev.Op != vm.Fork && ev.Op != vm.JoinThread {
		return
	}
	c := d.clock(ev.Thread)
	switch ev.Op {
	case vm.Acquire:
		if l := d.syncOf(ev.Key, false); l != nil {
			c.Join(*l)
		}
	case vm.Release:
		// The key's clock is the detector's own (acquires copy out of it),
		// so it is overwritten in place rather than reallocated.
		l := d.syncOf(ev.Key, true)
		*l = append((*l)[:0], *c...)
		c.Set(ev.Thread, c.Get(ev.Thread)+1)
	case vm.ReleaseMerge:
		d.syncOf(ev.Key, true).Join(*c)
		c.Set(ev.Thread, c.Get(ev.Thread)+1)
	case vm.Fork:
		if d.births == nil {
			d.births = map[int]born{}
		}
		if b, ok := d.births[d.lastBorn]; ok && c.Get(b.parent) < b.clock && d.met == "" {
			// Two creations in either order: the threads' ids, and what
			// a program does by them, follow the schedule.
			d.met = "thread creations in either order"
		}
		d.lastBorn = ev.Other
		d.births[ev.Other] = born{parent: ev.Thread, clock: c.Get(ev.Thread)}
		d.live++
		child := d.clock(ev.Other)
		*child = d.clocks[ev.Thread].Clone()
		child.Set(ev.Other, 1)
		c = d.clock(ev.Thread) // d.clocks may have grown
		c.Set(ev.Thread, c.Get(ev.Thread)+1)
	case vm.JoinThread:
		c.Join(d.clocks[ev.Other])
		// Nothing learns from a joined thread again: its clock can go
		// (with thousands of threads, clocks are most of the detector).
		if ev.Other < len(d.clocks) && d.clocks[ev.Other] != nil {
			d.clocks[ev.Other] = nil
			d.live--
		}
	case vm.LockAcquired:
		d.locks.acquired(ev.Thread, ev.Key, ev.Site, ev.Tried)
		d.lockChanged(ev.Thread)
	case vm.LockReleased:
		d.locks.released(ev.Thread, ev.Key)
		d.lockChanged(ev.Thread)
	}
}

// syncOf returns the clock of sync key k, making an empty one when make
// is set (nil otherwise when k has none).
func (d *Detector) syncOf(k vm.SyncKey, make bool) *VC {
	if d.last != nil && d.lastKey == k {
		return d.last
	}
	l := d.syncs[k]
	if l == nil {
		if !make {
			return nil
		}
		l = new(VC)
		d.syncs[k] = l
		d.indexSync(k)
	}
	d.lastKey, d.last = k, l
	return l
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
		d.last = nil
		delete(d.syncsIn, o.ID)
	}
	pg := int(o.ID >> shadowPageBits)
	if pg >= len(d.shadows) || d.shadows[pg] == nil {
		return
	}
	p := d.page(pg)
	if slot := &p.s[o.ID&(1<<shadowPageBits-1)]; *slot != nil {
		d.shadowBytes -= (*slot).bytes
		*slot = nil
		p.n--
		if p.n == 0 {
			d.shadows[pg] = nil
		}
	}
}

// Access implements vm.Monitor: the FastTrack read and write rules, cell
// by cell, each starting with FastTrack's same-epoch check, which settles
// the common case (a thread touching memory it touched since its last
// synchronization) in one comparison per cell.
//
// Memory the program can only read (constant globals, string literals)
// is not tracked: a race needs a write, and a write there fails before it
// is made. Tables such programs read from every thread (zlib's code
// tables, CRC tables) made cells of concurrent reads, the detector's
// slowest case, at every access.
func (d *Detector) Access(a *vm.Access) {
	d.unordered = true
	if a.Obj.Unwatched || a.Obj.ReadOnly {
		if a.Obj.Unwatched && d.live > 1 && d.met == "" {
			d.met = "the runtime's streams"
		}
		return
	}
	if a.Kind >= vm.AtomicRead && a.Kind <= vm.AtomicRMW && d.live > 1 && d.met == "" {
		d.met = "an atomic access"
	}
	if d.private && d.live == 1 {
		d.unordered = false
		d.alone(a)
		return
	}
	c := *d.clock(a.Thread)
	if a.Obj.Freed {
		d.afterFree(a, c)
		return
	}
	e := mkEpoch(a.Thread, c.Get(a.Thread)).withKind(a.Kind)
	d.reportedNow = d.reportedNow[:0]
	leaf := d.leafOf(a)
	if ch, base := leaf.of(a, d.gen); ch != nil && leaf.sh.seenBy(a.Thread) {
		if !reread(ch, base, a, e) {
			d.accessLeaf(leaf.sh, ch, base, a.Off, a.Off+a.Size, a, e, c, d.locksetOf(a.Thread))
		}
		return
	}
	d.missLeaf()
	var sh *objShadow
	if d.private {
		var done bool
		if sh, done = d.ownAccess(a, c); done {
			d.unordered = false
			return
		}
	}
	if sh == nil {
		sh = d.shadow(a.Obj)
	}
	if !sh.seenBy(a.Thread) {
		d.vouch(sh, a, c)
	}
	ls := d.locksetOf(a.Thread)
	end := min(a.Off+a.Size, sh.size)
	for base := a.Off &^ (chunkSize - 1); base < end; base += chunkSize {
		if a.Kind == vm.Free && sh.chunks[base>>chunkBits] == nil {
			continue // never accessed: nothing to race with, and the shadow goes now
		}
		lo, hi := max(a.Off, base), min(end, base+chunkSize)
		ch := d.chunk(sh, base, lo, hi)
		if ch.lines == nil {
			leaf.keep(a, sh, ch, base, min(chunkSize, sh.size-base))
			d.accessLeaf(sh, ch, base, lo, hi, a, e, c, ls)
			continue
		}
		for lb := lo &^ (lineSize - 1); lb < hi; lb += lineSize {
			llo, lhi := max(lo, lb), min(hi, lb+lineSize)
			if a.Kind == vm.Free && ch.lines[(lb-base)>>lineBits] == nil {
				// A line never made is its chunk's cell: the free is
				// checked there, without making every line to drop it.
				d.accessLeaf(sh, ch, base, llo, lhi, a, e, c, ls)
				continue
			}
			ln := d.line(sh, ch, base, lb, llo, lhi)
			leaf.keep(a, sh, ln, lb, min(lineSize, sh.size-lb))
			d.accessLeaf(sh, ln, lb, llo, lhi, a, e, c, ls)
		}
	}
	if a.Kind == vm.Free {
		d.drop(a.Obj)
		d.rememberFree(a, e, false)
	}
}

// The wide leaf cache: wideLeaves slots, made once an execution's
// accesses missed the sixteen leaves wideAfter times.
const (
	wideBits   = 10
	wideLeaves = 1 << wideBits
)

// wideAfter is a variable for the tests, which make the wide cache at
// the first miss to check that it finds what the sixteen leaves find.
var wideAfter = 1 << 14

// leafOf is the leaf slot of access a. The sixteen leaves take an
// object's consecutive lines in consecutive slots, so a scan of a buffer
// keeps its last sixteen; they serve a few buffers read in turn, not a
// walk down the column of a matrix, whose every access is to another
// line (a product of two 240 by 240 matrices missed at every read of the
// second: 12% of its detection's time). The wide cache, once made,
// hashes object and line over 1,024 slots, the lines of a few such
// columns, so that strides of any power of two spread over it; 4,096
// were no faster (a slot further from the processor's caches).
func (d *Detector) leafOf(a *vm.Access) *leafCache {
	line := a.Off >> lineBits
	if d.wide == nil {
		return &d.leaves[(uint64(a.Obj.ID)*7+line)%uint64(len(d.leaves))]
	}
	h := (uint64(a.Obj.ID)<<32 ^ line) * 0x9e3779b97f4a7c15
	return &d.wide[h>>(64-wideBits)]
}

// missLeaf counts an access its leaf did not serve, and makes the wide
// cache once they are many. It costs 48 KiB, so an execution of a few
// thousand accesses (most of an exploration's) never makes it; and a
// leaf keeps the shadow it points to until its slot is reused, so an
// object freed since holds at most 1,024 chunks of shadow a while
// longer.
func (d *Detector) missLeaf() {
	if d.wide != nil {
		return
	}
	if d.missed++; d.missed >= wideAfter {
		d.wide = new([wideLeaves]leafCache)
	}
}

// leafCache is the chunk or line of shadow the last access to an object
// went to (its leaf), so that the next access within the same one (a loop
// over a buffer) goes to it without looking up the object's shadow, its
// chunk and its line: much of the detector's time on a program that reads
// buffers a byte at a time, as compression code does.
type leafCache struct {
	obj       *vm.Object
	serial    uint64
	base, end uint64 // the bytes of the object the leaf shadows
	sh        *objShadow
	ch        *chunk
}

// keep caches ch, which shadows the n bytes at base of a's object (whose
// shadow is sh).
func (l *leafCache) keep(a *vm.Access, sh *objShadow, ch *chunk, base, n uint64) {
	*l = leafCache{obj: a.Obj, serial: a.Obj.Serial, base: base, end: base + n, sh: sh, ch: ch}
}

// of returns the cached leaf and its base when it takes the access a
// as it is, for a detector of generation gen: the same live object, all
// of the access within the leaf and covering whole cells of it, the leaf
// neither split into lines since nor shared with a fork (whose changes go
// to a copy). Anything else (nil) goes the long way, which refines,
// splits and copies as needed, and caches the leaf it ends at.
func (l *leafCache) of(a *vm.Access, gen uint64) (*chunk, uint64) {
	ch := l.ch
	if ch == nil || a.Obj != l.obj || a.Obj.Serial != l.serial || a.Kind == vm.Free ||
		a.Off < l.base || a.Off+a.Size > l.end || ch.gen != gen || ch.lines != nil {
		return nil, 0
	}
	// Whole cells, as granuleShift counts them: an access that ends at the
	// leaf's end covers its last cell (an 8-byte global is one cell of a
	// whole chunk's size).
	mask := uint64(1)<<ch.shift - 1
	if (a.Off-l.base)&mask != 0 || (a.Off+a.Size-l.base)&mask != 0 && a.Off+a.Size != l.end {
		return nil, 0
	}
	return ch, l.base
}

// accessLeaf is accessChunk that counts what the lists of reads of ch,
// one of sh's, grew or shrank by.
func (d *Detector) accessLeaf(sh *objShadow, ch *chunk, base, lo, hi uint64, a *vm.Access, e epoch, c VC, ls uint32) {
	was := ch.lists
	d.accessChunk(ch, base, lo, hi, a, e, c, ls)
	if ch.lists != was {
		d.grow(sh, ch.lists-was) // less, when a write dropped lists: the sum wraps back
	}
}

// reread reports whether a is a plain read within one cell of the leaf
// ch (which shadows the bytes from base) that its thread read last, in
// this epoch (e), at the same site: accessChunk would change nothing. A
// loop that reads shared memory it read before, and no other thread
// wrote since (matrix code's inputs), makes most of its reads so, and
// each is settled here without the call and its lock set.
func reread(ch *chunk, base uint64, a *vm.Access, e epoch) bool {
	if a.Kind != vm.Read {
		return false
	}
	i := (a.Off - base) >> ch.shift
	if i != (a.Off+a.Size-1-base)>>ch.shift || i >= uint64(len(ch.hot)) {
		return false
	}
	x := &ch.hot[i]
	return x.r&^listed == e && x.rs == a.Site
}

// accessChunk applies the access a to the bytes [lo, hi) of the chunk ch
// that starts at offset base.
func (d *Detector) accessChunk(ch *chunk, base, lo, hi uint64, a *vm.Access, e epoch, c VC, ls uint32) {
	first := (lo - base) >> ch.shift
	end := min((hi-base+1<<ch.shift-1)>>ch.shift, uint64(len(ch.hot)))
	if a.Kind.IsWrite() {
		ownRead := (e &^ (0xff << kindShift)).withKind(vm.Read) // a plain read by this thread, this epoch
		for i := first; i < end; i++ {
			x := &ch.hot[i]
			if x.w == e && (x.r == 0 || x.r == ownRead) {
				continue // this thread wrote (and maybe read) it in this epoch
			}
			d.write(ch, base, i, a, e, c, ls)
		}
		return
	}
	for i := first; i < end; i++ {
		switch r := ch.hot[i].r; {
		case r == e:
			if ch.hot[i].rs != a.Site {
				d.readAgain(ch, i, a, e, ls)
			}
			continue
		case r == e|listed && ch.hot[i].rs == a.Site:
			continue // kept already, as a cell of one read keeps a thread's first read in an epoch
		}
		d.read(ch, base, i, a, e, c, ls)
	}
}

// readAgain records a read of cell i by the thread that read it last, in
// the same epoch, at another site: a write that races with the first read
// races with this one too, and the two are two races (a check of a
// pointer and its use), so the cell keeps both (as concurrent reads do).
func (d *Detector) readAgain(ch *chunk, i uint64, a *vm.Access, e epoch, ls uint32) {
	ch.keepAlso(i, sharedRead{e, a.Site, a.Count, ls})
}

// conflict reports whether two accesses of these kinds race when
// concurrent: at least one writes, and not both are atomic.
func conflict(prev, cur vm.AccessKind) bool {
	return (prev.IsWrite() || cur.IsWrite()) && !(prev.IsAtomic() && cur.IsAtomic())
}

// maxReadSites bounds the sites of one thread's reads of one cell in one
// epoch that the cell keeps.
const maxReadSites = 8

// read applies FastTrack's read rule to cell i of the chunk sh, which
// starts at offset base.
func (d *Detector) read(sh *chunk, base, i uint64, a *vm.Access, e epoch, c VC, ls uint32) {
	x, st := &sh.hot[i], &sh.sites[i]
	off := max(base+i<<sh.shift, a.Off) // the first byte of the access in the cell
	d.check(a, off, x.w, st.w, st.wCount, st.wLS, c, ls)
	switch {
	case x.r&listed != 0:
		// A thread's read replaces its earlier ones, but for those of the
		// same epoch at other sites (readAgain), at most maxReadSites; one
		// kept already at this site stays as it is. The thread's reads of
		// this epoch come before its older ones in the list: each
		// replaces the first older one.
		reads := sh.readsOf(i)
		x.r, x.rs = e|listed, a.Site
		same := 0
		for k := range reads {
			switch r := &reads[k]; {
			case r.e == e:
				if r.site == a.Site {
					return
				}
				same++
			case r.e.tid() == a.Thread:
				*r = sharedRead{e, a.Site, a.Count, ls}
				return
			}
		}
		if same >= maxReadSites {
			return
		}
		sh.setReads(i, append(reads, sharedRead{e, a.Site, a.Count, ls}))
	case x.r == 0 || x.r.before(c) || x.r.tid() == a.Thread:
		x.r, x.rs, st.rCount, st.rLS = e, a.Site, a.Count, ls
	default: // concurrent with the previous read: keep both
		sh.keepAlso(i, sharedRead{e, a.Site, a.Count, ls})
	}
}

// write applies FastTrack's write rule to cell i of the chunk sh, which
// starts at offset base.
func (d *Detector) write(sh *chunk, base, i uint64, a *vm.Access, e epoch, c VC, ls uint32) {
	x, st := &sh.hot[i], &sh.sites[i]
	off := max(base+i<<sh.shift, a.Off) // the first byte of the access in the cell
	d.check(a, off, x.w, st.w, st.wCount, st.wLS, c, ls)
	if x.r&listed != 0 {
		for _, r := range sh.readsOf(i) {
			if !r.e.before(c) && conflict(r.e.kind(), a.Kind) {
				d.record(a, off, r.e.tid(), r.site, r.e.kind(), r.count, r.ls, ls)
			}
		}
		sh.dropReads(i)
	} else {
		d.check(a, off, x.r, x.rs, st.rCount, st.rLS, c, ls)
	}
	x.w, st.w, st.wCount, st.wLS = e, a.Site, a.Count, ls
	x.r, x.rs = 0, vm.Site{}
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
		d.record(a, off, prev.tid(), site, prev.kind(), count, prevLS, ls)
		return
	}
	d.candidate(a, off, prev, site, ls, prevLS)
}
