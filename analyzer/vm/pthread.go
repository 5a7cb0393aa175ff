package vm

import (
	"encoding/binary"
	"fmt"

	"augur/analyzer/ir"
)

// The pthread models. Every synchronization call is a preemption point after
// it takes effect, but for a failed try-lock, which changes nothing
// (tryFailed); a call that must wait blocks the thread and is executed
// again when the thread is woken. Object state sits in the pthread object's
// own memory using glibc's field offsets, so static initializers
// (PTHREAD_MUTEX_INITIALIZER, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP) work.

func tid(t *Thread) uint64 { return uint64(t.ID + 1) }

func (m *Machine) threadByID(id uint64) *Thread {
	if id == 0 || id > uint64(len(m.threads)) {
		return nil
	}
	return m.threads[id-1]
}

const (
	ESRCH = 3
)

// glibc's struct __pthread_mutex_s: __lock @0, __count @4, __owner @8, __kind @16.
const (
	mutexLock  = 0
	mutexCount = 4
	mutexOwner = 8
	mutexKind  = 16
)

// mutexSize is the extent of the fields the models use, __lock to __kind.
const mutexSize = mutexKind + 4

// mutexRef reads and writes the fields of the mutex at mu. Every lock and
// unlock reads three of them and writes three, so a ref looks the object up
// once (mutexAt) when the fields lie whole in it. When they do not (a
// "mutex" smaller than glibc's, freed, read-only), each field goes through
// SyncRead and SyncWrite, whose first failing access reports the error as
// it always did.
type mutexRef struct {
	m   *Machine
	mu  uint64
	o   *Object // the object holding the fields whole, or nil
	off uint64  // mu's offset in o
}

func (m *Machine) mutexAt(mu uint64) mutexRef {
	r := mutexRef{m: m, mu: mu}
	if o, off, err := m.mem.resolve(mu, mutexSize, false); err == nil {
		r.o, r.off = o, off
	}
	return r
}

// get reads the 32-bit field at offset f.
func (r *mutexRef) get(f uint64) (uint64, error) {
	if r.o != nil {
		return uint64(binary.LittleEndian.Uint32(r.o.bytes[r.off+f:])), nil
	}
	return r.m.SyncRead(r.mu+f, 4)
}

// set writes the 32-bit field at offset f, copying a shared object first
// as every write does.
func (r *mutexRef) set(f, v uint64) error {
	if r.o == nil || r.o.writeLimit < r.off+mutexSize {
		return r.m.SyncWrite(r.mu+f, 4, v)
	}
	if r.o.gen != r.m.mem.gen {
		r.o = r.m.mem.writable(r.o)
	}
	binary.LittleEndian.PutUint32(r.o.bytes[r.off+f:], uint32(v))
	return nil
}

const (
	mutexNormal     = 0
	mutexRecursive  = 1
	mutexErrorCheck = 2
)

