// Package race detects data races and lock-order inversions in executions
// of the VM. It implements vm.Monitor with the FastTrack algorithm (Flanagan
// and Freund): a thread's vector clock for happens-before, and per byte of
// shared memory the epoch of the last write and of the last read, widened to
// a vector clock only while reads are concurrent.
package race

import "augur/analyzer/vm"

// VC is a vector clock indexed by thread id.
type VC []uint64

// get returns the clock of thread t.
func (v VC) get(t int) uint64 {
	if t < len(v) {
		return v[t]
	}
	return 0
}

// set stores c as the clock of thread t, growing v as needed.
func (v *VC) set(t int, c uint64) {
	for len(*v) <= t {
		*v = append(*v, 0)
	}
	(*v)[t] = c
}

// join makes v the element-wise maximum of v and o.
func (v *VC) join(o VC) {
	for len(*v) < len(o) {
		*v = append(*v, 0)
	}
	for i, c := range o {
		if c > (*v)[i] {
			(*v)[i] = c
		}
	}
}

func (v VC) clone() VC { return append(VC(nil), v...) }

// epoch packs a thread id and its clock, and in shadow memory the kind of
// the access: kind<<56 | tid<<40 | clock. 0 means "none".
type epoch uint64

const (
	epochShift = 40
	kindShift  = 56
)

func mkEpoch(t int, c uint64) epoch { return epoch(uint64(t)<<epochShift | c) }
func (e epoch) tid() int            { return int(e>>epochShift) & 0xffff }
func (e epoch) clock() uint64       { return uint64(e) & (1<<epochShift - 1) }

// withKind tags an epoch with the access kind, as shadow cells store it.
func (e epoch) withKind(k vm.AccessKind) epoch { return e | epoch(k)<<kindShift }
func (e epoch) kind() vm.AccessKind            { return vm.AccessKind(e >> kindShift) }

// before reports whether the access at e happens before a thread whose
// vector clock is v.
func (e epoch) before(v VC) bool { return e == 0 || e.clock() <= v.get(e.tid()) }
