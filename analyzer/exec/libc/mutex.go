package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Mutexes and condition variables. A mutex keeps glibc's struct
// __pthread_mutex_s (so PTHREAD_MUTEX_INITIALIZER and
// PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP work): the lock word, the
// recursion count, the owner and the kind. A condition variable keeps no
// state of its own: its waiters are the machine's queue.

// glibc's struct __pthread_mutex_s: __lock @0, __count @4, __owner @8, __kind @16.
const (
	mutexLock  = 0
	mutexCount = 4
	mutexOwner = 8
	mutexKind  = 16
)

// mutexSize is the extent of the fields the models use, __lock to __kind.
const mutexSize = mutexKind + 4

// mutexDestroyed is the kind glibc's pthread_mutex_destroy leaves, -1:
// until pthread_mutex_init makes it a mutex again, a lock, try-lock or
// unlock of it returns EINVAL and neither takes nor releases anything
// (glibc's lock and unlock find no kind they know). A program that goes
// on using a mutex it destroyed, or destroys one another thread may still
// lock, therefore runs its critical section unprotected, as it would
// natively.
const mutexDestroyed = 0xffffffff

// The mutex kinds (__kind & 3).
const (
	mutexNormal     = 0
	mutexRecursive  = 1
	mutexErrorCheck = 2
)

func (tab table) addMutexes() {
	tab.registerMutexAttr()
	tab.register(mutexInit, "pthread_mutex_init")
	tab.register(lockMutex(vm.LockBlock, -1), "pthread_mutex_lock").Acquires()
	tab.register(lockMutex(vm.LockTry, -1), "pthread_mutex_trylock").Acquires()
	tab.register(lockMutex(vm.LockTimed, 1), "pthread_mutex_timedlock").Acquires()
	tab.register(lockMutex(vm.LockTimed, 2), "pthread_mutex_clocklock").Acquires()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		code, err := release(m, t, a[0].Bits)
		vm.SetResult(res, code)
		if err != nil {
			return err
		}
		return m.Point()
	}, "pthread_mutex_unlock").Releases()
	tab.register(destroyMutex, "pthread_mutex_destroy")

	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return m.SetMem(a[0].Bits, 0, 48)
	}, "pthread_cond_init")
	tab.register(destroyLive(4), "pthread_cond_destroy")
	tab.register(condWait(-1), "pthread_cond_wait").Acquires()
	tab.register(condWait(2), "pthread_cond_timedwait").Acquires()
	tab.register(condWait(3), "pthread_cond_clockwait").Acquires()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if err := useLive(m, a[0].Bits, 4); err != nil {
			return err
		}
		m.WakeOne(vm.CondKey, a[0].Bits)
		vm.SetResult(res, 0)
		return m.Point()
	}, "pthread_cond_signal").Signals()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if err := useLive(m, a[0].Bits, 4); err != nil {
			return err
		}
		m.Wake(vm.CondKey, a[0].Bits)
		vm.SetResult(res, 0)
		return m.Point()
	}, "pthread_cond_broadcast").Signals()

	// Who holds a lock, for deadlock reports: a mutex's owner, a spin
	// lock's, a read-write lock's writer.
	holder := func(off uint64) vm.Holder {
		return func(m *vm.Machine, addr uint64) (uint64, error) { return m.SyncRead(addr+off, 4) }
	}
	tab.SetHolder(vm.MutexKey, holder(mutexOwner))
	tab.SetHolder(vm.SpinKey, holder(0))
	tab.SetHolder(vm.RWLockKey, holder(4))
}

// registerMutexAttr registers the attribute objects of mutexes and the
// other synchronization objects: plain data, of which only a mutex's kind
// (the int at offset 0) means anything here.
func (tab table) registerMutexAttr() {
	ok := func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return nil
	}
	tab.register(ok, "pthread_mutexattr_destroy", "pthread_mutexattr_setpshared",
		"pthread_mutexattr_setprotocol", "pthread_mutexattr_setrobust", "pthread_condattr_init",
		"pthread_condattr_destroy", "pthread_condattr_setpshared", "pthread_condattr_setclock",
		"pthread_rwlockattr_init", "pthread_rwlockattr_destroy", "pthread_rwlockattr_setpshared",
		"pthread_barrierattr_init", "pthread_barrierattr_destroy", "pthread_barrierattr_setpshared")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		v, err := m.SyncRead(a[0].Bits, 4)
		vm.SetResult(res, 0)
		if err != nil {
			return err
		}
		return m.WriteUint(a[1].Bits, 4, v)
	}, "pthread_mutexattr_gettype")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, 0)
	}, "pthread_mutexattr_init")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if a[1].Bits > mutexErrorCheck+1 {
			vm.SetResult(res, vm.EINVAL)
			return nil
		}
		vm.SetResult(res, 0)
		return m.SyncWrite(a[0].Bits, 4, a[1].Bits)
	}, "pthread_mutexattr_settype")
}

