// Package race detects data races and lock-order inversions in executions
// of the VM. It implements vm.Monitor with the FastTrack algorithm (Flanagan
// and Freund): a thread's vector clock for happens-before, and per byte of
// shared memory the epoch of the last write and of the last read, widened to
// a vector clock only while reads are concurrent.
package race

import (
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
)

// VC is the vector clock the detector keeps per thread and per sync
// object, the same type the weak memory model keeps.
type VC = memmodel.VC

// epoch packs a thread id and its clock, and in shadow memory the kind of
// the access: kind<<56 | tid<<40 | clock (and the top bit, listed, in a
// cell of several reads). 0 means "none".
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
func (e epoch) kind() vm.AccessKind            { return vm.AccessKind(e>>kindShift) & 0x7f }

// before reports whether the access at e happens before a thread whose
// vector clock is v.
func (e epoch) before(v VC) bool { return e == 0 || e.clock() <= v.Get(e.tid()) }
