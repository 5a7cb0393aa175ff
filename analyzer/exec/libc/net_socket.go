package libc

import (
	"slices"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Sockets over the virtual loopback (see net.go).

// errno values of the network.
const (
	EPIPE           = 32
	ENOTSOCK        = 88
	EDESTADDRREQ    = 89
	EMSGSIZE        = 90
	EPROTONOSUPPORT = 93
	EOPNOTSUPP      = 95
	EAFNOSUPPORT    = 97
	EADDRINUSE      = 98
	EADDRNOTAVAIL   = 99
	ENETUNREACH     = 101
	EISCONN         = 106
	ENOTCONN        = 107
	ECONNREFUSED    = 111
)

// recv and send flags.
const (
	msgPeek     = 0x2
	msgDontwait = 0x40
)

// maxDatagram is the largest UDP payload.
const maxDatagram = 65507

// sockaddr is an address a program passed: its family, and the port (IP)
// or the path (AF_UNIX). errno is set when augur's loopback cannot have
// it: another host is unreachable.
type sockaddr struct {
	family int
	port   int
	path   string
	any    bool // 0.0.0.0 or ::
}

// readSockaddr reads the address of n bytes at p.
func (m *machine) readSockaddr(p, n uint64, forBind bool) (sockaddr, int, error) {
	if n < 2 {
		return sockaddr{}, vm.EINVAL, nil
	}
	b, err := m.ReadBytes(p, min(n, 110))
	if err != nil {
		return sockaddr{}, 0, err
	}
	m.NoteAccess(p, uint64(len(b)), vm.Read)
	a := sockaddr{family: int(b[0]) | int(b[1])<<8}
	unreachable := ENETUNREACH
	if forBind {
		unreachable = EADDRNOTAVAIL
	}
	switch a.family {
	case afInet:
		if len(b) < 8 {
			return a, vm.EINVAL, nil
		}
		a.port = int(b[2])<<8 | int(b[3])
		switch {
		case b[4] == 127:
		case b[4]|b[5]|b[6]|b[7] == 0:
			a.any = true
		default:
			return a, unreachable, nil
		}
	case afInet6:
		if len(b) < 24 {
			return a, vm.EINVAL, nil
		}
		a.port = int(b[2])<<8 | int(b[3])
		ip := b[8:24]
		zero := !slices.ContainsFunc(ip[:15], func(x byte) bool { return x != 0 })
		mapped := !slices.ContainsFunc(ip[:10], func(x byte) bool { return x != 0 }) && ip[10] == 0xff && ip[11] == 0xff
		switch {
		case zero && ip[15] == 1:
		case zero && ip[15] == 0:
			a.any = true
		case mapped && ip[12] == 127:
		default:
			return a, unreachable, nil
		}
	case afUnix:
		path := b[2:]
		if len(path) > 1 && path[0] == 0 {
			// An abstract name: its bytes up to the address's length,
			// a NUL first, in a namespace of its own.
			a.path = string(path)
			break
		}
		if i := slices.Index(path, 0); i >= 0 {
			path = path[:i]
		}
		if len(path) == 0 {
			return a, vm.EINVAL, nil
		}
		a.path = string(path)
	default:
		return a, EAFNOSUPPORT, nil
	}
	return a, 0, nil
}

// writeSockaddr stores the address of a socket of the family (the
// loopback, or 0.0.0.0 / :: when any), with port or path, at p, within
// the length at lenp, and sets that length to the address's size. A nil
// p writes nothing.
func (m *machine) writeSockaddr(p, lenp uint64, family, port int, path string, any bool) error {
	if p == 0 || lenp == 0 {
		return nil
	}
	var b []byte
	switch family {
	case afInet:
		b = make([]byte, 16)
		if !any {
			b[4], b[7] = 127, 1
		}
	case afInet6:
		b = make([]byte, 28)
		if !any {
			b[23] = 1
		}
	default: // AF_UNIX
		if strings.HasPrefix(path, "\x00") {
			b = make([]byte, 2+len(path)) // an abstract name has no NUL after it
		} else {
			b = make([]byte, 2+len(path)+1)
		}
		copy(b[2:], path)
	}
	b[0], b[1] = byte(family), byte(family>>8)
	if family != afUnix {
		b[2], b[3] = byte(port>>8), byte(port)
	}
	room, err := m.ReadUint(lenp, 4)
	if err != nil {
		return err
	}
	k := min(uint64(len(b)), room)
	if err := m.WriteBytes(p, b[:k]); err != nil {
		return err
	}
	m.NoteAccess(p, k, vm.Write)
	return m.WriteUint(lenp, 4, uint64(len(b)))
}

// sockOf returns the socket of descriptor fd, or the errno of a call on
// it: EBADF for no descriptor, ENOTSOCK for one that is not a socket.
func (m *machine) sockOf(fd uint64) (*vfile, *vsocket, int) {
	f := m.files.byFD[int(int32(fd))]
	if f == nil {
		return nil, nil, vm.EBADF
	}
	s := m.net().socks[f.sock]
	if f.sock == 0 || s == nil {
		return f, nil, ENOTSOCK
	}
	return f, s, 0
}

// bindTo binds s (id) to the address, an ephemeral port when a.port is 0.
func (m *machine) bindTo(id uint64, s *vsocket, a sockaddr) int {
	n := m.net()
	key := portKey{kind: s.kind, port: a.port, path: a.path}
	if a.path == "" && a.port == 0 {
		for {
			key.port = n.nextPort
			n.nextPort++
			if _, used := n.ports[key]; !used {
				break
			}
		}
	}
	if _, used := n.ports[key]; used {
		return EADDRINUSE
	}
	n.ports[key] = id
	s.port, s.path = key.port, key.path
	return 0
}

// unbind gives up the port or path s holds.
func (m *machine) unbind(id uint64, s *vsocket) {
	n := m.net()
	key := portKey{kind: s.kind, port: s.port, path: s.path}
	if n.ports[key] == id {
		delete(n.ports, key)
	}
}

// closeSocket tears down a socket no descriptor holds: its port, its
// connection (the peer sees end of file) and the connections it never
// accepted (their clients see end of file).
func (m *machine) closeSocket(t *vm.Thread, id uint64, s *vsocket) {
	m.unbind(id, s)
	for _, c := range s.backlog {
		m.releaseEnds(t, c.rx, c.tx)
	}
	tx := s.tx
	if s.shutWrite {
		tx = 0
	}
	m.releaseEnds(t, s.rx, tx)
	if s.kind != sockStream {
		m.closeDatagrams(t, id, s)
	}
	delete(m.net().socks, id)
}

func (tab table) addSockets() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		family, kind := int(a[0].Bits&0xffffffff), int(a[1].Bits&0xf)
		switch {
		case family != afInet && family != afInet6 && family != afUnix:
			return fail(m, t, res, EAFNOSUPPORT)
		case kind != sockStream && kind != sockDgram:
			return fail(m, t, res, EPROTONOSUPPORT)
		}
		n := m.net()
		id := n.id()
		n.socks[id] = &vsocket{family: family, kind: kind, refs: 1}
		fd := m.newNetFD(&vfile{sock: id, read: true, write: true, openDesc: m.files.newDesc(a[1].Bits&sockNonblock != 0)}, a[1].Bits)
		vm.SetResult(res, uint64(fd))
		return nil
	}, "socket")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if a[0].Bits&0xffffffff != afUnix {
			return fail(m, t, res, EOPNOTSUPP)
		}
		kind := int(a[1].Bits & 0xf)
		if kind != sockStream && kind != sockDgram && kind != sockSeqpacket {
			return fail(m, t, res, EPROTONOSUPPORT)
		}
		n := m.net()
		s0, s1 := n.id(), n.id()
		if kind == sockStream {
			// Each end is a connected Unix stream socket, so that what
			// works on one (shutdown, getsockopt, getpeername) works on
			// these.
			p1, p2 := n.newPipe(), n.newPipe()
			n.socks[s0] = &vsocket{family: afUnix, kind: sockStream, refs: 1, rx: p1, tx: p2}
			n.socks[s1] = &vsocket{family: afUnix, kind: sockStream, refs: 1, rx: p2, tx: p1}
		} else {
			n.socks[s0] = &vsocket{family: afUnix, kind: kind, refs: 1, mate: s1}
			n.socks[s1] = &vsocket{family: afUnix, kind: kind, refs: 1, mate: s0}
		}
		nb := a[1].Bits&sockNonblock != 0
		fd0 := m.newNetFD(&vfile{sock: s0, read: true, write: true, openDesc: m.files.newDesc(nb)}, a[1].Bits)
		fd1 := m.newNetFD(&vfile{sock: s1, read: true, write: true, openDesc: m.files.newDesc(nb)}, a[1].Bits)
		if err := m.WriteUint(a[3].Bits, 4, uint64(fd0)); err != nil {
			return err
		}
		if err := m.WriteUint(a[3].Bits+4, 4, uint64(fd1)); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return nil
	}, "socketpair")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, s, e := m.sockOf(a[0].Bits)
		if e != 0 {
			return fail(m, t, res, e)
		}
		if s.port != 0 || s.path != "" {
			return fail(m, t, res, vm.EINVAL)
		}
		addr, e, err := m.readSockaddr(a[1].Bits, a[2].Bits&0xffffffff, true)
		if err != nil {
			return err
		}
		if e == 0 && (addr.family == afUnix) != (s.family == afUnix) {
			e = EAFNOSUPPORT
		}
		if e == 0 {
			e = m.bindTo(f.sock, s, addr)
			s.any = addr.any
		}
		if e != 0 {
			return fail(m, t, res, e)
		}
		vm.SetResult(res, 0)
		return nil
	}, "bind")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, s, e := m.sockOf(a[0].Bits)
		switch {
		case e != 0:
			return fail(m, t, res, e)
		case s.kind != sockStream:
			return fail(m, t, res, EOPNOTSUPP)
		case s.port == 0 && s.path == "":
			if e := m.bindTo(f.sock, s, sockaddr{family: s.family}); e != 0 {
				return fail(m, t, res, e)
			}
		}
		s.listening = true
		vm.SetResult(res, 0)
		return nil
	}, "listen")
	tab.registerIO(acceptFn, "accept", "accept4").Acquires()
	tab.registerIO(connectFn, "connect").Signals()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return m.sendTo(t, in, a[0].Bits, a[1].Bits, a[2].Bits, a[3].Bits, 0, 0, res)
	}, "send").Signals()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return m.sendTo(t, in, a[0].Bits, a[1].Bits, a[2].Bits, a[3].Bits, a[4].Bits, a[5].Bits&0xffffffff, res)
	}, "sendto").Signals()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return m.recvFrom(t, in, a[0].Bits, a[1].Bits, a[2].Bits, a[3].Bits, 0, 0, res)
	}, "recv").Acquires()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return m.recvFrom(t, in, a[0].Bits, a[1].Bits, a[2].Bits, a[3].Bits, a[4].Bits, a[5].Bits, res)
	}, "recvfrom").Acquires()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, s, e := m.sockOf(a[0].Bits)
		switch {
		case e != 0:
			return fail(m, t, res, e)
		case s.kind == sockStream && s.rx == 0:
			return fail(m, t, res, ENOTCONN)
		}
		if how := a[1].Bits & 0xffffffff; (how == 1 || how == 2) && s.kind != sockDgram && !s.shutWrite {
			s.shutWrite = true
			if s.kind == sockSeqpacket {
				m.closeDatagrams(t, f.sock, s)
			} else {
				m.releaseEnds(t, 0, s.tx) // the peer reads end of file
			}
		}
		vm.SetResult(res, 0)
		return nil
	}, "shutdown").Signals()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		_, s, e := m.sockOf(a[0].Bits)
		if e != 0 {
			return fail(m, t, res, e)
		}
		vm.SetResult(res, 0)
		return m.writeSockaddr(a[1].Bits, a[2].Bits, s.family, s.port, s.path, s.any)
	}, "getsockname")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		_, s, e := m.sockOf(a[0].Bits)
		switch {
		case e != 0:
			return fail(m, t, res, e)
		case s.peer == 0 && s.peerPath == "" && s.rx == 0:
			return fail(m, t, res, ENOTCONN)
		}
		vm.SetResult(res, 0)
		return m.writeSockaddr(a[1].Bits, a[2].Bits, s.family, s.peer, s.peerPath, false)
	}, "getpeername")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if _, _, e := m.sockOf(a[0].Bits); e != 0 {
			return fail(m, t, res, e)
		}
		vm.SetResult(res, 0) // options are accepted and change nothing on the loopback
		return nil
	}, "setsockopt")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		_, s, e := m.sockOf(a[0].Bits)
		if e != 0 {
			return fail(m, t, res, e)
		}
		v := uint64(0) // SO_ERROR: none; options set are not kept, and read 0
		if a[1].Bits&0xffffffff == 1 {
			v = s.option(a[2].Bits & 0xffffffff)
		}
		if err := m.WriteUint(a[3].Bits, 4, v); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return m.WriteUint(a[4].Bits, 4, 4)
	}, "getsockopt")
}