func mutexInit(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	if err := m.SetMem(a[0].Bits, 0, 40); err != nil {
		return err
	}
	vm.SetResult(res, 0)
	if a[1].Bits == 0 {
		return nil
	}
	kind, err := m.SyncRead(a[1].Bits, 4)
	if err != nil {
		return err
	}
	return m.SyncWrite(a[0].Bits+mutexKind, 4, kind)
}

// destroyMutex models pthread_mutex_destroy. The race detector sees it as
// a write of the mutex and each lock of it as a read (useObject),
// as ThreadSanitizer does: a destroy that another thread's lock is not
// ordered before is a data race, and POSIX leaves it undefined. A held
// mutex is not destroyed (EBUSY, as glibc answers while it has users).
func destroyMutex(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	mu := a[0].Bits
	l, err := m.SyncRead(mu+mutexLock, 4)
	if err != nil {
		return err
	}
	destroyObject(m, mu)
	if l != 0 {
		vm.SetResult(res, vm.EBUSY)
		return nil
	}
	vm.SetResult(res, 0)
	return m.SyncWrite(mu+mutexKind, 4, mutexDestroyed)
}

// useMutex reports a lock of mutex mu to the race detector (useObject):
// a lock that took the mutex, or found it destroyed. An attempt that
// finds it held is not reported: the holder's lock is, and the attempt
// that takes it later will be; reporting it would make the reads of
// waiting threads concurrent with the holder's, a list the detector keeps
// and searches at every lock. Nor is an unlock: the lock before it is, at
// the same place in the order of the thread's synchronization, and
// another detector access per unlock would cost every lock-heavy program.
// The other locks (read-write and spin locks) follow the same rule.
func useMutex(m Machine, mu uint64) { useObject(m, mu) }

// acquire tries to take mutex mu for t, for a try-lock when tried. It
// returns the pthread error code and whether the mutex is held by another
// thread.
func acquire(m Machine, t *vm.Thread, mu uint64, tried bool) (code uint64, busy bool, err error) {
	r := m.SyncWords(mu, mutexSize)
	l, err := r.Get(mutexLock)
	if err != nil {
		return 0, false, failedUse(m, mu, err)
	}
	kind, err := r.Get(mutexKind)
	if err != nil {
		return 0, false, failedUse(m, mu, err)
	}
	if kind == mutexDestroyed {
		useMutex(m, mu)
		return vm.EINVAL, false, nil
	}
	kind &= 3
	if l == 0 {
		if err := r.Set(mutexLock, 1); err != nil {
			return 0, false, err
		}
		if err := r.Set(mutexCount, 1); err != nil {
			return 0, false, err
		}
		m.Sync(t, vm.Acquire, vm.MutexKey, mu)
		m.NoteLock(t, vm.MutexKey, mu, tried)
		useMutex(m, mu)
		return 0, false, r.Set(mutexOwner, vm.Owner(t))
	}
	owner, err := r.Get(mutexOwner)
	if err != nil {
		return 0, false, err
	}
	if owner == vm.Owner(t) {
		switch kind {
		case mutexRecursive:
			c, _ := r.Get(mutexCount)
			return 0, false, r.Set(mutexCount, c+1)
		case mutexErrorCheck:
			return vm.EDEADLK, false, nil
		}
	}
	return vm.EBUSY, true, nil
}

