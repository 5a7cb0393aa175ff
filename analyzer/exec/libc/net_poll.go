package libc

import (
	"slices"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Readiness: poll, select and epoll over the virtual descriptors (see
// net.go). A call with nothing ready blocks the thread on one queue all
// of them share, and every change of a pipe or a socket wakes that queue,
// so each looks again; a timeout is a timed wait, which runs out when no
// thread can go on (virtual time jumps to it), as a timed condition wait
// does. Files and the standard streams are always ready.

// poll(2) event bits.
const (
	pollIn     = 0x1
	pollOut    = 0x4
	pollErr    = 0x8
	pollHup    = 0x10
	pollNval   = 0x20
	pollRdNorm = 0x40
	pollWrNorm = 0x100
	pollRdHup  = 0x2000
)

// readiness says what a descriptor can do now, as poll's bits: reading
// (data, a connection to accept, or end of file), writing (room, or a
// reader gone: then an error), and hang-up.
func (m *machine) readiness(f *vfile) uint32 {
	n := m.net()
	var r uint32
	if s := n.socks[f.sock]; s != nil {
		switch {
		case s.listening:
			if len(s.backlog) > 0 {
				r |= pollIn | pollRdNorm
			}
			return r
		case s.kind != sockStream:
			return m.dgramReadiness(s)
		case s.rx == 0:
			return 0 // not connected
		}
	}
	if f.epoll != 0 {
		return 0
	}
	if e := n.events[f.event]; e != nil {
		if e.timer {
			return m.timerReadiness(e)
		}
		if e.count > 0 {
			r |= pollIn | pollRdNorm
		}
		if e.count < eventMax {
			r |= pollOut | pollWrNorm
		}
		return r
	}
	rx, tx := m.ends(f)
	if rx == 0 && tx == 0 { // a file or a standard stream
		if f.read {
			r |= pollIn | pollRdNorm
		}
		if f.write {
			r |= pollOut | pollWrNorm
		}
		return r
	}
	if p := n.pipes[rx]; p != nil {
		if len(p.buf) > 0 || p.writers == 0 {
			r |= pollIn | pollRdNorm
		}
		if p.writers == 0 {
			r |= pollRdHup
			if f.sock == 0 {
				r |= pollHup
			}
		}
	}
	if p := n.pipes[tx]; p != nil {
		switch {
		case p.readers == 0:
			r |= pollErr
		case len(p.buf) < pipeCapacity:
			r |= pollOut | pollWrNorm
		}
	}
	return r
}

// awaitReady ends a readiness call that found nothing ready: 0 at once
// for a zero timeout or a timed-out wait, else the thread blocks until
// something changes (timed when timeout is positive). Something ready
// ends any timed wait.
func (m *machine) awaitReady(t *vm.Thread, ready int, timeoutMs int64, res []vm.Value) error {
	wake := m.net().pollWake
	m.net().pollWake = 0
	if ready > 0 || timeoutMs == 0 || t.TimedOut() {
		t.EndTimedWait()
		vm.SetResult(res, uint64(ready))
		return m.Point()
	}
	if timeoutMs > 0 && t.Deadline() == 0 {
		// The first look of the call sets its deadline; a look again
		// after a change elsewhere keeps it.
		t.SetDeadline(m.Now() + timeoutMs*1_000_000)
	}
	if wake != 0 && (t.Deadline() == 0 || wake < t.Deadline()) {
		t.SetDeadline(wake) // a timerfd looked at expires first: look again then
	}
	return m.Block(t, vm.PollKey, 0)
}

// pollFn models poll and ppoll over an array of struct pollfd.
func pollFn(timespec bool) ioModel {
	return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		fds, nfds := a[0].Bits, a[1].Bits
		timeout := int64(int32(a[2].Bits))
		m.net().pollWake = 0
		if timespec {
			ms, err := m.timespecMs(a[2].Bits)
			if err != nil {
				return err
			}
			timeout = ms
		}
		ready := 0
		for i := uint64(0); i < nfds; i++ {
			p := fds + 8*i
			fd, err := m.ReadUint(p, 4)
			if err != nil {
				return err
			}
			ev, err := m.ReadUint(p+4, 2)
			if err != nil {
				return err
			}
			var rev uint32
			if int32(fd) >= 0 {
				if f := m.files.byFD[int(int32(fd))]; f == nil {
					rev = pollNval
				} else {
					r := m.readiness(f)
					rev = r&uint32(ev) | r&(pollErr|pollHup)
				}
			}
			if rev != 0 {
				ready++
			}
			if err := m.WriteUint(p+6, 2, uint64(rev)); err != nil {
				return err
			}
		}
		return m.awaitReady(t, ready, timeout, res)
	}
}

// timespecMs reads a struct timespec as milliseconds, rounded up; a null
// pointer is no timeout (-1).
func (m *machine) timespecMs(p uint64) (int64, error) {
	if p == 0 {
		return -1, nil
	}
	s, ns, err := m.ReadTimespec(p)
	if err != nil {
		return 0, err
	}
	return s*1000 + (ns+999_999)/1_000_000, nil
}

// selectFn models select and pselect over fd_sets (1024 bits each);
// timeval says the timeout is a struct timeval, else a timespec.
func selectFn(timeval bool) ioModel {
	return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		nfds := int(int32(a[0].Bits))
		if nfds < 0 || nfds > 1024 {
			return fail(m, t, res, vm.EINVAL)
		}
		m.net().pollWake = 0
		timeout := int64(-1)
		if p := a[4].Bits; p != 0 {
			s, frac, err := m.ReadTimespec(p)
			if err != nil {
				return err
			}
			if timeval {
				timeout = s*1000 + (frac+999)/1000
			} else {
				timeout = s*1000 + (frac+999_999)/1_000_000
			}
		}
		sets := [3]uint64{a[1].Bits, a[2].Bits, a[3].Bits}
		want := [3]uint32{pollIn | pollHup | pollErr, pollOut | pollErr, 0}
		var out [3][16]uint64
		ready := 0
		for k, set := range sets {
			if set == 0 {
				continue
			}
			for fd := 0; fd < nfds; fd++ {
				w, err := m.ReadUint(set+uint64(fd/64)*8, 8)
				if err != nil {
					return err
				}
				if w>>(fd%64)&1 == 0 {
					continue
				}
				f := m.files.byFD[fd]
				if f == nil {
					return fail(m, t, res, vm.EBADF)
				}
				if m.readiness(f)&want[k] != 0 {
					out[k][fd/64] |= 1 << (fd % 64)
					ready++
				}
			}
		}
		if ready > 0 || timeout == 0 || t.TimedOut() {
			for k, set := range sets {
				if set == 0 {
					continue
				}
				for w := 0; w < (nfds+63)/64; w++ {
					if err := m.WriteUint(set+uint64(w)*8, 8, out[k][w]); err != nil {
						return err
					}
				}
			}
		}
		return m.awaitReady(t, ready, timeout, res)
	}
}