func init() {
	Register(pthreadCreate, "pthread_create")
	Register(pthreadJoin, "pthread_join")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.exitThread(t, a[0].Bits) // after the cleanup handlers
	}, "pthread_exit")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, tid(t))
		return nil
	}, "pthread_self")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, b2u(a[0].Bits == a[1].Bits))
		return nil
	}, "pthread_equal")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		th := m.threadByID(a[0].Bits)
		if th == nil {
			SetResult(res, ESRCH)
			return nil
		}
		th.detached = true
		SetResult(res, 0)
		return nil
	}, "pthread_detach")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return errYield
	}, "sched_yield", "pthread_yield")

	// Thread attributes are plain data, handled by the runtime
	// (runtime/libc/pthread_attr.c): the detach state is at offset 0.
	zeroing := func(size uint64) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			SetResult(res, 0)
			return m.setMem(a[0].Bits, 0, size)
		}
	}
	ok := func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return nil
	}
	Register(ok, "pthread_mutexattr_destroy", "pthread_mutexattr_setpshared",
		"pthread_mutexattr_setprotocol", "pthread_mutexattr_setrobust", "pthread_condattr_init",
		"pthread_condattr_destroy", "pthread_condattr_setpshared", "pthread_condattr_setclock",
		"pthread_rwlockattr_init", "pthread_rwlockattr_destroy", "pthread_rwlockattr_setpshared",
		"pthread_barrierattr_init", "pthread_barrierattr_destroy", "pthread_barrierattr_setpshared",
		"pthread_cond_destroy", "pthread_barrier_destroy", "pthread_rwlock_destroy", "pthread_spin_destroy",
		"pthread_setname_np", "pthread_setschedparam")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		v, err := m.SyncRead(a[0].Bits, 4)
		SetResult(res, 0)
		if err != nil {
			return err
		}
		return m.WriteUint(a[1].Bits, 4, v)
	}, "pthread_mutexattr_gettype")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, 0)
	}, "pthread_mutexattr_init")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if a[1].Bits > mutexErrorCheck+1 {
			SetResult(res, EINVAL)
			return nil
		}
		SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, a[1].Bits)
	}, "pthread_mutexattr_settype")

	Register(mutexInit, "pthread_mutex_init")
	Register(mutexLockFn(LockBlock, -1), "pthread_mutex_lock").Acquires()
	Register(mutexLockFn(LockTry, -1), "pthread_mutex_trylock").Acquires()
	Register(mutexLockFn(LockTimed, 1), "pthread_mutex_timedlock").Acquires()
	Register(mutexLockFn(LockTimed, 2), "pthread_mutex_clocklock").Acquires()
	Register(mutexUnlock, "pthread_mutex_unlock").Releases()
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		l, err := m.SyncRead(a[0].Bits+mutexLock, 4)
		if err != nil {
			return err
		}
		SetResult(res, 0)
		if l != 0 {
			SetResult(res, EBUSY)
		}
		return nil
	}, "pthread_mutex_destroy")

	Register(zeroing(48), "pthread_cond_init")
	Register(condWait(-1), "pthread_cond_wait").Acquires()
	Register(condWait(2), "pthread_cond_timedwait").Acquires()
	Register(condWait(3), "pthread_cond_clockwait").Acquires()
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		m.sync.wakeOne(waitKey{waitCond, a[0].Bits}, m)
		SetResult(res, 0)
		return errYield
	}, "pthread_cond_signal").Signals()
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		m.sync.wake(waitKey{waitCond, a[0].Bits}, m)
		SetResult(res, 0)
		return errYield
	}, "pthread_cond_broadcast").Signals()

	Register(onceFn, "pthread_once")
	registerKeys()
}

func pthreadCreate(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
	fn := m.funcAt(a[2].Bits)
	if fn == nil || fn.Decl {
		return terminate(TermCrash, SIGSEGV, "pthread_create: start routine 0x%x is not a function of the program", a[2].Bits)
	}
	nt := m.newThread()
	nt.proc = t.proc
	if m.mon != nil || m.weak != nil {
		m.emitSync(SyncEvent{Op: Fork, Thread: t.ID, Other: nt.ID, Site: m.site(t, in.Loc)})
	}
	if nt.ID%64 == 0 {
		// A thread costs its clock in the analysis, as large as the
		// threads there are: thousands of them grow memory faster than
		// the periodic check sees.
		if err := m.checkMemory(); err != nil {
			return err
		}
	}
	if err := m.pushFrame(nt, fn, []Value{a[3]}, nil, -2, in.Loc); err != nil {
		return err
	}
	if a[1].Bits != 0 {
		d, err := m.SyncRead(a[1].Bits, 4)
		if err != nil {
			return err
		}
		nt.detached = d == 1 // PTHREAD_CREATE_DETACHED
	}
	if err := m.WriteUint(a[0].Bits, 8, tid(nt)); err != nil {
		return err
	}
	SetResult(res, 0)
	return errYield
}

