package libc

import (
	"encoding/binary"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// eventfd: a 64-bit counter behind a descriptor, which threads (and
// libevent's loops) use to wake each other. A read takes the counter (or
// one, in semaphore mode) and blocks while it is 0; a write adds to it and
// blocks while that would pass the largest value. It orders the writer
// before the reader, like a pipe, and poll, select and epoll see it.

// veventfd is one eventfd's state.
type veventfd struct {
	count     uint64
	semaphore bool
	refs      int // open descriptions
	// A timerfd (net_timerfd.go) is an eventfd whose counter the virtual
	// clock adds to: expiry is when it next expires (0: disarmed),
	// interval its period (0: once).
	timer            bool
	expiry, interval int64
}

// eventMax is the largest value an eventfd's counter holds.
const eventMax = 0xfffffffffffffffe

// eventfd flags.
const (
	efdSemaphore = 1
	efdNonblock  = 0o4000
)

func (tab table) addEventFDs() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		n := m.net()
		id := n.id()
		n.events[id] = &veventfd{count: a[0].Bits & 0xffffffff, semaphore: a[1].Bits&efdSemaphore != 0, refs: 1}
		vm.SetResult(res, uint64(m.newNetFD(&vfile{event: id, read: true, write: true, openDesc: m.files.newDesc(a[1].Bits&efdNonblock != 0)}, a[1].Bits)))
		return nil
	}, "eventfd")
}

// eventRead takes the counter of f's eventfd into the 8 bytes at p.
func (m *machine) eventRead(t *vm.Thread, in *ir.Inst, f *vfile, p, n uint64, res []vm.Value) error {
	e := m.net().events[f.event]
	if e != nil && e.timer {
		e.tick(m.Now())
	}
	switch {
	case e == nil:
		return fail(m, t, res, vm.EBADF)
	case n < 8:
		return fail(m, t, res, vm.EINVAL)
	case e.count == 0 && f.nonblock:
		return m.wouldBlock(t, res)
	case e.count == 0:
		if e.expiry != 0 {
			t.SetDeadline(e.expiry) // a timer's: it wakes itself
		} else {
			t.EndTimedWait() // a timer disarmed while this read waited for it
		}
		return m.Block(t, vm.PipeWaitKey, f.event)
	}
	t.EndTimedWait()
	v := e.count
	if e.semaphore {
		v = 1
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	if err := m.WriteBytes(p, b[:]); err != nil {
		return err
	}
	m.NoteAccess(p, 8, vm.Write)
	e.count -= v
	m.Sync(t, vm.Acquire, vm.PipeKey, f.event)
	m.netChanged(0, f.event)
	vm.SetResult(res, 8)
	return m.Point()
}

// eventWrite adds the 8-byte value at p to f's eventfd's counter.
func (m *machine) eventWrite(t *vm.Thread, in *ir.Inst, f *vfile, p, n uint64, res []vm.Value) error {
	e := m.net().events[f.event]
	if e == nil {
		return fail(m, t, res, vm.EBADF)
	}
	if n < 8 || e.timer {
		return fail(m, t, res, vm.EINVAL)
	}
	v, err := m.ReadUint(p, 8)
	if err != nil {
		return err
	}
	switch {
	case v > eventMax:
		return fail(m, t, res, vm.EINVAL)
	case e.count > eventMax-v && f.nonblock:
		return m.wouldBlock(t, res)
	case e.count > eventMax-v:
		return m.Block(t, vm.PipeSpaceKey, f.event)
	}
	e.count += v
	m.Sync(t, vm.ReleaseMerge, vm.PipeKey, f.event)
	m.netChanged(f.event, 0)
	vm.SetResult(res, 8)
	return m.Point()
}