// epoll event bits beyond poll's, and epoll_ctl's operations.
const (
	epollOneshot = 1 << 30
	epollCtlAdd  = 1
	epollCtlDel  = 2
	epollCtlMod  = 3
)

func (tab table) addPoll() {
	tab.registerIO(pollFn(false), "poll", "__poll_chk").Acquires()
	tab.registerIO(pollFn(true), "ppoll", "__ppoll_chk").Acquires()
	tab.registerIO(selectFn(true), "select").Acquires()
	tab.registerIO(selectFn(false), "pselect").Acquires()
	epollCreate := func(m *machine, flags uint64, res []vm.Value) {
		n := m.net()
		id := n.id()
		n.epolls[id] = &vepoll{watch: map[int]epollInterest{}}
		vm.SetResult(res, uint64(m.newNetFD(&vfile{epoll: id, openDesc: m.files.newDesc(false)}, flags)))
	}
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		epollCreate(m, 0, res) // its size is a hint
		return nil
	}, "epoll_create")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		epollCreate(m, a[0].Bits, res)
		return nil
	}, "epoll_create1")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		ef := m.files.byFD[int(int32(a[0].Bits))]
		fd := int(int32(a[2].Bits))
		if ef == nil || m.files.byFD[fd] == nil {
			return fail(m, t, res, vm.EBADF)
		}
		ep := m.net().epolls[ef.epoll]
		if ep == nil || fd == ef.fd {
			return fail(m, t, res, vm.EINVAL)
		}
		w, watched := ep.watch[fd]
		if watched && w.desc != m.files.byFD[fd].desc { // its file closed: forgotten
			delete(ep.watch, fd)
			watched = false
		}
		switch op := a[1].Bits & 0xffffffff; {
		case op == epollCtlDel && watched:
			delete(ep.watch, fd)
		case op == epollCtlAdd && watched:
			return fail(m, t, res, vm.EEXIST)
		case (op == epollCtlMod || op == epollCtlDel) && !watched:
			return fail(m, t, res, vm.ENOENT)
		case op == epollCtlAdd || op == epollCtlMod:
			ev, err := m.ReadUint(a[3].Bits, 4)
			if err != nil {
				return err
			}
			data, err := m.ReadUint(a[3].Bits+4, 8) // struct epoll_event is packed
			if err != nil {
				return err
			}
			ep.watch[fd] = epollInterest{events: uint32(ev), data: data, desc: m.files.byFD[fd].desc}
		default:
			return fail(m, t, res, vm.EINVAL)
		}
		vm.SetResult(res, 0)
		m.netChanged(0, 0) // a waiter may have something ready now
		return nil
	}, "epoll_ctl")
	tab.registerIO(epollWait, "epoll_wait", "epoll_pwait").Acquires()
}