// option is the SOL_SOCKET option of s that getsockopt reads: its type,
// family, protocol, whether it listens, and Linux's default buffer sizes;
// 0 for the rest.
func (s *vsocket) option(name uint64) uint64 {
	tcp := s.family != afUnix && s.kind == sockStream
	switch name {
	case 3: // SO_TYPE
		return uint64(s.kind)
	case 7: // SO_SNDBUF
		if tcp {
			return 16384
		}
		return maxQueuedDatagrams
	case 8: // SO_RCVBUF
		if tcp {
			return 131072
		}
		return maxQueuedDatagrams
	case 30: // SO_ACCEPTCONN
		return b2u(s.listening)
	case 38: // SO_PROTOCOL
		switch {
		case s.family == afUnix:
			return 0
		case s.kind == sockStream:
			return 6 // IPPROTO_TCP
		}
		return 17 // IPPROTO_UDP
	case 39: // SO_DOMAIN
		return uint64(s.family)
	}
	return 0
}

// acceptFn models accept and accept4: the oldest connection not yet
// accepted, or a wait for one.
func acceptFn(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	f, s, e := m.sockOf(a[0].Bits)
	switch {
	case e != 0:
		return fail(m, t, res, e)
	case !s.listening:
		return fail(m, t, res, vm.EINVAL)
	case len(s.backlog) == 0 && f.nonblock:
		return m.wouldBlock(t, res)
	case len(s.backlog) == 0:
		return m.Block(t, vm.AcceptKey, f.sock)
	}
	c := s.backlog[0]
	s.backlog = s.backlog[1:]
	n := m.net()
	id := n.id()
	n.socks[id] = &vsocket{family: s.family, kind: sockStream, refs: 1, port: s.port, path: s.path, rx: c.rx, tx: c.tx, peer: c.peer}
	var flags uint64 // accept4's
	if len(a) > 3 {
		flags = a[3].Bits
	}
	fd := m.newNetFD(&vfile{sock: id, read: true, write: true, openDesc: m.files.newDesc(flags&sockNonblock != 0)}, flags)
	m.Sync(t, vm.Acquire, vm.PipeKey, c.rx)
	if err := m.writeSockaddr(a[1].Bits, a[2].Bits, s.family, c.peer, "", false); err != nil {
		return err
	}
	vm.SetResult(res, uint64(fd))
	return m.Point()
}

