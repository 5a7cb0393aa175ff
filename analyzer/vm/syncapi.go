package vm

import "augur/analyzer/ir"

// The synchronization the C library's models (package libc) build their
// objects from: a read-write lock, a spin lock, a semaphore or a barrier
// keeps its state in the program's memory, in the object itself as glibc
// does (SyncRead, SyncWrite), and the machine keeps what the interpreter
// must see of it: the queues of the threads that wait on it (Block, Wake),
// timed waits, the preemption point each call is, and the synchronization
// events the race detector orders accesses by (Sync, NoteLock). Mutexes and
// condition variables are still modeled here (pthread.go): a deadlock
// report names a mutex's owner, and a condition wait releases and takes a
// mutex inside one call.

// Sync key kinds of the objects the C library's models keep.
const (
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
