package vm

import (
	"encoding/binary"

	"augur/analyzer/ir"
)

// The synchronization the C library's models (package libc) build their
// objects from: a mutex, a condition variable, a read-write lock, a spin
// lock, a semaphore or a barrier keeps its state in the program's memory,
// in the object itself as glibc does (SyncRead, SyncWrite, SyncWords), and
// the machine keeps what the interpreter must see of it: the queues of the
// threads that wait on it (Block, Wake), timed waits, the preemption point
// each call is, the synchronization events the race detector orders
// accesses by (Sync, NoteLock), and who holds it for deadlock reports
// (SetHolder). The life of threads (create, join, exit, cancel) and
// pthread_once, which runs a program function inside its call, are the
// machine's own (pthread.go).

// Sync key kinds of the objects the C library's models keep (MutexKey
// too).
const (
	CondKey    = waitCond
	BarrierKey = waitBarrier
	SemKey     = waitSem
	RWLockKey  = waitRWLock
	SpinKey    = waitSpin
	// RWReadKey is the release side of a read-write lock's read locks,
	// which merge (ReleaseMerge): a writer is ordered after every reader.
	RWReadKey = keyRWRead
)

// LockMode is how a call takes a lock: waiting for it, trying it once, or
// waiting until a deadline.
type LockMode uint8

const (
	LockBlock LockMode = iota
	LockTry
	LockTimed
)

// SyncRead reads a word of size bytes of a synchronization object at
// addr. Such reads are not program accesses: the race detector orders by
// the object's events instead (Sync).
func (m *Machine) SyncRead(addr uint64, size int) (uint64, error) {
	b, err := m.mem.Read(addr, uint64(size))
	if err != nil {
		return 0, memErr(err)
	}
	return ir.GetScalar(b, ir.Scalar{Kind: ir.KInt, Bits: uint16(8 * size)}), nil
}

// SyncWrite writes a word of a synchronization object (see SyncRead).
func (m *Machine) SyncWrite(addr uint64, size int, v uint64) error {
	b, err := m.mem.writeSlice(addr, uint64(size))
	if err != nil {
		return memErr(err)
	}
	ir.PutScalar(b, ir.Scalar{Kind: ir.KInt, Bits: uint16(8 * size)}, v)
	return nil
}

// SetMem fills n bytes of program memory at dst with c, as memset does.
func (m *Machine) SetMem(dst uint64, c byte, n uint64) error { return m.setMem(dst, c, n) }

// Sync reports t's synchronization operation op on the object of kind at
// addr, at the current call, to the race detector and the weak memory
// model.
func (m *Machine) Sync(t *Thread, op SyncOp, kind uint8, addr uint64) { m.syncEvent(t, op, kind, addr) }

// NoteLock reports that t took the lock of kind at addr, by a try-lock
// when tried, for the lock graph's order edges.
func (m *Machine) NoteLock(t *Thread, kind uint8, addr uint64, tried bool) {
	m.lockAcquired(t, kind, addr, tried)
}

// Point is what a model returns to end its call with a preemption point.
func (*Machine) Point() error { return errYield }

// TookLock ends a call that took its lock without waiting: a preemption
// point, or none for a thread backing off from a failed try-lock
// (Thread.tookLock).
func (*Machine) TookLock(t *Thread) error {
	t.EndTimedWait()
	return t.tookLock()
}

// TryFailed ends a try-lock that found the lock taken with EBUSY in res,
// and a preemption point only every other failure in a row (tryFailed).
func (m *Machine) TryFailed(t *Thread, res []Value) error { return m.tryFailed(t, res) }

// LockBusy ends a call that found the lock of kind at addr taken, as mode
// says: a try fails (TryFailed); a timed lock waits until the deadline in
// the struct timespec at abstime and then sets ETIMEDOUT in res; a lock
// waits until the lock is released, and the call is made again then.
func (m *Machine) LockBusy(t *Thread, kind uint8, addr uint64, mode LockMode, abstime uint64, res []Value) error {
	return m.lockBusy(t, waitKey{kind, addr}, res, mode, abstime)
}

// Block makes t wait on the queue of the object of kind at addr; the call
// is made again when it is woken (Wake, WakeOne).
func (m *Machine) Block(t *Thread, kind uint8, addr uint64) error {
	m.sync.block(t, waitKey{kind, addr})
	return errBlock
}