// connectFn models connect: a stream socket's connection is queued on the
// listening socket at once (as the kernel completes it before accept); a
// datagram socket takes a default destination.
func connectFn(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	f, s, e := m.sockOf(a[0].Bits)
	if e != 0 {
		return fail(m, t, res, e)
	}
	addr, e, err := m.readSockaddr(a[1].Bits, a[2].Bits&0xffffffff, false)
	if err != nil {
		return err
	}
	if e == 0 && (addr.family == afUnix) != (s.family == afUnix) {
		e = EAFNOSUPPORT
	}
	if e != 0 {
		return fail(m, t, res, e)
	}
	if s.port == 0 && s.path == "" && s.family != afUnix {
		if e := m.bindTo(f.sock, s, sockaddr{family: s.family}); e != 0 {
			return fail(m, t, res, e)
		}
	}
	n := m.net()
	if s.kind == sockDgram {
		if _, bound := n.ports[portKey{kind: sockDgram, path: addr.path}]; addr.path != "" && !bound {
			return fail(m, t, res, vm.ENOENT)
		}
		s.peer, s.peerPath = addr.port, addr.path
		vm.SetResult(res, 0)
		return nil
	}
	if s.kind != sockStream {
		return fail(m, t, res, EISCONN) // a socketpair's end
	}
	if s.rx != 0 || s.listening {
		return fail(m, t, res, EISCONN)
	}
	l := n.socks[n.ports[portKey{kind: sockStream, port: addr.port, path: addr.path}]]
	if l == nil || !l.listening || len(l.backlog) >= maxBacklog {
		return fail(m, t, res, ECONNREFUSED)
	}
	up, down := n.newPipe(), n.newPipe()
	s.rx, s.tx, s.peer, s.peerPath = down, up, addr.port, addr.path
	l.backlog = append(l.backlog, pending{rx: up, tx: down, peer: s.port})
	m.Sync(t, vm.ReleaseMerge, vm.PipeKey, up)
	m.Wake(vm.AcceptKey, n.ports[portKey{kind: sockStream, port: addr.port, path: addr.path}])
	m.netChanged(0, 0)
	vm.SetResult(res, 0)
	return m.Point()
}

