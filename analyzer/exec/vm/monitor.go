package vm

import (
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/frontend/ir"
)

// A Monitor observes an execution: every memory access the program makes
// (loads, stores, atomics, and the memory the modeled libc reads or writes
// on its behalf) and every synchronization between threads, expressed as
// acquire and release operations on sync keys. The race detector is one.
type Monitor interface {
	Access(a *Access)
	Sync(ev SyncEvent)
}

// A RawMonitor takes the exec loop's plain loads and stores (monitorRaw)
// as values, without the Access the machine would build for them: a
// monitor that needs only where an access was and what it touched (the
// exploration of inputs' coverage, which sees every access) costs a call
// rather than a struct with a call stack. Every other access still comes
// through Access.
type RawMonitor interface {
	RawAccess(thread int, loc ir.LocID, o *Object, off uint64)
}

// RecentAccesses is a Monitor that remembers the latest accesses of the
// threads: a fork over the addresses an input can choose for a store
// (concreteStoreAddr) takes first the ones another thread touched, where
// a race can be.
type RecentAccesses interface {
	// TouchedByOthers returns the addresses in object obj that threads
	// other than thread accessed lately, the latest first, each once.
	TouchedByOthers(obj uint32, thread int) []uint64
}

// Monitor returns the execution's monitor (nil without one); a fork has
// its own copy (ForkableMonitor).
func (m *Machine) Monitor() Monitor { return m.mon }

// AccessKind says what an access does.
type AccessKind uint8

const (
	Read AccessKind = iota
	Write
	AtomicRead
	AtomicWrite
	AtomicRMW
	Free // free() of a heap object: a write to all of it
)

// IsWrite reports whether the access modifies memory.
func (k AccessKind) IsWrite() bool {
	return k == Write || k == AtomicWrite || k == AtomicRMW || k == Free
}

// Verb says what an access of the named kind ("read", "write", "free",
// "atomic read", ...) does, as a verb for sentences about races: "reads",
// "writes", "frees", "does an atomic read of".
func Verb(kind string) string {
	switch kind {
	case "read":
		return "reads"
	case "write":
		return "writes"
	case "free":
		return "frees"
	}
	return "does an " + kind + " of"
}

// IsAtomic reports whether the access is atomic.
func (k AccessKind) IsAtomic() bool { return k == AtomicRead || k == AtomicWrite || k == AtomicRMW }

// Site is where an access happened: the instruction's location and the
// interned call stack of the thread at that moment (see Machine.Stack).
type Site struct {
	Loc   ir.LocID
	Stack StackID
}

// Access is one memory access.
type Access struct {
	Thread   int
	Obj      *Object
	Off      uint64
	Size     uint64
	Kind     AccessKind
	Ordering ir.Ordering // for atomics
	Site     Site
	// Count is how many instructions the thread had executed before this
	// access: with Thread, a position that replays under any schedule.
	Count uint64
}

// fill sets every field of a, each by its own store. The machine reports
// every access through one Access it keeps (Machine.acc, so the monitor's
// pointer to it costs no allocation); a composite literal assigned to it
// is built on the stack and then copied 16 bytes at a time, and each such
// load spans two of the literal's 8-byte stores, which the processor
// cannot forward from its store buffer: a stall on every access, a tenth
// of matmul's detection in a CPU profile.
func (a *Access) fill(thread int, o *Object, off, size uint64, kind AccessKind, ord ir.Ordering, site Site, count uint64) {
	a.Thread = thread
	a.Obj = o
	a.Off = off
	a.Size = size
	a.Kind = kind
	a.Ordering = ord
	a.Site = site
	a.Count = count
}

// SyncOp is a synchronization operation.
type SyncOp = memmodel.SyncOp

// The synchronization operations (see memmodel.SyncOp).
const (
	Acquire      = memmodel.Acquire
	Release      = memmodel.Release
	ReleaseMerge = memmodel.ReleaseMerge
	Fork         = memmodel.Fork
	JoinThread   = memmodel.JoinThread
	LockAcquired = memmodel.LockAcquired
	LockReleased = memmodel.LockReleased
)

// MutexKey is the kind of the sync keys of pthread mutexes.
const MutexKey = waitMutex

// SyncKey names a synchronization object: its kind (a waitKind) and
// address.
type SyncKey = memmodel.SyncKey

// Sync key kinds beyond the wait queues: the release side of read locks, the
// release sequence of an atomic location, fences, and __VERIFIER_atomic.
const (
	keyRWRead waitKind = 100 + iota
	keyAtomic
	keyFence
	keyVerifier
	keyPipe // data through a pipe or socket (by pipe or socket id)
)

// SyncObject returns the id of the memory object that holds the
// synchronization object k names (a mutex, condition variable, barrier,
// semaphore, rwlock, once, spinlock, futex word or atomic location), and
// false for those that live outside memory (threads, pipes, fences). A
// free of that object, or a write over it, conflicts with the operation.
func SyncObject(k SyncKey) (uint32, bool) {
	switch k.Kind {
	case waitMutex, waitCond, waitBarrier, waitSem, waitRWLock, waitOnce, waitSpin, waitFutex, keyRWRead, keyAtomic:
		return uint32(k.Addr >> ir.AddrShift), true
	}
	return 0, false
}

