package race

import "augur/analyzer/exec/vm"

// freeRecord is how an object was freed: by whom, when, where.
type freeRecord struct {
	serial uint64
	e      epoch
	site   vm.Site
	count  uint64
	// private is set when the object was freed in its private phase
	// (private.go): the free is then all the detector kept of that phase.
	private bool
}

// maxFrees bounds the frees a detector remembers; the VM names a freed
// object (and so reports a use of it to the detector) only while it is in
// its quarantine, which is larger.
const maxFrees = 4096

// rememberFree records the free a, at epoch e, for a later use of the
// object (afterFree); private says that the object was freed in its
// private phase.
func (d *Detector) rememberFree(a *vm.Access, e epoch, private bool) {
	if d.frees == nil {
		d.frees = map[uint32]freeRecord{}
	}
	if _, ok := d.frees[a.Obj.ID]; !ok {
		d.freeOrder = append(d.freeOrder, a.Obj.ID)
	}
	d.frees[a.Obj.ID] = freeRecord{serial: a.Obj.Serial, e: e, site: a.Site, count: a.Count, private: private}
	if len(d.freeOrder) > maxFrees {
		delete(d.frees, d.freeOrder[0])
		d.freeOrder = d.freeOrder[1:]
	}
}

// afterFree judges an access to a freed object (the VM stops the
// execution right after it): when the free does not happen before it, the
// free and the access race, and one of their orders is this crash.
//
// When the object was freed in its private phase, this access is the
// first of another thread, and the phase is not ordered before it: the
// check vouch makes has failed, and the object's site is to be shadowed
// from birth (Redo). Without that, the accesses of the phase (the free
// among them) would stay out of the footprints of the steps
// (footprints), and the enumeration would never run this access before
// the free: testdata/explore/close_under_reader.c's reader, which takes
// a lock main destroys and frees, came only after the free.
func (d *Detector) afterFree(a *vm.Access, c VC) {
	f, ok := d.frees[a.Obj.ID]
	if !ok || f.serial != a.Obj.Serial || f.e.tid() == a.Thread || f.e.before(c) {
		return
	}
	if f.private {
		d.redoSite(a.Obj.Site)
	}
	d.reportedNow = d.reportedNow[:0]
	d.record(a, a.Off, f.e.tid(), f.site, vm.Free, f.count, 0, 0)
}
