package race

import (
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// A step is what one thread did between two decisions of a bounded
// schedule: the step k runs after decision k, by the thread chosen there,
// up to the next decision. The partial-order reduction (reduce) compares
// steps by what they touched.
type step struct {
	// keys are the memory objects and synchronization objects the step
	// touched, each once, as key<<1 | 1 when it wrote it.
	keys []uint64
	// all is set when the step touched more than maxStepKeys objects: it
	// is taken to conflict with every other step.
	all bool
	// forks are the threads the step created; joins the threads whose
	// end it waited for.
	forks, joins []int
}

// maxStepKeys bounds the objects a step records.
const maxStepKeys = 4096

// Keys of synchronization objects, apart from those of memory objects
// (their ids, below 1<<32).
const syncKeyBase = 1 << 40

// footprints is the monitor of a bounded schedule's execution: it passes
// everything on to the race detector and records, for each step of the
// schedule, what it touched. Objects are told apart by id (an id a freed
// stack frame gave back counts as the same object: a conflict too many
// is safe, one too few is not); every synchronization operation counts
// as a write of its object (but a lock's release as a read, see
// releasesLock), and as a read of the memory object that holds it.
//
// A step's keys leave out the accesses no other thread's can be unordered
// with (Detector.unordered): those made while the program has one
// thread, and those to an object in its private phase (private.go). Two
// steps conflict only through an object both touch; when the private
// phase of one thread's object is followed by another thread's access,
// the detector vouches that the phase ends before it through the creation
// or joining of threads (which the reduction's happens-before holds: the
// steps' forks and joins), or the execution runs again with the object
// shadowed from birth, and every access to it then counts. So the
// detector may have the machine skip those accesses (vm.Machine.Quiet),
// with the footprints wrapped around it as without them.
type footprints struct {
	vm.Monitor
	det   *Detector
	pol   *sched.Bounded
	steps []step
	// seen[id] is 2*(step+1) for the last step that touched the object
	// id, plus 1 when it wrote it: one slice read tells a repeated touch.
	seen []uint32
}

// maxSeen bounds the object ids footprints tracks in seen; an execution
// that allocates more objects records the others in full.
const maxSeen = 1 << 22

func newFootprints(det *Detector, pol *sched.Bounded) *footprints {
	return &footprints{Monitor: det, det: det, pol: pol}
}

// current is the step running now, or nil before the first decision or
// past the decisions the schedule records.
func (f *footprints) current() (*step, int) {
	k := len(f.pol.Decisions) - 1
	if k < 0 || f.pol.Truncated {
		return nil, k
	}
	for len(f.steps) <= k {
		f.steps = append(f.steps, step{})
	}
	return &f.steps[k], k
}

// Access implements vm.Monitor.
func (f *footprints) Access(a *vm.Access) {
	f.Monitor.Access(a)
	if !f.det.unordered {
		return
	}
	s, k := f.current()
	if s == nil || s.all {
		return
	}
	w := uint32(0)
	if a.Kind.IsWrite() {
		w = 1
	}
	id := a.Obj.ID
	if id < maxSeen {
		if int(id) >= len(f.seen) {
			f.seen = append(f.seen, make([]uint32, int(id)+1-len(f.seen)+64)...)
		}
		mark := uint32(2*(k+1)) | w
		if old := f.seen[id]; old == mark || old == mark|1 {
			return // touched already in this step, as a write if it was one
		}
		f.seen[id] = mark
	}
	f.touch(s, uint64(id), w == 1)
}

// Sync implements vm.Monitor.
func (f *footprints) Sync(ev vm.SyncEvent) {
	f.Monitor.Sync(ev)
	s, _ := f.current()
	if s == nil {
		return
	}
	switch ev.Op {
	case vm.Fork:
		s.forks = append(s.forks, ev.Other)
	case vm.JoinThread:
		s.joins = append(s.joins, ev.Other)
	}
	if !s.all {
		key := syncKeyBase + (ev.Key.Addr<<8 | uint64(ev.Key.Kind))
		f.touch(s, key, !releasesLock(ev))
		// It reads the memory it lives in: a free of that object (or a
		// write over it) between two threads' operations on it is a
		// conflict too, the lock of a mutex in a freed struct.
		if id, ok := vm.SyncObject(ev.Key); ok {
			f.touch(s, uint64(id), false)
		}
	}
}

// releasesLock reports whether ev releases a mutex or spinlock. It counts
// as a read of the lock, an acquisition as a write: two acquisitions
// conflict, and the reduction reverses a thread's acquisition with the
// other's acquisition of the critical section before it, not with that
// section's release (conflicts asks for nothing at a release). Reversed
// with the release, the waiting thread would run where the lock is still
// held and only block there, and the schedule where it takes the lock
// first (and the holder then waits) would never be asked for. The release
// still orders the next acquisition after the section, as a read before a
// write does.
func releasesLock(ev vm.SyncEvent) bool {
	return isLock(ev.Key.Kind) && (ev.Op == vm.Release || ev.Op == vm.LockReleased)
}

// isLock reports whether a sync key's kind is a mutex's or a spinlock's.
func isLock(kind uint8) bool { return kind == vm.MutexKey || kind == vm.SpinKey }

// isLockKey reports whether a step's key names a mutex or spinlock.
func isLockKey(key uint64) bool {
	if key < syncKeyBase || key == allKey {
		return false
	}
	return isLock(uint8((key - syncKeyBase) & 0xff))
}

// touch records that s touched key.
func (f *footprints) touch(s *step, key uint64, write bool) {
	k := key << 1
	if write {
		k |= 1
	}
	if len(s.keys) >= maxStepKeys {
		s.keys, s.all = nil, true
		return
	}
	s.keys = append(s.keys, k)
}

// Footprint implements vm.Sizer: the detector's memory and the steps'.
func (f *footprints) Footprint() uint64 {
	var n uint64
	if s, ok := f.Monitor.(vm.Sizer); ok {
		n = s.Footprint()
	}
	n += uint64(cap(f.seen))*4 + uint64(cap(f.steps))*72
	for _, s := range f.steps {
		n += uint64(cap(s.keys)) * 8
	}
	return n
}
