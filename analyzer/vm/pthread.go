package vm

import "augur/analyzer/ir"

// The life of threads (create, join, exit, detach, yield), pthread_once,
// and the lock-call endings every lock model shares (tryFailed, tookLock,
// lockBusy, timedBlock): the machine's side of synchronization. The
// synchronization objects themselves (mutexes, condition variables,
// read-write locks, spin locks, semaphores, barriers) are package libc's
// (syncapi.go is what they use). Every synchronization call is a
// preemption point after it takes effect, but for a failed try-lock, which
// changes nothing (tryFailed); a call that must wait blocks the thread and
// is executed again when the thread is woken.

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

	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return nil
	}, "pthread_setname_np", "pthread_setschedparam")

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
