package race

import (
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
}

type sharedRead struct {
	e     epoch // with kind
	site  vm.Site
	count uint64
}

// objShadow is the shadow of one object, created on its first access.
type objShadow struct {
	serial uint64
	hot    []hot
	sites  []sites
	shared map[uint64][]sharedRead // by offset, for bytes marked concurrentReads
}

// Detector is a vm.Monitor that finds data races in one execution.
type Detector struct {
	clocks  []VC // per thread
	syncs   map[vm.SyncKey]VC
	shadows []*objShadow // by object id
	found   map[pairKey]*Race
	order   []*Race
	locks   *lockGraph
	m       *vm.Machine
	// mutexBlind ignores mutex synchronization (Options.MutexBlind).
	mutexBlind bool
	// reportedNow holds the earlier sites already reported during the
	// current access, so a race counts one instance per access, not per byte.
	reportedNow []vm.Site
}

// New returns a detector for one execution. Bind must be called with the
// machine before it runs.
func New() *Detector {
	return &Detector{clocks: []VC{{1}}, syncs: map[vm.SyncKey]VC{}, found: map[pairKey]*Race{}, locks: newLockGraph()}
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
			c.join(l)
		}
	case vm.Release:
		d.syncs[ev.Key] = c.clone()
		c.set(ev.Thread, c.get(ev.Thread)+1)
	case vm.ReleaseMerge:
		l := d.syncs[ev.Key]
		l.join(*c)
		d.syncs[ev.Key] = l
		c.set(ev.Thread, c.get(ev.Thread)+1)
	case vm.Fork:
		child := d.clock(ev.Other)
		*child = d.clocks[ev.Thread].clone()
		child.set(ev.Other, 1)
		c = d.clock(ev.Thread) // d.clocks may have grown
		c.set(ev.Thread, c.get(ev.Thread)+1)
	case vm.JoinThread:
		c.join(d.clocks[ev.Other])
	case vm.LockAcquired:
		d.locks.acquired(ev.Thread, ev.Key, ev.Site)
	case vm.LockReleased:
		d.locks.released(ev.Thread, ev.Key)
	}
}

// shadow returns the shadow of the accessed object.
func (d *Detector) shadow(o *vm.Object) *objShadow {
	for int(o.ID) >= len(d.shadows) {
		d.shadows = append(d.shadows, nil)
	}
	s := d.shadows[o.ID]
	if s == nil || s.serial != o.Serial {
		s = &objShadow{serial: o.Serial, hot: make([]hot, o.Size), sites: make([]sites, o.Size)}
		d.shadows[o.ID] = s
	}
	return s
}

// Access implements vm.Monitor: the FastTrack read and write rules, byte by
// byte, each starting with FastTrack's same-epoch check, which settles the
// common case (a thread touching memory it touched since its last
// synchronization) in one comparison per byte.
func (d *Detector) Access(a *vm.Access) {
	c := *d.clock(a.Thread)
	e := mkEpoch(a.Thread, c.get(a.Thread)).withKind(a.Kind)
	sh := d.shadow(a.Obj)
	end := min(a.Off+a.Size, uint64(len(sh.hot)))
	d.reportedNow = d.reportedNow[:0]
	if a.Kind.IsWrite() {
		ownRead := (e &^ (0xff << kindShift)).withKind(vm.Read) // a plain read by this thread, this epoch
		for i := a.Off; i < end; i++ {
			x := &sh.hot[i]
			if x.w == e && (x.r == 0 || x.r == ownRead) {
				continue // this thread wrote (and maybe read) it in this epoch
			}
			d.write(sh, i, a, e, c)
		}
		return
	}
	for i := a.Off; i < end; i++ {
		if sh.hot[i].r == e {
			continue
		}
		d.read(sh, i, a, e, c)
	}
}

// conflict reports whether two accesses of these kinds race when
// concurrent: at least one writes, and not both are atomic.
func conflict(prev, cur vm.AccessKind) bool {
	return (prev.IsWrite() || cur.IsWrite()) && !(prev.IsAtomic() && cur.IsAtomic())
}

func (d *Detector) read(sh *objShadow, off uint64, a *vm.Access, e epoch, c VC) {
	x, st := &sh.hot[off], &sh.sites[off]
	if x.w != 0 && !x.w.before(c) && conflict(x.w.kind(), a.Kind) {
		d.report(a, off, x.w.tid(), st.w, x.w.kind(), st.wCount)
	}
	switch {
	case x.r == concurrentReads:
		reads := sh.shared[off]
		for i := range reads {
			if reads[i].e.tid() == a.Thread {
				reads[i] = sharedRead{e, a.Site, a.Count}
				return
			}
		}
		sh.shared[off] = append(reads, sharedRead{e, a.Site, a.Count})
	case x.r == 0 || x.r.before(c) || x.r.tid() == a.Thread:
		x.r, st.r, st.rCount = e, a.Site, a.Count
	default: // concurrent with the previous read: keep both
		if sh.shared == nil {
			sh.shared = map[uint64][]sharedRead{}
		}
		sh.shared[off] = []sharedRead{{x.r, st.r, st.rCount}, {e, a.Site, a.Count}}
		x.r = concurrentReads
	}
}

func (d *Detector) write(sh *objShadow, off uint64, a *vm.Access, e epoch, c VC) {
	x, st := &sh.hot[off], &sh.sites[off]
	if x.w != 0 && !x.w.before(c) && conflict(x.w.kind(), a.Kind) {
		d.report(a, off, x.w.tid(), st.w, x.w.kind(), st.wCount)
	}
	if x.r == concurrentReads {
		for _, r := range sh.shared[off] {
			if !r.e.before(c) && conflict(r.e.kind(), a.Kind) {
				d.report(a, off, r.e.tid(), r.site, r.e.kind(), r.count)
			}
		}
		delete(sh.shared, off)
	} else if x.r != 0 && !x.r.before(c) && conflict(x.r.kind(), a.Kind) {
		d.report(a, off, x.r.tid(), st.r, x.r.kind(), st.rCount)
	}
	x.w, st.w, st.wCount = e, a.Site, a.Count
	x.r, st.r = 0, vm.Site{}
}
