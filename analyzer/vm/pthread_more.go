package vm

import "augur/analyzer/ir"

// Read-write locks: readers @0, writer thread @4 (0: none). A timed lock
// (lockTimed) reads its deadline from argument abstime.
func registerRWLock() {
	rd := func(mode lockMode, abstime int) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			l := a[0].Bits
			w, err := m.syncRead(l+4, 4)
			if err != nil {
				return err
			}
			if w != 0 {
				if w == tid(t) {
					setRes(res, EDEADLK)
					return nil
				}
				return m.lockBusy(t, waitKey{waitRWLock, l}, a, res, mode, abstime)
			}
			t.endTimedWait()
			r, _ := m.syncRead(l, 4)
			setRes(res, 0)
			if err := m.syncWrite(l, 4, r+1); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitRWLock, l)
			return errYield
		}
	}
	wr := func(mode lockMode, abstime int) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			l := a[0].Bits
			r, err := m.syncRead(l, 4)
			if err != nil {
				return err
			}
			w, _ := m.syncRead(l+4, 4)
			if w == tid(t) {
				setRes(res, EDEADLK)
				return nil
			}
			if r != 0 || w != 0 {
				return m.lockBusy(t, waitKey{waitRWLock, l}, a, res, mode, abstime)
			}
			t.endTimedWait()
			setRes(res, 0)
			if err := m.syncWrite(l+4, 4, tid(t)); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitRWLock, l)
			m.syncEvent(t, Acquire, keyRWRead, l)
			m.syncEvent(t, LockAcquired, waitRWLock, l)
			return errYield
		}
	}
	register(rd(lockBlock, -1), "pthread_rwlock_rdlock").acquires()
	register(rd(lockTimed, 1), "pthread_rwlock_timedrdlock").acquires()
	register(rd(lockTimed, 2), "pthread_rwlock_clockrdlock").acquires()
	register(rd(lockTry, -1), "pthread_rwlock_tryrdlock")
	register(wr(lockBlock, -1), "pthread_rwlock_wrlock").acquires()
	register(wr(lockTimed, 1), "pthread_rwlock_timedwrlock").acquires()
	register(wr(lockTimed, 2), "pthread_rwlock_clockwrlock").acquires()
	register(wr(lockTry, -1), "pthread_rwlock_trywrlock")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, 0)
		return m.setMem(a[0].Bits, 0, 56)
	}, "pthread_rwlock_init")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		l := a[0].Bits
		w, err := m.syncRead(l+4, 4)
		if err != nil {
			return err
		}
		setRes(res, 0)
		if w != 0 {
			if w != tid(t) {
				setRes(res, EPERM)
				return nil
			}
			m.syncEvent(t, Release, waitRWLock, l)
			m.syncEvent(t, LockReleased, waitRWLock, l)
			err = m.syncWrite(l+4, 4, 0)
		} else {
			r, _ := m.syncRead(l, 4)
			if r == 0 {
				setRes(res, EPERM)
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
	}, "pthread_rwlock_unlock").releases()
}

// Spinlocks: an int, 0 free, else the owner's thread id. A spinning thread
// blocks instead of burning instructions.
func registerSpin() {
	lock := func(try bool) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			l := a[0].Bits
			v, err := m.syncRead(l, 4)
			if err != nil {
				return err
			}
			if v != 0 {
				if try {
					setRes(res, EBUSY)
					return errYield
				}
				m.sync.block(t, waitKey{waitSpin, l})
				return errBlock
			}
			setRes(res, 0)
			if err := m.syncWrite(l, 4, tid(t)); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitSpin, l)
			m.syncEvent(t, LockAcquired, waitSpin, l)
			return errYield
		}
	}
	register(lock(false), "pthread_spin_lock").acquires()
	register(lock(true), "pthread_spin_trylock")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, 0)
		return m.syncWrite(a[0].Bits, 4, 0)
	}, "pthread_spin_init")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, 0)
		m.syncEvent(t, Release, waitSpin, a[0].Bits)
		m.syncEvent(t, LockReleased, waitSpin, a[0].Bits)
		if err := m.syncWrite(a[0].Bits, 4, 0); err != nil {
			return err
		}
		m.sync.wake(waitKey{waitSpin, a[0].Bits}, m)
		return errYield
	}, "pthread_spin_unlock").releases()
}

// Thread-specific data. Destructors registered with pthread_key_create are
// not run at thread exit (a documented limitation).
func registerKeys() {
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		m.nextKey++
		setRes(res, 0)
		return m.writeUint(a[0].Bits, 4, m.nextKey)
	}, "pthread_key_create")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		for _, th := range m.threads {
			delete(th.keys, a[0].Bits)
		}
		setRes(res, 0)
		return nil
	}, "pthread_key_delete")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, t.keys[a[0].Bits])
		return nil
	}, "pthread_getspecific")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.keys == nil {
			t.keys = map[uint64]uint64{}
		}
		t.keys[a[0].Bits] = a[1].Bits
		setRes(res, 0)
		return nil
	}, "pthread_setspecific")
}

// POSIX semaphores: sem_t holds the value @0. Failures return -1 with errno.
func init() {
	// wait models sem_wait and its variants; a timed wait (lockTimed) reads
	// its deadline from argument abstime.
	wait := func(mode lockMode, abstime int) native {
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
					setRes(res, ir.Mask(32))
					return m.setErrno(t, EAGAIN)
				case mode == lockTimed:
					timedOut, err := m.timedBlock(t, waitKey{waitSem, s}, a[abstime].Bits)
					if !timedOut {
						return err
					}
					setRes(res, ir.Mask(32))
					if err := m.setErrno(t, ETIMEDOUT); err != nil {
						return err
					}
					return errYield
				}
				m.sync.block(t, waitKey{waitSem, s})
				return errBlock
			}
			t.endTimedWait()
			setRes(res, 0)
			if err := m.syncWrite(s, 4, v-1); err != nil {
				return err
			}
			m.syncEvent(t, Acquire, waitSem, s)
			return errYield
		}
	}
	register(wait(lockBlock, -1), "sem_wait").acquires()
	register(wait(lockTry, -1), "sem_trywait")
	register(wait(lockTimed, 1), "sem_timedwait")
	register(wait(lockTimed, 2), "sem_clockwait")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if err := m.setMem(a[0].Bits, 0, 32); err != nil {
			return err
		}
		setRes(res, 0)
		return m.syncWrite(a[0].Bits, 4, a[2].Bits)
	}, "sem_init")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
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
		setRes(res, 0)
		return errYield
	}, "sem_post").signals()
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		v, err := m.syncRead(a[0].Bits, 4)
		if err != nil {
			return err
		}
		setRes(res, 0)
		return m.writeUint(a[1].Bits, 4, v)
	}, "sem_getvalue")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, 0)
		return nil
	}, "sem_destroy")
}

// SV-COMP's atomic sections: __VERIFIER_atomic_begin/end bracket code that
// runs without preemption and as one critical section (functions named
// __VERIFIER_atomic_* get the same treatment in pushFrame).
func init() {
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.atomicDepth++
		m.syncEvent(t, Acquire, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_begin")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.atomicDepth > 0 {
			t.atomicDepth--
		}
		m.syncEvent(t, Release, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_end")
}
