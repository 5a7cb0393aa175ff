package vm

import "augur/analyzer/ir"

// Read-write locks: readers @0, writer thread @4 (0: none). A timed lock
// (lockTimed) reads its deadline from argument abstime.
func registerRWLock() {
	rd := func(mode lockMode, abstime int) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			l := a[0].Bits
			w, err := m.syncRead(l+4, 4)
			if err != nil {
				return err
			}
			if w != 0 {
				if w == tid(t) {
					SetResult(res, EDEADLK)
					return nil
				}
				return m.lockBusy(t, waitKey{waitRWLock, l}, a, res, mode, abstime)
			}
			t.endTimedWait()
			r, _ := m.syncRead(l, 4)
			SetResult(res, 0)
			if err := m.syncWrite(l, 4, r+1); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitRWLock, l)
			return t.tookLock()
		}
	}
	wr := func(mode lockMode, abstime int) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			l := a[0].Bits
			r, err := m.syncRead(l, 4)
			if err != nil {
				return err
			}
			w, _ := m.syncRead(l+4, 4)
			if w == tid(t) {
				SetResult(res, EDEADLK)
				return nil
			}
			if r != 0 || w != 0 {
				return m.lockBusy(t, waitKey{waitRWLock, l}, a, res, mode, abstime)
			}
			t.endTimedWait()
			SetResult(res, 0)
			if err := m.syncWrite(l+4, 4, tid(t)); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitRWLock, l)
			m.syncEvent(t, Acquire, keyRWRead, l)
			m.lockAcquired(t, waitRWLock, l, mode == lockTry)
			return t.tookLock()
		}
	}
	Register(rd(lockBlock, -1), "pthread_rwlock_rdlock").Acquires()
	Register(rd(lockTimed, 1), "pthread_rwlock_timedrdlock").Acquires()
	Register(rd(lockTimed, 2), "pthread_rwlock_clockrdlock").Acquires()
	Register(rd(lockTry, -1), "pthread_rwlock_tryrdlock")
	Register(wr(lockBlock, -1), "pthread_rwlock_wrlock").Acquires()
	Register(wr(lockTimed, 1), "pthread_rwlock_timedwrlock").Acquires()
	Register(wr(lockTimed, 2), "pthread_rwlock_clockwrlock").Acquires()
	Register(wr(lockTry, -1), "pthread_rwlock_trywrlock")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return m.setMem(a[0].Bits, 0, 56)
	}, "pthread_rwlock_init")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		l := a[0].Bits
		w, err := m.syncRead(l+4, 4)
		if err != nil {
			return err
		}
		SetResult(res, 0)
		if w != 0 {
			if w != tid(t) {
				SetResult(res, EPERM)
				return nil
			}
			m.syncEvent(t, Release, waitRWLock, l)
			m.syncEvent(t, LockReleased, waitRWLock, l)
			err = m.syncWrite(l+4, 4, 0)
		} else {
			r, _ := m.syncRead(l, 4)
			if r == 0 {
				SetResult(res, EPERM)
				return nil
			}
			m.syncEvent(t, ReleaseMerge, keyRWRead, l)
			err = m.syncWrite(l, 4, r-1)
		}
		if err != nil {
			return err
		}
		m.sync.wake(waitKey{waitRWLock, l}, m)
		return errYield
	}, "pthread_rwlock_unlock").Releases()
}

// Spinlocks: an int, 0 free, else the owner's thread id. A spinning thread
// blocks instead of burning instructions.
func registerSpin() {
	lock := func(try bool) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			l := a[0].Bits
			v, err := m.syncRead(l, 4)
			if err != nil {
				return err
			}
			if v != 0 {
				if try {
					return m.tryFailed(t, res)
				}
				m.sync.block(t, waitKey{waitSpin, l})
				return errBlock
			}
			SetResult(res, 0)
			if err := m.syncWrite(l, 4, tid(t)); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitSpin, l)
			m.lockAcquired(t, waitSpin, l, try)
			return t.tookLock()
		}
	}
	Register(lock(false), "pthread_spin_lock").Acquires()
	Register(lock(true), "pthread_spin_trylock")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return m.syncWrite(a[0].Bits, 4, 0)
	}, "pthread_spin_init")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		m.syncEvent(t, Release, waitSpin, a[0].Bits)
		m.syncEvent(t, LockReleased, waitSpin, a[0].Bits)
		if err := m.syncWrite(a[0].Bits, 4, 0); err != nil {
			return err
		}
		m.sync.wake(waitKey{waitSpin, a[0].Bits}, m)
		return errYield
	}, "pthread_spin_unlock").Releases()
}

