package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// timerfd: a timer behind a descriptor, which event loops wait on beside
// their sockets. It is an eventfd (net_eventfd.go) whose counter the
// virtual clock adds to: each expiry adds one, counted when a read or a
// readiness call looks (tick). A read takes the count and waits, as a
// timed wait, until the next expiry; poll, select and epoll see it
// readable once expired, and wait no longer than its expiry (pollWake).
// Every clock is the virtual one, as clock_gettime's are. Not modeled:
// TFD_TIMER_CANCEL_ON_SET (the clock is never set), and a poll that waits
// on a timer another thread then re-arms for later may end at the first
// expiry with nothing ready.

// timerfd flags.
const (
	tfdTimerAbstime = 1
	tfdNonblock     = 0o4000
)

// tick adds the expiries up to now to the timer's count and moves its
// expiry past now (or disarms a one-shot timer).
func (e *veventfd) tick(now int64) {
	if e.expiry == 0 || now < e.expiry {
		return
	}
	if e.interval > 0 {
		k := (now-e.expiry)/e.interval + 1
		e.count += uint64(k)
		e.expiry += k * e.interval
		return
	}
	e.count++
	e.expiry = 0
}

// timerReadiness is poll's bits for a timerfd: readable once expired.
// An armed one not yet expired sets the readiness call's wake-up.
func (m *machine) timerReadiness(e *veventfd) uint32 {
	e.tick(m.Now())
	if e.count > 0 {
		return pollIn | pollRdNorm
	}
	if n := m.net(); e.expiry != 0 && (n.pollWake == 0 || e.expiry < n.pollWake) {
		n.pollWake = e.expiry
	}
	return 0
}

func (tab table) addTimerFDs() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		switch a[0].Bits & 0xffffffff {
		case 0, 1, 7, 8, 9: // CLOCK_REALTIME, _MONOTONIC, _BOOTTIME, _REALTIME_ALARM, _BOOTTIME_ALARM
		default:
			return fail(m, t, res, vm.EINVAL)
		}
		n := m.net()
		id := n.id()
		n.events[id] = &veventfd{timer: true, refs: 1}
		vm.SetResult(res, uint64(m.newNetFD(&vfile{event: id, read: true, openDesc: m.files.newDesc(a[1].Bits&tfdNonblock != 0)}, a[1].Bits)))
		return nil
	}, "timerfd_create")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		id, e, errno := m.timerOf(a[0].Bits)
		if errno != 0 {
			return fail(m, t, res, errno)
		}
		interval, err := m.TimespecNs(a[2].Bits)
		if err != nil {
			return err
		}
		value, err := m.TimespecNs(a[2].Bits + 16)
		if err != nil {
			return err
		}
		if interval < 0 || value < 0 {
			return fail(m, t, res, vm.EINVAL)
		}
		if err := m.writeTimer(a[3].Bits, e); err != nil {
			return err
		}
		now := m.Now()
		e.count, e.interval, e.expiry = 0, interval, 0
		switch {
		case value == 0: // disarmed
		case a[1].Bits&tfdTimerAbstime != 0:
			e.expiry = max(value, 1)
		default:
			e.expiry = now + value
		}
		m.Wake(vm.PipeWaitKey, id) // readers wait for the new expiry
		m.netChanged(0, 0)
		vm.SetResult(res, 0)
		return nil
	}, "timerfd_settime")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		_, e, errno := m.timerOf(a[0].Bits)
		if errno != 0 {
			return fail(m, t, res, errno)
		}
		vm.SetResult(res, 0)
		return m.writeTimer(a[1].Bits, e)
	}, "timerfd_gettime")
}

// timerOf returns the timer of descriptor fd and its id, or the errno of a call on
// it: EBADF for no descriptor, EINVAL for one that is not a timerfd.
func (m *machine) timerOf(fd uint64) (uint64, *veventfd, int) {
	f := m.files.byFD[int(int32(fd))]
	if f == nil {
		return 0, nil, vm.EBADF
	}
	e := m.net().events[f.event]
	if e == nil || !e.timer {
		return 0, nil, vm.EINVAL
	}
	return f.event, e, 0
}

// writeTimer stores e's setting at p as a struct itimerspec: its period
// and the time left to its next expiry (zeros when disarmed). A null p
// writes nothing.
func (m *machine) writeTimer(p uint64, e *veventfd) error {
	if p == 0 {
		return nil
	}
	e.tick(m.Now())
	left := int64(0)
	if e.expiry != 0 {
		left = max(e.expiry-m.Now(), 1)
	}
	for i, ns := range [2]int64{e.interval, left} {
		if err := m.WriteUint(p+uint64(i)*16, 8, uint64(ns/1e9)); err != nil {
			return err
		}
		if err := m.WriteUint(p+uint64(i)*16+8, 8, uint64(ns%1e9)); err != nil {
			return err
		}
	}
	return nil
}