// epollWait reports the watched descriptors that are ready, in descriptor
// order, at most maxevents: level-triggered (EPOLLET is taken as level:
// a program that drains each descriptor until EAGAIN, as edge-triggered
// ones must, sees the same); EPOLLONESHOT disables a descriptor once
// reported, until epoll_ctl modifies it.
func epollWait(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	ef := m.files.byFD[int(int32(a[0].Bits))]
	if ef == nil {
		return fail(m, t, res, vm.EBADF)
	}
	ep := m.net().epolls[ef.epoll]
	max := int(int32(a[2].Bits))
	if ep == nil || max <= 0 {
		return fail(m, t, res, vm.EINVAL)
	}
	m.net().pollWake = 0
	fds := make([]int, 0, len(ep.watch))
	for fd := range ep.watch {
		fds = append(fds, fd)
	}
	slices.Sort(fds)
	ready := 0
	for _, fd := range fds {
		if ready == max {
			break
		}
		w := ep.watch[fd]
		f := m.files.byFD[fd]
		if f == nil || f.desc != w.desc {
			delete(ep.watch, fd) // closed: epoll forgets it
			continue
		}
		r := m.readiness(f)
		got := r&w.events | r&(pollErr|pollHup)
		if got == 0 || w.events&^(epollOneshot|1<<31) == 0 {
			continue
		}
		p := a[1].Bits + uint64(ready)*12
		if err := m.WriteUint(p, 4, uint64(got)); err != nil {
			return err
		}
		if err := m.WriteUint(p+4, 8, w.data); err != nil {
			return err
		}
		if w.events&epollOneshot != 0 {
			ep.watch[fd] = epollInterest{events: epollOneshot, data: w.data, desc: w.desc}
		}
		ready++
	}
	return m.awaitReady(t, ready, int64(int32(a[3].Bits)), res)
}