// lockMutex models the locking of a mutex; a timed lock (LockTimed) reads
// its deadline from argument abstime.
func lockMutex(mode vm.LockMode, abstime int) model {
	return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		mu := a[0].Bits
		if mode == vm.LockTry { // any held mutex, even our own, is EBUSY
			if l, err := m.SyncRead(mu+mutexLock, 4); err != nil {
				return err
			} else if l != 0 {
				if k, _ := m.SyncRead(mu+mutexKind, 4); k&3 != mutexRecursive {
					return m.LockBusy(t, vm.MutexKey, mu, mode, 0, res)
				}
			}
		}
		code, busy, err := acquire(m, t, mu, mode == vm.LockTry)
		if err != nil {
			return err
		}
		if busy {
			return m.LockBusy(t, vm.MutexKey, mu, mode, deadline(a, abstime), res)
		}
		vm.SetResult(res, code)
		return m.TookLock(t)
	}
}

// release unlocks mutex mu held by t and wakes its waiters.
func release(m Machine, t *vm.Thread, mu uint64) (uint64, error) {
	r := m.SyncWords(mu, mutexSize)
	l, err := r.Get(mutexLock)
	if err != nil {
		return 0, err
	}
	kind, _ := r.Get(mutexKind)
	if kind == mutexDestroyed {
		return vm.EINVAL, nil
	}
	owner, _ := r.Get(mutexOwner)
	if l == 0 || owner != vm.Owner(t) {
		if kind&3 != mutexNormal {
			return vm.EPERM, nil
		}
		if l == 0 {
			return 0, nil
		}
	}
	if kind&3 == mutexRecursive {
		c, _ := r.Get(mutexCount)
		if c > 1 {
			return 0, r.Set(mutexCount, c-1)
		}
	}
	m.Sync(t, vm.Release, vm.MutexKey, mu)
	m.Sync(t, vm.LockReleased, vm.MutexKey, mu)
	for _, f := range [...]uint64{mutexLock, mutexCount, mutexOwner} {
		if err := r.Set(f, 0); err != nil {
			return 0, err
		}
	}
	m.Wake(vm.MutexKey, mu)
	return 0, nil
}

// The phases of a condition wait (Thread.Phase): waiting for a signal, then
// taking the mutex again after a signal or after the deadline.
const (
	condSignaled = 1
	condTimedOut = 2
)

// condWait models pthread_cond_wait: release the mutex and wait for a
// signal, then take the mutex again, waiting for it if need be. abstime is
// the argument holding a timed wait's deadline (a struct timespec on the
// virtual clock, which every clock id reads), or -1: the wait times out at
// that deadline when nothing else wakes it first, and at once when it has
// passed (a deadline that cannot be read ends the run after the mutex is
// released). A cancellation acts before the wait and once the mutex is
// held again, as POSIX says.
func condWait(abstime int) model {
	return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		cv, mu := a[0].Bits, a[1].Bits
		switch t.Phase() {
		case 0:
			if err, ok := m.CancelPoint(t); ok {
				return err
			}
			// The wait uses the condition before it lets the mutex go, so
			// that whoever takes the mutex next is ordered after the use.
			if err := useLive(m, cv, 4); err != nil {
				return err
			}
			code, err := release(m, t, mu)
			if err != nil {
				return err
			}
			if code != 0 {
				vm.SetResult(res, code)
				return nil
			}
			t.SetPhase(condSignaled)
			if abstime < 0 {
				return m.Block(t, vm.CondKey, cv)
			}
			// The deadline is read once, here: a wait that read it twice
			// made two identical reads at one call, which the classifier
			// takes for a spin.
			if timedOut, err := m.BlockUntil(t, vm.CondKey, cv, a[abstime].Bits); !timedOut {
				return err
			}
			t.SetPhase(condTimedOut)
		case condSignaled:
			if t.TimedOut() {
				t.SetPhase(condTimedOut)
			}
		}
		// Woken, timed out or not: waiting for the mutex again is not timed.
		t.EndTimedWait()
		_, busy, err := acquire(m, t, mu, false)
		if err != nil {
			return err
		}
		if busy {
			return m.Block(t, vm.MutexKey, mu)
		}
		if err, ok := m.CancelPoint(t); ok {
			return err
		}
		vm.SetResult(res, 0)
		if t.Phase() == condTimedOut {
			vm.SetResult(res, vm.ETIMEDOUT)
		}
		t.SetPhase(0)
		return m.Point()
	}
}
