package vm

import (
	"encoding/binary"

	"augur/analyzer/frontend/ir"
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
	FutexKey   = waitFutex
	// RWReadKey is the release side of a read-write lock's read locks,
	// which merge (ReleaseMerge): a writer is ordered after every reader.
	RWReadKey = keyRWRead
	// The network's wait queues (package libc's pipes, sockets and
	// polls): data in a pipe and room in it (by pipe id), a connection
	// to accept and a datagram (by socket id), and readiness (poll,
	// select, epoll_wait: one queue, address 0). PipeKey is the sync key
	// of the data a pipe or socket carries, by pipe or socket id.
	PipeWaitKey  = waitPipe
	PipeSpaceKey = waitPipeSpace
	AcceptKey    = waitAccept
	DgramKey     = waitDgram
	PollKey      = waitPoll
	FifoKey      = waitFifo     // an open of a FIFO waiting for its other end
	FileLockKey  = waitFileLock // a lock on a file, by inode (fcntl, flock)
	PipeKey      = keyPipe
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
func (s *state) SyncRead(addr uint64, size int) (uint64, error) {
	b, err := s.mem.Read(addr, uint64(size))
	if err != nil {
		return 0, memErr(err)
	}
	return ir.GetScalar(b, ir.Scalar{Kind: ir.KInt, Bits: uint16(8 * size)}), nil
}

// SyncWrite writes a word of a synchronization object (see SyncRead).
func (s *state) SyncWrite(addr uint64, size int, v uint64) error {
	b, err := s.mem.writeSlice(addr, uint64(size))
	if err != nil {
		return memErr(err)
	}
	ir.PutScalar(b, ir.Scalar{Kind: ir.KInt, Bits: uint16(8 * size)}, v)
	return nil
}

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

// failedTriesPerPoint is how many try-locks in a row a thread fails for
// each preemption point among them: the first failure is none.
const failedTriesPerPoint = 2

// TryFailed ends a try (a try-lock, sem_trywait) that found the object
// taken, after the model has set its failure (EBUSY, or -1 and EAGAIN). It
// is a preemption point only at every failedTriesPerPoint-th failure in a
// row. A failure changes nothing another thread could see, and a switch at
// each made round robin run a try-lock back-off of two threads (take one
// lock, try the other, let go, again, as std::lock does) in step for
// ever: each failed to try the lock the other had just taken. Without the
// switch at the first failure, the failing thread lets go of its lock
// before the other tries it. The point at every second failure keeps a
// thread that spins on a try from holding the processor for a whole time
// slice per hand-over: a failed sem_trywait was no point at all, and two
// threads handing over 2,000 times through sem_trywait loops ran out of
// the instruction budget, a hang reported on correct code
// (testdata/sched/semaphore_turns.c).
//
// A thread whose last try failed is backing off (std::lock's lock one, try
// the next, let go, begin with the one that was taken): TookLock lets it
// go on through its next acquisition.
func (*Machine) TryFailed(t *Thread) error {
	t.failedTries++
	if t.failedTries%failedTriesPerPoint == 0 {
		return errYield
	}
	return nil
}

// TookLock ends a call that took its lock (a mutex's, a read-write lock's,
// a spin lock's) or a semaphore's unit and returns the call's preemption point, or nil
// for none: a thread that is backing off from a failed try-lock goes on
// through the acquisition. A back-off takes its first lock and at once
// tries the next; round robin's switch between the two let the next
// thread take the lock this one was about to try, and three threads in
// std::lock over two mutexes (cpp_locks.cpp under a postponement) each
// found its second lock taken by the next thread, in step for ever: a
// hang that was the schedule's. The release that ends a failed attempt
// stays a point, so other threads still run between attempts.
func (*Machine) TookLock(t *Thread) error {
	t.EndTimedWait()
	backingOff := t.failedTries > 0
	t.failedTries = 0
	if backingOff {
		return nil
	}
	return errYield
}

// LockBusy ends a lock call that found the lock of kind at addr taken, as
// mode says: at once with EBUSY for a try (TryFailed), with ETIMEDOUT in
// res at the deadline in the struct timespec at abstime for a timed lock,
// and otherwise when the lock is released (the call is made again then).
func (m *Machine) LockBusy(t *Thread, kind uint8, addr uint64, mode LockMode, abstime uint64, res []Value) error {
	switch mode {
	case LockTry:
		SetResult(res, EBUSY)
		return m.TryFailed(t)
	case LockTimed:
		timedOut, err := m.BlockUntil(t, kind, addr, abstime)
		if timedOut {
			SetResult(res, ETIMEDOUT)
			return errYield
		}
		return err
	}
	return m.Block(t, kind, addr)
}

// Block makes t wait on the queue of the object of kind at addr; the call
// is made again when it is woken (Wake, WakeOne).
func (s *state) Block(t *Thread, kind uint8, addr uint64) error {
	s.sync.block(t, waitKey{kind, addr})
	return errBlock
}

// BlockUntil makes t wait on the queue of the object of kind at addr
// until the deadline in the struct timespec at abstime, on the virtual
// clock, for a call that found what it waits for taken. It reports
// timedOut when the wait is over without it: the deadline had passed, or
// the wait timed out and the call is made again; the call then returns its
// timeout. Otherwise t now waits and the error is what the model returns
// (or why abstime could not be read). A wake-up before the deadline makes
// the call again, which waits again, with the same deadline, if another
// thread took what it waits for first.
func (m *Machine) BlockUntil(t *Thread, kind uint8, addr uint64, abstime uint64) (timedOut bool, err error) {
	if t.timedOut {
		t.EndTimedWait()
		return true, nil
	}
	until, err := m.TimespecNs(abstime)
	if err != nil {
		return false, err
	}
	return m.blockUntilNs(t, kind, addr, until)
}

// blockUntilNs is BlockUntil's wait once the deadline is known, in
// nanoseconds on the virtual clock.
func (s *state) blockUntilNs(t *Thread, kind uint8, addr uint64, until int64) (timedOut bool, err error) {
	if until <= s.now() {
		t.EndTimedWait()
		return true, nil
	}
	t.SetDeadline(until)
	return false, s.Block(t, kind, addr)
}

// BlockFor is BlockUntil with the deadline d nanoseconds from now, on the
// first call: the wait of a call that a wake-up ends (a futex's) rather
// than makes again to wait on.
func (s *state) BlockFor(t *Thread, kind uint8, addr uint64, d int64) (timedOut bool, err error) {
	if t.timedOut {
		t.EndTimedWait()
		return true, nil
	}
	return s.blockUntilNs(t, kind, addr, s.now()+d)
}

// WakeN wakes at most n threads waiting on the object of kind at addr,
// first come first, and returns how many it woke.
func (m *Machine) WakeN(kind uint8, addr uint64, n int) int {
	woke := 0
	for woke < n && m.sync.wakeOne(waitKey{kind, addr}, m) {
		woke++
	}
	return woke
}

// EndTimedWait clears t's timed wait once its call has ended, whichever
// way.
func (t *Thread) EndTimedWait() {
	t.timedWait, t.timedOut, t.timedUntil = false, false, 0
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

// SetDeadline makes t's next wait (Block) a timed one, ending at until
// nanoseconds on the virtual clock unless a wake-up comes first;
// Deadline is the deadline set (0: none). A call that looks again after
// each wake-up keeps its first deadline.
func (t *Thread) SetDeadline(until int64) { t.timedWait, t.timedUntil = true, until }

// Deadline is the deadline of t's timed wait (0: none).
func (t *Thread) Deadline() int64 { return t.timedUntil }

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

// SyncWords returns the fields of the object of size bytes at addr, in
// the machine's one SyncWords, valid until the next call: returned by
// value, the 40-byte struct was zeroed and copied through overlapping
// 16-byte moves whose loads stalled on store forwarding, a sixth of a
// lock-heavy program's detection (parallel_sum).
func (m *Machine) SyncWords(addr, size uint64) *SyncWords {
	w := &m.words
	w.m, w.addr, w.size, w.o, w.off = m, addr, size, nil, 0
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

// SetHolder registers in tab how to read who holds an object of kind, so
// that a deadlock report shows the waits-for cycle ("mutex at x held by
// thread 2"): the models of the kind register it with themselves.
func (tab *Models) SetHolder(kind uint8, h Holder) {
	if tab.holders == nil {
		tab.holders = map[waitKind]Holder{}
	}
	tab.holders[kind] = h
}

// Owner is the value a synchronization object stores for t as its holder:
// never 0, which means free.
func Owner(t *Thread) uint64 { return tid(t) }

// ReadTimespec reads the two 8-byte fields of a struct timespec (or of a
// struct timeval: seconds, then the fraction in its own unit).
func (m *Machine) ReadTimespec(p uint64) (s, frac int64, err error) {
	sec, err := m.ReadUint(p, 8)
	if err != nil {
		return 0, 0, err
	}
	f, err := m.ReadUint(p+8, 8)
	if err != nil {
		return 0, 0, err
	}
	return int64(sec), int64(f), nil
}

// TimespecNs reads a struct timespec as nanoseconds: a duration, or an
// absolute time on the virtual clock (see now).
func (m *Machine) TimespecNs(p uint64) (int64, error) {
	s, ns, err := m.ReadTimespec(p)
	if err != nil {
		return 0, err
	}
	return s*1_000_000_000 + ns, nil
}
