package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// syscall(2): the system calls a program makes by number rather than
// through a wrapper. Two are common in threaded code: futex, on which
// libstdc++ builds C++20's atomic wait and notify (and with them
// std::counting_semaphore, std::latch and std::barrier), and gettid, which
// logging code reads. Any other number ends the run as unsupported, named.

// The x86-64 system call numbers.
const (
	sysGettid = 186
	sysFutex  = 202
)

// futex(2)'s operations and flags.
const (
	futexWait          = 0
	futexWake          = 1
	futexWaitBitset    = 9
	futexWakeBitset    = 10
	futexPrivate       = 128
	futexClockRealtime = 256
)

// firstTID is the main thread's id, the process id (sandbox.c's getpid).
const firstTID = 4242

func (tab table) addFutex() {
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		switch a[0].Bits {
		case sysGettid:
			vm.SetResult(res, uint64(firstTID+t.ID))
			return nil
		case sysFutex:
			if len(a) < 4 {
				return vm.Unsupported("syscall(SYS_futex) with %d arguments", len(a)-1)
			}
			return futex(m, t, a[1:], res)
		}
		return vm.Unsupported("syscall(%d) is not modeled (only SYS_futex and SYS_gettid are)", int64(a[0].Bits))
	}, "syscall")
}

// futex waits and wakes on a 32-bit word of program memory: FUTEX_WAIT
// blocks while the word holds the expected value, until a FUTEX_WAKE on
// the same address or its timeout (relative for FUTEX_WAIT, absolute for
// FUTEX_WAIT_BITSET, on the one virtual clock); the bitsets are taken as
// all ones. A wake is a release and a woken wait an acquire on the word,
// as the kernel's lock orders them. The word is read as the kernel reads
// it, atomically: not a program access.
func futex(m Machine, t *vm.Thread, a, res []vm.Value) error {
	addr, op, val := a[0].Bits, a[1].Bits&^(futexPrivate|futexClockRealtime), a[2].Bits&0xffffffff
	switch op {
	case futexWake, futexWakeBitset:
		m.Sync(t, vm.Release, vm.FutexKey, addr)
		vm.SetResult(res, uint64(m.WakeN(vm.FutexKey, addr, int(int32(val)))))
		return m.Point()
	case futexWait, futexWaitBitset:
	default:
		return vm.Unsupported("futex operation %d is not modeled (FUTEX_WAIT, FUTEX_WAKE and their bitset forms are)", op)
	}
	if t.Phase() == 1 { // woken, or timed out
		t.SetPhase(0)
		if t.TimedOut() {
			t.EndTimedWait()
			return fail(m, t, res, vm.ETIMEDOUT)
		}
		t.EndTimedWait()
		m.Sync(t, vm.Acquire, vm.FutexKey, addr)
		vm.SetResult(res, 0)
		return nil
	}
	word, err := m.SyncRead(addr, 4)
	if err != nil {
		return err
	}
	if word != val {
		return fail(m, t, res, vm.EAGAIN)
	}
	timeout := uint64(0)
	if len(a) > 3 {
		timeout = a[3].Bits
	}
	t.SetPhase(1) // waiting: the call is made again when it ends
	var timedOut bool
	switch {
	case timeout == 0:
		return m.Block(t, vm.FutexKey, addr)
	case op == futexWait: // a relative timeout
		var d int64
		if d, err = m.TimespecNs(timeout); err != nil {
			return err
		}
		timedOut, err = m.BlockFor(t, vm.FutexKey, addr, d)
	default:
		timedOut, err = m.BlockUntil(t, vm.FutexKey, addr, timeout)
	}
	if timedOut { // the deadline had passed: no wait
		t.SetPhase(0)
		return fail(m, t, res, vm.ETIMEDOUT)
	}
	return err
}

// fail ends a call that fails as a system call does: -1 and errno.
func fail(m Machine, t *vm.Thread, res []vm.Value, errno int) error {
	vm.SetResult(res, ^uint64(0))
	return m.SetErrno(t, errno)
}