// sendTo sends n bytes at p on descriptor fd: on a stream, into its pipe;
// as a datagram, to the socket bound to the destination (to, or the
// connected one), if any (a datagram to no one is lost, as UDP's).
func (m *machine) sendTo(t *vm.Thread, in *ir.Inst, fd, p, n, flags, to, toLen uint64, res []vm.Value) error {
	f := m.files.byFD[int(int32(fd))]
	if f == nil {
		return fail(m, t, res, vm.EBADF)
	}
	nonblock := f.nonblock || flags&msgDontwait != 0
	s := m.net().socks[f.sock]
	if s == nil || s.kind == sockStream {
		_, tx := m.ends(f)
		switch {
		case f.sock == 0 && tx == 0:
			return fail(m, t, res, ENOTSOCK)
		case tx == 0:
			return fail(m, t, res, ENOTCONN)
		case s != nil && s.shutWrite:
			return fail(m, t, res, EPIPE)
		case s != nil && s.family != afUnix && !s.reset && m.net().pipes[tx] != nil && m.net().pipes[tx].readers == 0:
			// TCP takes the first send after the peer closed: the peer's
			// reset answers it, and the sends after it fail.
			s.reset = true
			vm.SetResult(res, n)
			return m.Point()
		}
		return m.streamWrite(t, in, tx, p, n, nonblock, res)
	}
	return m.sendDatagram(t, f, s, p, n, to, toLen, nonblock, res)
}

// recvFrom receives at most n bytes into p from descriptor fd, and the
// sender's address into from (with its length at fromLen) when given.
func (m *machine) recvFrom(t *vm.Thread, in *ir.Inst, fd, p, n, flags, from, fromLen uint64, res []vm.Value) error {
	f := m.files.byFD[int(int32(fd))]
	if f == nil {
		return fail(m, t, res, vm.EBADF)
	}
	nonblock, peek := f.nonblock || flags&msgDontwait != 0, flags&msgPeek != 0
	s := m.net().socks[f.sock]
	if s == nil || s.kind == sockStream {
		rx, _ := m.ends(f)
		switch {
		case f.sock == 0 && rx == 0:
			return fail(m, t, res, ENOTSOCK)
		case rx == 0:
			return fail(m, t, res, ENOTCONN)
		}
		if s != nil {
			if err := m.writeSockaddr(from, fromLen, s.family, s.peer, s.peerPath, false); err != nil {
				return err
			}
		}
		return m.streamRead(t, in, rx, p, n, nonblock, peek, res)
	}
	return m.recvDatagram(t, f, s, p, n, from, fromLen, nonblock, peek, res)
}