// Thread-specific data. Destructors registered with pthread_key_create are
// not run at thread exit (a documented limitation).
func registerKeys() {
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		m.nextKey++
		SetResult(res, 0)
		return m.WriteUint(a[0].Bits, 4, m.nextKey)
	}, "pthread_key_create")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		for _, th := range m.threads {
			delete(th.keys, a[0].Bits)
		}
		SetResult(res, 0)
		return nil
	}, "pthread_key_delete")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, t.keys[a[0].Bits])
		return nil
	}, "pthread_getspecific")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.keys == nil {
			t.keys = map[uint64]uint64{}
		}
		t.keys[a[0].Bits] = a[1].Bits
		SetResult(res, 0)
		return nil
	}, "pthread_setspecific")
}

// POSIX semaphores: sem_t holds the value @0. Failures return -1 with errno.
func init() {
	// wait models sem_wait and its variants; a timed wait (lockTimed) reads
	// its deadline from argument abstime.
	wait := func(mode lockMode, abstime int) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			if mode != lockTry {
				if err, ok := m.cancelPoint(t); ok {
					return err
				}
			}
			s := a[0].Bits
			v, err := m.syncRead(s, 4)
			if err != nil {
				return err
			}
			if v == 0 {
				switch {
				case mode == lockTry:
					SetResult(res, ir.Mask(32))
					return m.SetErrno(t, EAGAIN)
				case mode == lockTimed:
					timedOut, err := m.timedBlock(t, waitKey{waitSem, s}, a[abstime].Bits)
					if !timedOut {
						return err
					}
					SetResult(res, ir.Mask(32))
					if err := m.SetErrno(t, ETIMEDOUT); err != nil {
						return err
					}
					return errYield
				}
				m.sync.block(t, waitKey{waitSem, s})
				return errBlock
			}
			t.endTimedWait()
			SetResult(res, 0)
			if err := m.syncWrite(s, 4, v-1); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitSem, s)
			return errYield
		}
	}
	Register(wait(lockBlock, -1), "sem_wait").Acquires()
	Register(wait(lockTry, -1), "sem_trywait")
	Register(wait(lockTimed, 1), "sem_timedwait")
	Register(wait(lockTimed, 2), "sem_clockwait")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if err := m.setMem(a[0].Bits, 0, 32); err != nil {
			return err
		}
		SetResult(res, 0)
		return m.syncWrite(a[0].Bits, 4, a[2].Bits)
	}, "sem_init")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		s := a[0].Bits
		v, err := m.syncRead(s, 4)
		if err != nil {
			return err
		}
		m.syncEvent(t, ReleaseMerge, waitSem, s)
		if err := m.syncWrite(s, 4, v+1); err != nil {
			return err
		}
		m.sync.wakeOne(waitKey{waitSem, s}, m)
		SetResult(res, 0)
		return errYield
	}, "sem_post").Signals()
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		v, err := m.syncRead(a[0].Bits, 4)
		if err != nil {
			return err
		}
		SetResult(res, 0)
		return m.WriteUint(a[1].Bits, 4, v)
	}, "sem_getvalue")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return nil
	}, "sem_destroy")
}

// SV-COMP's atomic sections: __VERIFIER_atomic_begin/end bracket code that
// runs without preemption and as one critical section (functions named
// __VERIFIER_atomic_* get the same treatment in pushFrame).
func init() {
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.atomicDepth++
		m.syncEvent(t, Acquire, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_begin")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.atomicDepth > 0 {
			t.atomicDepth--
		}
		m.syncEvent(t, Release, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_end")
}
