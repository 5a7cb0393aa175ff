package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// The POSIX synchronization objects other than mutexes and condition
// variables: read-write locks, spin locks, semaphores and barriers. Each
// keeps its state in the object's own memory (SyncRead, SyncWrite), with
// glibc's layout where a program could look, so that a zeroed or statically
// initialized object works; the machine keeps the queues of the threads
// waiting on it. Every call that changes an object is a preemption point
// after it takes effect, and reports the ordering it makes to the race
// detector (Sync) as a lock or a signal does.

// deadline is a timed call's struct timespec pointer, argument abstime, or
// 0 when the call is not timed (abstime < 0).
func deadline(a []vm.Value, abstime int) uint64 {
	if abstime < 0 {
		return 0
	}
	return a[abstime].Bits
}

func (tab table) addSync() {
	tab.registerRWLock()
	tab.registerSpin()
	tab.registerSem()
	tab.registerBarrier()
}

// ownHeld is what locking a read-write lock the thread holds for writing
// returns, as glibc does: EBUSY from a try, which never waits, EDEADLK from
// a lock that would wait for itself.
func ownHeld(mode vm.LockMode) uint64 {
	if mode == vm.LockTry {
		return vm.EBUSY
	}
	return vm.EDEADLK
}

// Read-write locks: readers @0, writer's owner @4 (0: none). A timed lock
// (LockTimed) reads its deadline from argument abstime.
func (tab table) registerRWLock() {
	rd := func(mode vm.LockMode, abstime int) model {
		return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			l := a[0].Bits
			w, err := m.SyncRead(l+4, 4)
			if err != nil {
				return failedUse(m, l, err)
			}
			if w != 0 {
				if w == vm.Owner(t) {
					vm.SetResult(res, ownHeld(mode))
					return nil
				}
				return m.LockBusy(t, vm.RWLockKey, l, mode, deadline(a, abstime), res)
			}
			r, _ := m.SyncRead(l, 4)
			vm.SetResult(res, 0)
			if err := m.SyncWrite(l, 4, r+1); err != nil {
				return err
			}
			m.Sync(t, vm.Acquire, vm.RWLockKey, l)
			useObject(m, l)
			return m.TookLock(t)
		}
	}
	wr := func(mode vm.LockMode, abstime int) model {
		return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			l := a[0].Bits
			r, err := m.SyncRead(l, 4)
			if err != nil {
				return failedUse(m, l, err)
			}
			w, _ := m.SyncRead(l+4, 4)
			if w == vm.Owner(t) {
				vm.SetResult(res, ownHeld(mode))
				return nil
			}
			if r != 0 || w != 0 {
				return m.LockBusy(t, vm.RWLockKey, l, mode, deadline(a, abstime), res)
			}
			vm.SetResult(res, 0)
			if err := m.SyncWrite(l+4, 4, vm.Owner(t)); err != nil {
				return err
			}
			m.Sync(t, vm.Acquire, vm.RWLockKey, l)
			m.Sync(t, vm.Acquire, vm.RWReadKey, l)
			m.NoteLock(t, vm.RWLockKey, l, mode == vm.LockTry)
			useObject(m, l)
			return m.TookLock(t)
		}
	}
	tab.register(rd(vm.LockBlock, -1), "pthread_rwlock_rdlock").Acquires()
	tab.register(rd(vm.LockTimed, 1), "pthread_rwlock_timedrdlock").Acquires()
	tab.register(rd(vm.LockTimed, 2), "pthread_rwlock_clockrdlock").Acquires()
	tab.register(rd(vm.LockTry, -1), "pthread_rwlock_tryrdlock")
	tab.register(wr(vm.LockBlock, -1), "pthread_rwlock_wrlock").Acquires()
	tab.register(wr(vm.LockTimed, 1), "pthread_rwlock_timedwrlock").Acquires()
	tab.register(wr(vm.LockTimed, 2), "pthread_rwlock_clockwrlock").Acquires()
	tab.register(wr(vm.LockTry, -1), "pthread_rwlock_trywrlock")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return m.SetMem(a[0].Bits, 0, 56)
	}, "pthread_rwlock_init")
	tab.register(destroyLive(8), "pthread_rwlock_destroy")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		l := a[0].Bits
		w, err := m.SyncRead(l+4, 4)
		if err != nil {
			return err
		}
		vm.SetResult(res, 0)
		if w != 0 {
			if w != vm.Owner(t) {
				vm.SetResult(res, vm.EPERM)
				return nil
			}
			m.Sync(t, vm.Release, vm.RWLockKey, l)
			m.Sync(t, vm.LockReleased, vm.RWLockKey, l)
			err = m.SyncWrite(l+4, 4, 0)
		} else {
			r, _ := m.SyncRead(l, 4)
			if r == 0 {
				vm.SetResult(res, vm.EPERM)
				return nil
			}
			m.Sync(t, vm.ReleaseMerge, vm.RWReadKey, l)
			err = m.SyncWrite(l, 4, r-1)
		}
		if err != nil {
			return err
		}
		m.Wake(vm.RWLockKey, l)
		return m.Point()
	}, "pthread_rwlock_unlock").Releases()
}