// SyncEvent is one synchronization operation.
type SyncEvent struct {
	Op     SyncOp
	Thread int
	Other  int // Fork: the child; JoinThread: the joined thread
	Key    SyncKey
	Site   Site
	// Tried is set on LockAcquired when a try-lock took the lock: it
	// never waits, so it cannot close a deadlock cycle.
	Tried bool
}

// StackID identifies an interned call stack; 0 is the empty stack.
type StackID uint32

// stackNode is one interned frame: the function, the caller's node and the
// call site in the caller.
type stackNode struct {
	fn     *ir.Function
	parent StackID
	call   ir.LocID
}

type stackKey struct {
	parent StackID
	call   ir.LocID
	fn     *ir.Function
}

// stackTable interns call stacks so an access records its full stack in 4
// bytes; frames keep their node, so the current stack costs nothing to get.
type stackTable struct {
	nodes []stackNode
	index map[stackKey]StackID
}

func newStackTable() *stackTable {
	return &stackTable{nodes: []stackNode{{}}, index: map[stackKey]StackID{}}
}

func (s *stackTable) intern(parent StackID, call ir.LocID, fn *ir.Function) StackID {
	k := stackKey{parent, call, fn}
	if id, ok := s.index[k]; ok {
		return id
	}
	id := StackID(len(s.nodes))
	s.nodes = append(s.nodes, stackNode{fn: fn, parent: parent, call: call})
	s.index[k] = id
	return id
}

// Stack expands an access site into frames, innermost first.
func (s *state) Stack(site Site) []StackFrame {
	var out []StackFrame
	loc := site.Loc
	for id := site.Stack; id != 0; {
		n := s.stacks.nodes[id]
		out = append(out, StackFrame{Function: n.fn.Name, Loc: s.prog.Loc(loc)})
		loc = n.call
		id = n.parent
	}
	return out
}

// Memory returns the execution's memory.
func (s *state) Memory() *Memory { return s.mem }

// Program returns the program being run.
func (s *state) Program() *ir.Program { return s.prog }

// site returns the current site of thread t at instruction in.
func (m *Machine) site(t *Thread, loc ir.LocID) Site {
	if len(t.frames) == 0 {
		return Site{Loc: loc}
	}
	return Site{Loc: loc, Stack: m.stackOf(t, len(t.frames)-1)}
}

// note reports an access to the monitor, if any.
func (m *Machine) note(t *Thread, o *Object, off, size uint64, kind AccessKind, ord ir.Ordering, loc ir.LocID) {
	if m.mon == nil || size == 0 || o.Kind == ObjFunc || !m.monitors(t) {
		return
	}
	m.acc.fill(t.ID, o, off, size, kind, ord, m.site(t, loc), m.ThreadCount(t.ID)-1)
	m.mon.Access(&m.acc)
}

// noteRange reports an access by the modeled libc to [addr, addr+size).
func (m *Machine) noteRange(t *Thread, addr, size uint64, kind AccessKind, loc ir.LocID) {
	if m.mon == nil || size == 0 {
		return
	}
	o := m.mem.Object(uint32(addr >> ir.AddrShift))
	if o == nil {
		return
	}
	m.note(t, o, addr&(1<<ir.AddrShift-1), size, kind, ir.NotAtomic, loc)
}

// syncEvent reports a synchronization operation of thread t to the
// monitor, if any, at the current call.
func (m *Machine) syncEvent(t *Thread, op SyncOp, kind waitKind, addr uint64) {
	m.syncEventBy(t, SyncEvent{Op: op, Key: SyncKey{Kind: kind, Addr: addr}})
}

// lockAcquired reports that t took the lock kind/addr, by a try-lock when
// tried (SyncEvent.Tried).
func (m *Machine) lockAcquired(t *Thread, kind waitKind, addr uint64, tried bool) {
	m.syncEventBy(t, SyncEvent{Op: LockAcquired, Key: SyncKey{Kind: kind, Addr: addr}, Tried: tried})
}

// syncEventBy reports ev as t's, at the current call, when anything
// listens.
func (m *Machine) syncEventBy(t *Thread, ev SyncEvent) {
	if m.mon == nil && m.weak == nil {
		return
	}
	ev.Thread, ev.Site = t.ID, m.site(t, m.callLoc)
	m.emitSync(ev)
}

// noteNative reports an access the modeled libc makes to program memory on
// behalf of the current call.
func (m *Machine) noteNative(addr, size uint64, kind AccessKind) {
	if m.mon != nil {
		m.noteRange(m.cur, addr, size, kind, m.callLoc)
	}
}

// A ThreadMonitor is a Monitor that looks at the accesses of one thread
// only: the machine hands it no other thread's, and so makes no Access
// for them (its synchronization events still come from every thread).
// Classification's watch of a held race's other thread is one: the
// threads beside the two made half of the accesses it was handed.
type ThreadMonitor interface {
	Monitor
	WatchedThread() int
}

// SetMonitor replaces the monitor for the rest of the run (nil: none).
func (m *Machine) SetMonitor(mon Monitor) {
	m.mon = mon
	m.rawMon, _ = mon.(RawMonitor)
	m.monThread = -1
	if tm, ok := mon.(ThreadMonitor); ok {
		m.monThread = tm.WatchedThread()
	}
}

// monitors reports whether the monitor looks at t's accesses.
func (m *Machine) monitors(t *Thread) bool { return m.monThread < 0 || t.ID == m.monThread }
