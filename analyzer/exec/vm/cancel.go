package vm

import "augur/analyzer/frontend/ir"

// Thread cancellation (deferred, as POSIX's default). pthread_cancel marks
// the target; the target acts on it at its next cancellation point
// (pthread_testcancel, pthread_join, pthread_cond_wait and timedwait,
// sem_wait, the sleeps), woken first if it is blocked in one. Acting on it
// runs the cleanup handlers pthread_cleanup_push registered, innermost
// first: glibc's C macros register a buffer filled by __sigsetjmp, and the
// machine longjmps into each handler's frame, whose code runs the handler
// and calls __pthread_unwind_next for the next one; pthread_exit runs them
// the same way. Then the thread exits with PTHREAD_CANCELED (or
// pthread_exit's value). Asynchronous cancellation is treated as deferred;
// C++ code's cleanup objects are not run by a cancellation (glibc unwinds
// them with a forced exception, which augur does not model), and the other
// POSIX cancellation points (read, write, ...) are not points here.

const (
	pthreadCanceled        = ^uint64(0) // PTHREAD_CANCELED, (void *)-1
	pthreadCancelDisable   = 1
	pthreadCancelAsync     = 1
	cancelStateArg, oldArg = 0, 1
)

// cancelPoint acts on a pending cancellation of t, if any: ok is false when
// there is none and the call goes on.
func (m *Machine) cancelPoint(t *Thread) (err error, ok bool) {
	if !t.cancelPending || t.cancelDisabled {
		return nil, false
	}
	t.cancelPending = false
	t.phase, t.timedWait, t.timedOut, t.timedUntil = 0, false, false, 0
	return m.exitThread(t, pthreadCanceled), true
}

// exitThread ends t with value v after its cleanup handlers: the next
// handler's frame is resumed (errJumped), or the thread exits (errExited).
func (m *Machine) exitThread(t *Thread, v uint64) error {
	t.exiting, t.exitVal = true, v
	return m.unwindCleanup(t)
}

// unwindCleanup runs t's innermost cleanup handler, or exits t when none
// is left.
func (m *Machine) unwindCleanup(t *Thread) error {
	if n := len(t.cleanup); n > 0 {
		buf := t.cleanup[n-1]
		t.cleanup = t.cleanup[: n-1 : n-1]
		return m.longjmp(t, buf, 1)
	}
	t.exiting = false
	m.dropFrames(t)
	switch exited, err := m.finishExit(t); {
	case err != nil:
		return err
	case !exited:
		return errPushed // a destructor runs; its return goes on with the exit
	}
	return errExited
}

// interrupt wakes t from whatever it is blocked in, so it reaches its
// cancellation point again.
func (s *state) interrupt(t *Thread) {
	if t.status != blocked {
		return
	}
	s.sync.remove(t.ID)
	if t.wakeAt != 0 {
		s.endSleep(t)
	}
	t.status, t.waitDesc, t.waiting = runnable, "", false
}

func (tab *Models) addCancel() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		th := m.threadByID(a[0].Bits)
		if th == nil || th.status == exited {
			SetResult(res, ESRCH)
			return nil
		}
		SetResult(res, 0)
		th.cancelPending = true
		if !th.cancelDisabled && th != t {
			m.interrupt(th)
		}
		if th == t {
			if err, ok := m.cancelPoint(t); ok {
				return err
			}
		}
		return errYield
	}, "pthread_cancel")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		if err, ok := m.cancelPoint(t); ok {
			return err
		}
		return nil
	}, "pthread_testcancel")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		state := a[0].Bits & 0xffffffff
		if state > pthreadCancelDisable {
			SetResult(res, EINVAL)
			return nil
		}
		if a[1].Bits != 0 {
			old := uint64(0)
			if t.cancelDisabled {
				old = pthreadCancelDisable
			}
			if err := m.WriteUint(a[1].Bits, 4, old); err != nil {
				return err
			}
		}
		t.cancelDisabled = state == pthreadCancelDisable
		SetResult(res, 0)
		return nil
	}, "pthread_setcancelstate")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if a[0].Bits&0xffffffff > pthreadCancelAsync {
			SetResult(res, EINVAL)
			return nil
		}
		SetResult(res, 0)
		if a[1].Bits != 0 {
			return m.WriteUint(a[1].Bits, 4, 0) // always deferred
		}
		return nil
	}, "pthread_setcanceltype")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.cleanup = append(t.cleanup[:len(t.cleanup):len(t.cleanup)], a[0].Bits)
		return nil
	}, "__pthread_register_cancel")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if n := len(t.cleanup); n > 0 && t.cleanup[n-1] == a[0].Bits {
			t.cleanup = t.cleanup[: n-1 : n-1]
		}
		return nil
	}, "__pthread_unregister_cancel")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if !t.exiting { // the handler ran from pthread_cleanup_pop's code path
			return terminate(TermCrash, SIGSEGV, "__pthread_unwind_next called outside a cancellation")
		}
		return m.unwindCleanup(t)
	}, "__pthread_unwind_next")
}