// Spin locks: an int, 0 free, else the owner. A spinning thread blocks
// instead of burning instructions.
func (tab table) registerSpin() {
	lock := func(try bool) model {
		return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			l := a[0].Bits
			v, err := m.SyncRead(l, 4)
			if err != nil {
				return failedUse(m, l, err)
			}
			if v != 0 {
				mode := vm.LockBlock
				if try {
					mode = vm.LockTry
				}
				return m.LockBusy(t, vm.SpinKey, l, mode, 0, res)
			}
			vm.SetResult(res, 0)
			if err := m.SyncWrite(l, 4, vm.Owner(t)); err != nil {
				return err
			}
			m.Sync(t, vm.Acquire, vm.SpinKey, l)
			m.NoteLock(t, vm.SpinKey, l, try)
			useObject(m, l)
			return m.TookLock(t)
		}
	}
	tab.register(lock(false), "pthread_spin_lock").Acquires()
	tab.register(lock(true), "pthread_spin_trylock")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, 0)
	}, "pthread_spin_init")
	tab.register(destroyLive(4), "pthread_spin_destroy")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		l := a[0].Bits
		vm.SetResult(res, 0)
		m.Sync(t, vm.Release, vm.SpinKey, l)
		m.Sync(t, vm.LockReleased, vm.SpinKey, l)
		if err := m.SyncWrite(l, 4, 0); err != nil {
			return err
		}
		m.Wake(vm.SpinKey, l)
		return m.Point()
	}, "pthread_spin_unlock").Releases()
}

// POSIX semaphores: sem_t holds the value @0. Failures return -1 with
// errno.
func (tab table) registerSem() {
	// wait models sem_wait and its variants; a timed wait (LockTimed) reads
	// its deadline from argument abstime.
	wait := func(mode vm.LockMode, abstime int) model {
		return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			if mode != vm.LockTry {
				if err, ok := m.CancelPoint(t); ok {
					return err
				}
			}
			s := a[0].Bits
			v, err := m.SyncRead(s, 4)
			if err != nil {
				return failedUse(m, s, err)
			}
			if v == 0 {
				switch mode {
				case vm.LockTry:
					vm.SetResult(res, ir.Mask(32))
					if err := m.SetErrno(t, vm.EAGAIN); err != nil {
						return err
					}
					return m.TryFailed(t)
				case vm.LockTimed:
					timedOut, err := m.BlockUntil(t, vm.SemKey, s, deadline(a, abstime))
					if !timedOut {
						return err
					}
					vm.SetResult(res, ir.Mask(32))
					if err := m.SetErrno(t, vm.ETIMEDOUT); err != nil {
						return err
					}
					return m.Point()
				}
				return m.Block(t, vm.SemKey, s)
			}
			vm.SetResult(res, 0)
			if err := m.SyncWrite(s, 4, v-1); err != nil {
				return err
			}
			m.Sync(t, vm.Acquire, vm.SemKey, s)
			useObject(m, s)
			return m.TookLock(t)
		}
	}
	tab.register(wait(vm.LockBlock, -1), "sem_wait").Acquires()
	tab.register(wait(vm.LockTry, -1), "sem_trywait")
	tab.register(wait(vm.LockTimed, 1), "sem_timedwait")
	tab.register(wait(vm.LockTimed, 2), "sem_clockwait")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if err := m.SetMem(a[0].Bits, 0, 32); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, a[2].Bits)
	}, "sem_init")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		s := a[0].Bits
		v, err := m.SyncRead(s, 4)
		if err != nil {
			return failedUse(m, s, err)
		}
		useObject(m, s)
		m.Sync(t, vm.ReleaseMerge, vm.SemKey, s)
		if err := m.SyncWrite(s, 4, v+1); err != nil {
			return err
		}
		m.WakeOne(vm.SemKey, s)
		vm.SetResult(res, 0)
		return m.Point()
	}, "sem_post").Signals()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		v, err := m.SyncRead(a[0].Bits, 4)
		if err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return m.WriteUint(a[1].Bits, 4, v)
	}, "sem_getvalue")
	tab.register(destroyLive(4), "sem_destroy")
}

