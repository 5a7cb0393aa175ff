package race

import "augur/analyzer/exec/vm"

// freeRecord is how an object was freed: by whom, when, where.
type freeRecord struct {
	serial uint64
	e      epoch
	site   vm.Site
	count  uint64
}

// maxFrees bounds the frees a detector remembers; the VM names a freed
// object (and so reports a use of it to the detector) only while it is in
// its quarantine, which is larger.
const maxFrees = 4096

// rememberFree records the free a, at epoch e, for a later use of the
// object (afterFree).
func (d *Detector) rememberFree(a *vm.Access, e epoch) {
	if d.frees == nil {
		d.frees = map[uint32]freeRecord{}
	}
	if _, ok := d.frees[a.Obj.ID]; !ok {
		d.freeOrder = append(d.freeOrder, a.Obj.ID)
	}
	d.frees[a.Obj.ID] = freeRecord{serial: a.Obj.Serial, e: e, site: a.Site, count: a.Count}
	if len(d.freeOrder) > maxFrees {
		delete(d.frees, d.freeOrder[0])
		d.freeOrder = d.freeOrder[1:]
	}
}

// afterFree judges an access to a freed object (the VM stops the
// execution right after it): when the free does not happen before it, the
// free and the access race, and one of their orders is this crash.
func (d *Detector) afterFree(a *vm.Access, c VC) {
	f, ok := d.frees[a.Obj.ID]
	if !ok || f.serial != a.Obj.Serial || f.e.tid() == a.Thread || f.e.before(c) {
		return
	}
	d.reportedNow = d.reportedNow[:0]
	d.record(a, a.Off, f.e.tid(), f.site, vm.Free, f.count, 0, 0)
}