func pthreadJoin(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
	if err, ok := m.cancelPoint(t); ok {
		return err
	}
	th := m.threadByID(a[0].Bits)
	switch {
	case th == nil:
		SetResult(res, ESRCH)
		return nil
	case th == t:
		SetResult(res, EDEADLK)
		return nil
	case th.detached || th.joined:
		SetResult(res, EINVAL)
		return nil
	}
	if th.status != exited {
		m.sync.block(t, waitKey{waitJoin, uint64(th.ID)})
		return errBlock
	}
	th.joined = true
	if m.mon != nil || m.weak != nil {
		m.emitSync(SyncEvent{Op: JoinThread, Thread: t.ID, Other: th.ID, Site: m.site(t, in.Loc)})
	}
	if a[1].Bits != 0 {
		if err := m.WriteUint(a[1].Bits, 8, th.exitVal); err != nil {
			return err
		}
	}
	SetResult(res, 0)
	return errYield
}

func mutexInit(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
	if err := m.setMem(a[0].Bits, 0, 40); err != nil {
		return err
	}
	SetResult(res, 0)
	if a[1].Bits == 0 {
		return nil
	}
	kind, err := m.SyncRead(a[1].Bits, 4)
	if err != nil {
		return err
	}
	return m.SyncWrite(a[0].Bits+mutexKind, 4, kind)
}

// acquire tries to take mutex mu for t, for a try-lock when tried. It
// returns the pthread error code and whether the mutex is held by another
// thread.
func (m *Machine) acquire(t *Thread, mu uint64, tried bool) (code uint64, busy bool, err error) {
	r := m.mutexAt(mu)
	l, err := r.get(mutexLock)
	if err != nil {
		return 0, false, err
	}
	kind, err := r.get(mutexKind)
	if err != nil {
		return 0, false, err
	}
	kind &= 3
	if l == 0 {
		if err := r.set(mutexLock, 1); err != nil {
			return 0, false, err
		}
		if err := r.set(mutexCount, 1); err != nil {
			return 0, false, err
		}
		m.syncEvent(t, Acquire, waitMutex, mu)
		m.lockAcquired(t, waitMutex, mu, tried)
		return 0, false, r.set(mutexOwner, tid(t))
	}
	owner, err := r.get(mutexOwner)
	if err != nil {
		return 0, false, err
	}
	if owner == tid(t) {
		switch kind {
		case mutexRecursive:
			c, _ := r.get(mutexCount)
			return 0, false, r.set(mutexCount, c+1)
		case mutexErrorCheck:
			return EDEADLK, false, nil
		}
	}
	return EBUSY, true, nil
}

// mutexLockFn models the locking of a mutex; a timed lock (LockTimed) reads
// its deadline from argument abstime.
func mutexLockFn(mode LockMode, abstime int) Native {
	return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		mu := a[0].Bits
		if mode == LockTry { // any held mutex, even our own, is EBUSY
			if l, err := m.SyncRead(mu+mutexLock, 4); err != nil {
				return err
			} else if l != 0 {
				if k, _ := m.SyncRead(mu+mutexKind, 4); k&3 != mutexRecursive {
					return m.tryFailed(t, res)
				}
			}
		}
		code, busy, err := m.acquire(t, mu, mode == LockTry)
		if err != nil {
			return err
		}
		if busy {
			var deadline uint64
			if mode == LockTimed {
				deadline = a[abstime].Bits
			}
			return m.lockBusy(t, waitKey{waitMutex, mu}, res, mode, deadline)
		}
		SetResult(res, code)
		return m.TookLock(t)
	}
}

// failedTriesPerPoint is how many try-locks in a row a thread fails for
// each preemption point among them: the first failure is none.
const failedTriesPerPoint = 2

// tryFailed ends a try-lock that found the lock taken: EBUSY, and a
// preemption point only at every failedTriesPerPoint-th failure in a row.
// A failure changes nothing another thread could see, and a switch at
// each made round robin run a try-lock back-off of two threads (take one
// lock, try the other, let go, again, as std::lock does) in step for
// ever: each failed to try the lock the other had just taken. Without the
// switch at the first failure, the failing thread lets go of its lock
// before the other tries it. The point at every second failure keeps a
// thread that spins on a try-lock from holding the processor for a whole
// time slice per hand-over.
//
// A thread whose last try-lock failed is backing off (std::lock's lock
// one, try the next, let go, begin with the one that was taken): tookLock
// lets it go on through its next acquisition.
func (m *Machine) tryFailed(t *Thread, res []Value) error {
	SetResult(res, EBUSY)
	t.failedTries++
	if t.failedTries%failedTriesPerPoint == 0 {
		return errYield
	}
	return nil
}

