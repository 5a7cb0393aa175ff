package race

import (
	"augur/analyzer/vm"
)

// cell is the shadow of one byte: the last write, the last read (or the
// concurrent reads), with the sites needed to report either side of a race.
type cell struct {
	w, r         epoch
	wSite, rSite vm.Site
	wKind, rKind vm.AccessKind
	shared       []sharedRead // concurrent reads since the last write; nil when r says it all
}

type sharedRead struct {
	e    epoch
	site vm.Site
	kind vm.AccessKind
}

// objShadow is the shadow of one object, created on its first access.
type objShadow struct {
	serial uint64
	cells  []cell
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

// shadow returns the shadow cells of the accessed object.
func (d *Detector) shadow(o *vm.Object) []cell {
	for int(o.ID) >= len(d.shadows) {
		d.shadows = append(d.shadows, nil)
	}
	s := d.shadows[o.ID]
	if s == nil || s.serial != o.Serial {
		s = &objShadow{serial: o.Serial, cells: make([]cell, o.Size)}
		d.shadows[o.ID] = s
	}
	return s.cells
}

// Access implements vm.Monitor: the FastTrack read and write rules, byte by
// byte. A byte whose shadow equals the previous byte's before the access
// takes that byte's result without being checked again (the usual case: a
// field read or written whole).
func (d *Detector) Access(a *vm.Access) {
	c := *d.clock(a.Thread)
	e := mkEpoch(a.Thread, c.get(a.Thread))
	cells := d.shadow(a.Obj)
	end := min(a.Off+a.Size, uint64(len(cells)))
	d.reportedNow = d.reportedNow[:0]
	var prevBefore, prevAfter cell
	reuse := false
	for i := a.Off; i < end; i++ {
		x := &cells[i]
		if reuse && x.shared == nil && sameScalar(x, &prevBefore) {
			*x = prevAfter
			continue
		}
		prevBefore = *x
		if a.Kind.IsWrite() {
			d.write(x, a, e, c, i)
		} else {
			d.read(x, a, e, c, i)
		}
		prevAfter = *x
		reuse = prevBefore.shared == nil && prevAfter.shared == nil
	}
}

// sameScalar compares two cells without concurrent reads.
func sameScalar(a, b *cell) bool {
	return a.w == b.w && a.r == b.r && a.wSite == b.wSite && a.rSite == b.rSite && a.wKind == b.wKind && a.rKind == b.rKind
}

// conflict reports whether two accesses of these kinds race when
// concurrent: at least one writes, and not both are atomic.
func conflict(prev, cur vm.AccessKind) bool {
	return (prev.IsWrite() || cur.IsWrite()) && !(prev.IsAtomic() && cur.IsAtomic())
}

func (d *Detector) read(x *cell, a *vm.Access, e epoch, c VC, off uint64) {
	if x.r == e && x.shared == nil && x.rKind == a.Kind {
		return // same epoch: nothing new
	}
	if !x.w.before(c) && conflict(x.wKind, a.Kind) {
		d.report(a, off, x.w.tid(), x.wSite, x.wKind)
	}
	switch {
	case x.shared != nil:
		for i := range x.shared {
			if x.shared[i].e.tid() == a.Thread {
				x.shared[i] = sharedRead{e, a.Site, a.Kind}
				return
			}
		}
		x.shared = append(x.shared, sharedRead{e, a.Site, a.Kind})
	case x.r == 0 || x.r.before(c) || x.r.tid() == a.Thread:
		x.r, x.rSite, x.rKind = e, a.Site, a.Kind
	default: // concurrent with the previous read: keep both
		x.shared = []sharedRead{{x.r, x.rSite, x.rKind}, {e, a.Site, a.Kind}}
	}
}

func (d *Detector) write(x *cell, a *vm.Access, e epoch, c VC, off uint64) {
	if x.w == e && x.shared == nil && x.wKind == a.Kind && x.r == 0 {
		return
	}
	if !x.w.before(c) && conflict(x.wKind, a.Kind) {
		d.report(a, off, x.w.tid(), x.wSite, x.wKind)
	}
	if x.shared != nil {
		for _, r := range x.shared {
			if !r.e.before(c) && conflict(r.kind, a.Kind) {
				d.report(a, off, r.e.tid(), r.site, r.kind)
			}
		}
	} else if !x.r.before(c) && conflict(x.rKind, a.Kind) {
		d.report(a, off, x.r.tid(), x.rSite, x.rKind)
	}
	x.w, x.wSite, x.wKind = e, a.Site, a.Kind
	x.r, x.rSite, x.shared = 0, vm.Site{}, nil
}
