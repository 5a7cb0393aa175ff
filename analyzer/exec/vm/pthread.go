package vm

import "augur/analyzer/frontend/ir"

// The life of threads (create, join, exit, detach, yield) and
// pthread_once: the machine's side of synchronization. The
// synchronization objects themselves (mutexes, condition variables,
// read-write locks, spin locks, semaphores, barriers) are package libc's
// (syncapi.go is what they use). Every synchronization call is a
// preemption point after it takes effect, but for a failed try-lock, which
// changes nothing (tryFailed); a call that must wait blocks the thread and
// is executed again when the thread is woken.

func tid(t *Thread) uint64 { return uint64(t.ID + 1) }

func (s *state) threadByID(id uint64) *Thread {
	if id == 0 || id > uint64(len(s.threads)) {
		return nil
	}
	return s.threads[id-1]
}

const (
	ESRCH = 3
)

// pthreadArg is the thread a call's pthread_t argument names; nil, with the
// call's result set to ESRCH, when no thread has that id.
func (m *Machine) pthreadArg(id uint64, res []Value) *Thread {
	th := m.threadByID(id)
	if th == nil {
		SetResult(res, ESRCH)
	}
	return th
}

func (tab *Models) addThreads() {
	tab.Register(pthreadCreate, "pthread_create").Local()
	tab.Register(joinThread(LockBlock), "pthread_join").Local()
	tab.Register(joinThread(LockTry), "pthread_tryjoin_np")
	tab.Register(joinThread(LockTimed), "pthread_timedjoin_np")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.exitThread(t, a[0].Bits) // after the cleanup handlers
	}, "pthread_exit").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, tid(t))
		return nil
	}, "pthread_self").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, b2u(a[0].Bits == a[1].Bits))
		return nil
	}, "pthread_equal").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		th := m.pthreadArg(a[0].Bits, res)
		if th == nil {
			return nil
		}
		th.detached = true
		SetResult(res, 0)
		return nil
	}, "pthread_detach")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return errYield
	}, "sched_yield", "pthread_yield")

	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return nil
	}, "pthread_setschedparam")
	tab.addThreadNames()

	tab.Register(onceFn, "pthread_once")
	tab.registerKeys()
}

func pthreadCreate(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
	fn := m.funcAt(a[2].Bits)
	if fn == nil || fn.Decl {
		return terminate(TermCrash, SIGSEGV, "pthread_create: start routine 0x%x is not a function of the program", a[2].Bits)
	}
	nt := m.newThread()
	nt.proc = t.proc
	nt.name = t.name             // Linux copies the creator's name into a new thread
	nt.clockReads = t.clockReads // a steady clock goes on from where its creator saw it
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

// joinThread models pthread_join, and in the modes of a lock call the GNU
// pthread_tryjoin_np (EBUSY at once while the thread runs, a failed try
// that programs poll) and pthread_timedjoin_np (ETIMEDOUT at the deadline
// in its struct timespec, on the virtual clock): a thread's exit is the
// release its joiner waits for.
func joinThread(mode LockMode) Native {
	return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if mode != LockTry { // tryjoin is no cancellation point
			if err, ok := m.cancelPoint(t); ok {
				return err
			}
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
			var abstime uint64
			if mode == LockTimed {
				abstime = a[2].Bits
			}
			return m.LockBusy(t, waitJoin, uint64(th.ID), mode, abstime, res)
		}
		t.EndTimedWait()
		th.joined = true
		// A steady clock never goes back in the joiner's view: it has seen
		// the joined thread's last reading (pthread_join orders them).
		t.clockReads = max(t.clockReads, th.clockReads)
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
	case st == 1 && t.returnedFromOnce(ctl):
		if err := m.endOnce(t, 2); err != nil {
			return err
		}
		SetResult(res, 0)
		return errYield
	case st == 1:
		// Another thread runs the routine, or this one calls pthread_once
		// on the control from inside its own routine, which never returns
		// in glibc either.
		m.sync.block(t, waitKey{waitOnce, ctl})
		return errBlock
	}
	fn := m.funcAt(a[1].Bits)
	if fn == nil || fn.Decl {
		return terminate(TermCrash, SIGSEGV, "pthread_once: init routine 0x%x is not a function of the program", a[1].Bits)
	}
	// A routine that threw before this one released the control at its
	// end (unwindFrame); the first start acquires nothing.
	m.syncEvent(t, Acquire, waitOnce, ctl)
	if err := m.SyncWrite(ctl, 4, 1); err != nil {
		return err
	}
	t.onces = append(t.onces, onceRun{ctl: ctl, depth: len(t.frames)})
	if err := m.pushFrame(t, fn, nil, nil, -3, in.Loc); err != nil {
		return err
	}
	return errPushed
}

// endOnce ends the pthread_once routine t runs innermost, leaving its
// control in state: 2 (done) when the routine returned, 0 (not run) when
// an exception left it (unwindFrame). Its end happens before whatever the
// threads waiting on the control do next, and they wake.
func (m *Machine) endOnce(t *Thread, state uint64) error {
	ctl := t.onces[len(t.onces)-1].ctl
	t.onces = t.onces[:len(t.onces)-1]
	m.syncEvent(t, Release, waitOnce, ctl)
	if err := m.SyncWrite(ctl, 4, state); err != nil {
		return err
	}
	m.sync.wake(waitKey{waitOnce, ctl}, m)
	return nil
}

// onceRun is a pthread_once routine a thread runs: its control, and how
// many frames the thread's stack had at the call, which the routine's
// return comes back to.
type onceRun struct {
	ctl   uint64
	depth int
}

// returnedFromOnce reports whether t executes its pthread_once call on
// ctl again because the routine it started there returned: the innermost
// routine t runs is ctl's, and t's stack is back at the call. A call on
// ctl from deeper inside that routine is not its return.
func (t *Thread) returnedFromOnce(ctl uint64) bool {
	n := len(t.onces)
	return n > 0 && t.onces[n-1].ctl == ctl && t.onces[n-1].depth == len(t.frames)
}