// tookLock ends a lock call that took its lock (a mutex's, a read-write
// lock's, a spin lock's) and returns the call's preemption point, errYield,
// or nil for none: a thread that is backing off from a failed try-lock
// goes on through the acquisition. A back-off takes its first lock and at
// once tries the next; round robin's switch between the two let the next
// thread take the lock this one was about to try, and three threads in
// std::lock over two mutexes (cpp_locks.cpp under a postponement) each
// found its second lock taken by the next thread, in step for ever: a
// hang that was the schedule's. The release that ends a failed attempt
// stays a point, so other threads still run between attempts.
func (t *Thread) tookLock() error {
	backingOff := t.failedTries > 0
	t.failedTries = 0
	if backingOff {
		return nil
	}
	return errYield
}

// lockBusy ends a lock call (a mutex's or a read-write lock's, waited for
// on key) that found the lock taken: at once with EBUSY for a try, with
// ETIMEDOUT at the deadline in the struct timespec at abstime for a timed lock, and
// otherwise when the lock is released (the call is retried then).
func (m *Machine) lockBusy(t *Thread, key waitKey, res []Value, mode LockMode, abstime uint64) error {
	switch mode {
	case LockTry:
		return m.tryFailed(t, res)
	case LockTimed:
		timedOut, err := m.timedBlock(t, key, abstime)
		if timedOut {
			SetResult(res, ETIMEDOUT)
			return errYield
		}
		return err
	}
	m.sync.block(t, key)
	return errBlock
}

// timedBlock makes t wait on key until the deadline in the struct timespec
// at abstime (on the virtual clock, as condWait reads it), for a call that
// found what it waits for taken. It reports timedOut when the wait is over
// without it: the deadline had passed, or the wait timed out (t.timedOut)
// and the call is retried; the call then returns its timeout. Otherwise t
// now waits and the error is errBlock (or why abstime could not be read).
// A wake-up before the deadline retries the call, which blocks again, with
// the same deadline, if another thread took what it waits for first.
func (m *Machine) timedBlock(t *Thread, key waitKey, abstime uint64) (timedOut bool, err error) {
	if t.timedOut {
		t.EndTimedWait()
		return true, nil
	}
	until, err := m.TimespecNs(abstime)
	if err != nil {
		return false, err
	}
	if until <= m.now() {
		t.EndTimedWait()
		return true, nil
	}
	t.timedWait, t.timedUntil = true, until
	m.sync.block(t, key)
	return false, errBlock
}

// EndTimedWait clears t's timed wait once its call has ended, whichever
// way.
func (t *Thread) EndTimedWait() {
	t.timedWait, t.timedOut, t.timedUntil = false, false, 0
}

// mutexWait describes a wait for mutex mu and who holds it, so a deadlock
// report shows the waits-for cycle.
func (m *Machine) mutexWait(mu uint64) string {
	desc := "mutex at " + m.DescribeAddr(mu)
	if owner, err := m.SyncRead(mu+mutexOwner, 4); err == nil && owner != 0 {
		desc += fmt.Sprintf(" held by thread %d", owner-1)
	}
	return desc
}

func mutexUnlock(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
	mu := a[0].Bits
	code, err := m.release(t, mu)
	SetResult(res, code)
	if err != nil {
		return err
	}
	return errYield
}