// barrierSerial is PTHREAD_BARRIER_SERIAL_THREAD, what pthread_barrier_wait
// returns to the thread that opened the barrier.
const barrierSerial = 0xffffffff

// Barriers: pthread_barrier_t holds the count @0, the threads arrived @4
// and the generation @8. A waiting thread's phase is the generation it
// arrived in, plus one: woken, it leaves once the generation has moved on.
func (tab table) registerBarrier() {
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if a[2].Bits == 0 {
			vm.SetResult(res, vm.EINVAL)
			return nil
		}
		if err := m.SetMem(a[0].Bits, 0, 32); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, a[2].Bits)
	}, "pthread_barrier_init")
	tab.register(barrierWait, "pthread_barrier_wait")
	tab.register(destroyLive(12), "pthread_barrier_destroy")
}

func barrierWait(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	b := a[0].Bits
	gen, err := m.SyncRead(b+8, 4)
	if err != nil {
		return failedUse(m, b, err)
	}
	if t.Phase() != 0 { // woken: has the barrier opened since we arrived?
		if uint64(t.Phase()-1) != gen {
			t.SetPhase(0)
			m.Sync(t, vm.Acquire, vm.BarrierKey, b)
			vm.SetResult(res, 0)
			return m.Point()
		}
		return m.Block(t, vm.BarrierKey, b)
	}
	useObject(m, b) // on arrival, before the barrier orders anything after it
	count, _ := m.SyncRead(b, 4)
	arrived, _ := m.SyncRead(b+4, 4)
	arrived++
	m.Sync(t, vm.ReleaseMerge, vm.BarrierKey, b)
	if arrived >= count {
		m.Sync(t, vm.Acquire, vm.BarrierKey, b)
		if err := m.SyncWrite(b+4, 4, 0); err != nil {
			return err
		}
		if err := m.SyncWrite(b+8, 4, gen+1); err != nil {
			return err
		}
		m.Wake(vm.BarrierKey, b)
		vm.SetResult(res, barrierSerial)
		return m.Point()
	}
	if err := m.SyncWrite(b+4, 4, arrived); err != nil {
		return err
	}
	t.SetPhase(int(gen) + 1)
	return m.Block(t, vm.BarrierKey, b)
}

// Every synchronization object is reported to the race detector as
// ThreadSanitizer reports it: each call that uses the object (a lock that
// takes it, a wait, a signal, a post, a barrier's arrival) as a read of
// its first byte, its destroy as a write. A destroy that another thread's
// use is not ordered before is then a data race: POSIX leaves it
// undefined, and if the object's memory is freed next, the late use
// touches freed memory, which the alternate order of the race shows.

// useObject reports a use of the synchronization object at addr.
func useObject(m Machine, addr uint64) { m.NoteAccess(addr, 1, vm.Read) }

// destroyObject reports the destroy of the synchronization object at addr.
func destroyObject(m Machine, addr uint64) { m.NoteAccess(addr, 1, vm.Write) }

// failedUse reports a use of the object at addr whose memory could not
// be read (err, freed memory above all), and returns err, which ends the
// execution. The use is what the object's free raced with: reported, the
// detector names that race with the free (race.Detector.afterFree), as it
// does for a program's own load of freed memory, and the enumeration's
// reduction sees the failing step touch the object, so it runs the use
// before the free too.
func failedUse(m Machine, addr uint64, err error) error {
	useObject(m, addr)
	return err
}

// useLive reports a use of the object at addr by a call that keeps no
// state in it here (a condition's signal, a wait's start), after reading
// its first size bytes as glibc's call would: a use of freed memory is
// then the memory error it is natively.
func useLive(m Machine, addr uint64, size int) error {
	if _, err := m.SyncRead(addr, size); err != nil {
		return failedUse(m, addr, err)
	}
	useObject(m, addr)
	return nil
}

// destroyLive models the destroy of an object glibc's destroy leaves as
// it is (a condition variable, a read-write lock, a spin lock, a
// semaphore, a barrier: glibc checks nothing and changes nothing a later
// use would notice), so a use after it behaves as it would natively. It
// reads the object's first size bytes, so that destroying freed memory is
// a memory error, and returns 0.
func destroyLive(size int) model {
	return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		destroyObject(m, a[0].Bits)
		if _, err := m.SyncRead(a[0].Bits, size); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return nil
	}
}