// BlockUntil makes t wait on the object's queue until the deadline in the
// struct timespec at abstime, on the virtual clock. It reports timedOut
// when the wait is over without a wake-up (the deadline has passed): the
// call then returns its timeout. Otherwise the error is what the model
// returns (t waits, or abstime could not be read).
func (m *Machine) BlockUntil(t *Thread, kind uint8, addr uint64, abstime uint64) (timedOut bool, err error) {
	return m.timedBlock(t, waitKey{kind, addr}, abstime)
}

// Wake makes every thread waiting on the object of kind at addr runnable.
func (m *Machine) Wake(kind uint8, addr uint64) { m.sync.wake(waitKey{kind, addr}, m) }

// WakeOne makes the first thread waiting on the object runnable and
// reports whether there was one.
func (m *Machine) WakeOne(kind uint8, addr uint64) bool {
	return m.sync.wakeOne(waitKey{kind, addr}, m)
}

// CancelPoint acts on a cancellation of t that is pending and enabled: ok
// is set and err is what the model returns (the thread runs its cleanup
// handlers and exits).
func (m *Machine) CancelPoint(t *Thread) (err error, ok bool) { return m.cancelPoint(t) }

// Phase is where t is in a call made in steps (a barrier wait woken, the
// generation it arrived in): 0 when the call begins.
func (t *Thread) Phase() int { return t.phase }

// SetPhase records where t is in its current call; the model sets it back
// to 0 when the call ends.
func (t *Thread) SetPhase(p int) { t.phase = p }

// TimedOut reports whether t's timed wait ended at its deadline rather
// than by a wake-up; EndTimedWait clears it.
func (t *Thread) TimedOut() bool { return t.timedOut }

// SyncWords reads and writes the 32-bit fields of a synchronization object
// of size bytes at addr, looking the object up once: a mutex's lock and
// unlock read three fields and write three, and five lookups were a
// quarter of a lock-heavy program's time. When the fields do not lie whole
// in one writable object (a "mutex" smaller than glibc's, freed,
// read-only), each goes through SyncRead and SyncWrite, whose first
// failing access reports the error.
type SyncWords struct {
	m    *Machine
	addr uint64
	size uint64
	o    *Object // the object holding the fields whole, or nil
	off  uint64  // addr's offset in o
}

// SyncWords returns the fields of the object of size bytes at addr.
func (m *Machine) SyncWords(addr, size uint64) SyncWords {
	w := SyncWords{m: m, addr: addr, size: size}
	if o, off, err := m.mem.resolve(addr, size, false); err == nil {
		w.o, w.off = o, off
	}
	return w
}

// Get reads the 32-bit field at offset f.
func (w *SyncWords) Get(f uint64) (uint64, error) {
	if w.o != nil {
		return uint64(binary.LittleEndian.Uint32(w.o.bytes[w.off+f:])), nil
	}
	return w.m.SyncRead(w.addr+f, 4)
}

// Set writes the 32-bit field at offset f, copying a shared object first
// as every write does.
func (w *SyncWords) Set(f, v uint64) error {
	if w.o == nil || w.o.writeLimit < w.off+w.size {
		return w.m.SyncWrite(w.addr+f, 4, v)
	}
	if w.o.gen != w.m.mem.gen {
		w.o = w.m.mem.writable(w.o)
	}
	binary.LittleEndian.PutUint32(w.o.bytes[w.off+f:], uint32(v))
	return nil
}

// A Holder reads who holds the synchronization object at addr: the
// holder's Owner value, 0 when it is free or held by readers only.
type Holder func(m *Machine, addr uint64) (uint64, error)

// holders are the Holders of the kinds whose models registered one.
var holders = map[waitKind]Holder{}

// SetHolder registers how to read who holds an object of kind, so that a
// deadlock report shows the waits-for cycle ("mutex at x held by thread
// 2"). Models register at init, before any machine runs.
func SetHolder(kind uint8, h Holder) { holders[kind] = h }

// Owner is the value a synchronization object stores for t as its holder:
// never 0, which means free.
func Owner(t *Thread) uint64 { return tid(t) }