// release unlocks mutex mu held by t and wakes its waiters.
func (m *Machine) release(t *Thread, mu uint64) (uint64, error) {
	r := m.mutexAt(mu)
	l, err := r.get(mutexLock)
	if err != nil {
		return 0, err
	}
	kind, _ := r.get(mutexKind)
	owner, _ := r.get(mutexOwner)
	if l == 0 || owner != tid(t) {
		if kind&3 != mutexNormal {
			return EPERM, nil
		}
		if l == 0 {
			return 0, nil
		}
	}
	if kind&3 == mutexRecursive {
		c, _ := r.get(mutexCount)
		if c > 1 {
			return 0, r.set(mutexCount, c-1)
		}
	}
	m.syncEvent(t, Release, waitMutex, mu)
	m.syncEvent(t, LockReleased, waitMutex, mu)
	for _, f := range [...]uint64{mutexLock, mutexCount, mutexOwner} {
		if err := r.set(f, 0); err != nil {
			return 0, err
		}
	}
	m.sync.wake(waitKey{waitMutex, mu}, m)
	return 0, nil
}

// condWait models pthread_cond_wait in two phases: release the mutex and
// wait for a signal (phase 0 -> 1), then reacquire the mutex (phase 1).
// abstime is the argument holding a timed wait's deadline (a struct
// timespec on the virtual clock, which every clock id reads), or -1: the
// wait times out at that deadline (timedUntil) when nothing else wakes it
// first, and at once when it has passed.
func condWait(abstime int) Native {
	return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		cv, mu := a[0].Bits, a[1].Bits
		if t.phase == 0 {
			var until int64
			if abstime >= 0 {
				var err error
				if until, err = m.TimespecNs(a[abstime].Bits); err != nil {
					return err
				}
			}
			if err, ok := m.cancelPoint(t); ok {
				return err
			}
			code, err := m.release(t, mu)
			if err != nil {
				return err
			}
			if code != 0 {
				SetResult(res, code)
				return nil
			}
			t.phase = 1
			if abstime < 0 || until > m.now() {
				t.timedWait, t.timedUntil = abstime >= 0, until
				m.sync.block(t, waitKey{waitCond, cv})
				return errBlock
			}
			t.timedOut = true // the deadline has passed: reacquire at once
		}
		// Woken, timed out or not: waiting for the mutex again is not timed.
		t.timedWait, t.timedUntil = false, 0
		_, busy, err := m.acquire(t, mu, false)
		if err != nil {
			return err
		}
		if busy {
			m.sync.block(t, waitKey{waitMutex, mu})
			return errBlock
		}
		// The mutex is held again: a cancellation acts now, as POSIX says.
		if err, ok := m.cancelPoint(t); ok {
			return err
		}
		t.phase = 0
		if t.timedOut {
			t.timedOut = false
			SetResult(res, ETIMEDOUT)
		} else {
			SetResult(res, 0)
		}
		return errYield
	}
}

// onceFn models pthread_once: control 0 = not run, 1 = running, 2 = done.
// The routine runs as a frame whose return executes the call again.
func onceFn(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
	ctl := a[0].Bits
	st, err := m.SyncRead(ctl, 4)
	if err != nil {
		return err
	}
	switch {
	case st == 2:
		m.syncEvent(t, Acquire, waitOnce, ctl)
		SetResult(res, 0)
		return nil
	case st == 1 && t.onceAddr == ctl: // our routine returned
		t.onceAddr = 0
		m.syncEvent(t, Release, waitOnce, ctl)
		if err := m.SyncWrite(ctl, 4, 2); err != nil {
			return err
		}
		m.sync.wake(waitKey{waitOnce, ctl}, m)
		SetResult(res, 0)
		return errYield
	case st == 1:
		m.sync.block(t, waitKey{waitOnce, ctl})
		return errBlock
	}
	fn := m.funcAt(a[1].Bits)
	if fn == nil || fn.Decl {
		return terminate(TermCrash, SIGSEGV, "pthread_once: init routine 0x%x is not a function of the program", a[1].Bits)
	}
	if err := m.SyncWrite(ctl, 4, 1); err != nil {
		return err
	}
	t.onceAddr = ctl
	if err := m.pushFrame(t, fn, nil, nil, -3, in.Loc); err != nil {
		return err
	}
	return errPushed
}
