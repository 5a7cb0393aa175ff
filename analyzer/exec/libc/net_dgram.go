package libc

import (
	"slices"

	"augur/analyzer/exec/vm"
)

// Datagrams: UDP over the loopback, Unix datagram sockets bound to paths,
// and the two ends of a socketpair of SOCK_DGRAM or SOCK_SEQPACKET. Each
// datagram stays one: a read takes one, whatever its size, and drops
// what does not fit.

// sockSeqpacket is SOCK_SEQPACKET: datagrams over a connection, whose
// end the peer reads as end of file.
const sockSeqpacket = 5

// dgramOverhead is what Linux charges a queued datagram beside its bytes
// (the socket buffer's true size of a small one on x86-64): 278 datagrams
// of 10 bytes fill the 212,992 bytes of a socketpair's buffer there, and
// here.
const dgramOverhead = 756

// cost is what a datagram of n bytes takes of receiver r's queue: its
// bytes and, on a Unix socket, dgramOverhead. (A UDP queue counts bytes
// alone: 208 datagrams of 1 KiB fill it, where Linux, which charges each
// a power of two and headers, takes 92.)
func (r *vsocket) cost(n int) int {
	if r.family == afUnix {
		return n + dgramOverhead
	}
	return n
}

// dgramDest finds the socket a datagram from s goes to: the address the
// call gave (to), the one s connected to, or its socketpair's other end.
// A UDP datagram to a port no socket holds goes nowhere (0), as UDP loses
// it; a Unix one fails.
func (m *machine) dgramDest(s *vsocket, to, toLen uint64) (uint64, int, error) {
	n := m.net()
	var dest sockaddr
	switch {
	case to != 0 && s.kind == sockDgram:
		addr, e, err := m.readSockaddr(to, toLen, false)
		if err != nil || e != 0 {
			return 0, e, err
		}
		if (addr.family == afUnix) != (s.family == afUnix) {
			return 0, EAFNOSUPPORT, nil
		}
		dest = addr
	case s.peer != 0 || s.peerPath != "":
		dest = sockaddr{family: s.family, port: s.peer, path: s.peerPath}
	case s.mate != 0:
		switch {
		case n.socks[s.mate] != nil:
			return s.mate, 0, nil
		case s.kind == sockSeqpacket:
			return 0, EPIPE, nil
		}
		return 0, ECONNREFUSED, nil
	case s.kind == sockSeqpacket:
		return 0, ENOTCONN, nil
	default:
		return 0, EDESTADDRREQ, nil
	}
	if s.family != afUnix && dest.port == 0 {
		return 0, vm.EINVAL, nil // UDP to port 0, as Linux answers it
	}
	id, ok := n.ports[portKey{kind: sockDgram, port: dest.port, path: dest.path}]
	switch {
	case ok:
		return id, 0, nil
	case s.family != afUnix:
		return 0, 0, nil
	case to != 0:
		return 0, vm.ENOENT, nil
	}
	return 0, ECONNREFUSED, nil
}

// sendDatagram sends the n bytes at p from socket s (descriptor f) as one
// datagram. A Unix receiver whose queue is full makes the sender wait for
// room (EAGAIN when nonblocking); UDP drops the datagram instead.
func (m *machine) sendDatagram(t *vm.Thread, f *vfile, s *vsocket, p, n, to, toLen uint64, nonblock bool, res []vm.Value) error {
	if s.shutWrite {
		return fail(m, t, res, EPIPE)
	}
	limit := uint64(maxDatagram)
	if s.family == afUnix {
		limit = maxQueuedDatagrams - dgramOverhead
	}
	if n > limit {
		return fail(m, t, res, EMSGSIZE)
	}
	rid, e, err := m.dgramDest(s, to, toLen)
	if err != nil {
		return err
	}
	if e != 0 {
		return fail(m, t, res, e)
	}
	if s.port == 0 && s.family != afUnix {
		if e := m.bindTo(f.sock, s, sockaddr{family: s.family}); e != 0 {
			return fail(m, t, res, e)
		}
	}
	net := m.net()
	r := net.socks[rid]
	if r != nil && r.queued+r.cost(int(n)) > maxQueuedDatagrams {
		switch {
		case s.family != afUnix:
			r = nil // UDP drops what its receiver has no room for
		case nonblock:
			return m.wouldBlock(t, res)
		default:
			return m.Block(t, vm.PipeSpaceKey, rid)
		}
	}
	b, err := m.written(p, n)
	if err != nil {
		return err
	}
	if r != nil {
		r.dgrams = append(r.dgrams, datagram{data: slices.Clone(b), from: s.port, fromPath: s.path})
		r.queued += r.cost(len(b))
		m.Sync(t, vm.ReleaseMerge, vm.PipeKey, rid)
		m.Wake(vm.DgramKey, rid)
		m.netChanged(0, 0)
	}
	vm.SetResult(res, n)
	return m.Point()
}

// recvDatagram receives the first datagram queued on socket s (descriptor
// f), at most n bytes of it at p, and its sender's address into from.
// A sequenced-packet socket whose peer has closed or shut down writing
// reads end of file once its queue is empty.
func (m *machine) recvDatagram(t *vm.Thread, f *vfile, s *vsocket, p, n, from, fromLen uint64, nonblock, peek bool, res []vm.Value) error {
	if len(s.dgrams) == 0 {
		if s.kind == sockSeqpacket {
			if mate := m.net().socks[s.mate]; mate == nil || mate.shutWrite {
				m.Sync(t, vm.Acquire, vm.PipeKey, f.sock) // the peer's close comes first
				vm.SetResult(res, 0)
				return m.Point()
			}
		}
		if nonblock {
			return m.wouldBlock(t, res)
		}
		return m.Block(t, vm.DgramKey, f.sock)
	}
	d := s.dgrams[0]
	if !peek {
		s.dgrams = s.dgrams[1:]
		s.queued -= s.cost(len(d.data))
		if s.family == afUnix {
			m.Wake(vm.PipeSpaceKey, f.sock) // a sender waiting for room
			m.netChanged(0, 0)
		}
	}
	k := min(n, uint64(len(d.data)))
	if err := m.WriteBytes(p, d.data[:k]); err != nil {
		return err
	}
	m.NoteAccess(p, k, vm.Write)
	m.Sync(t, vm.Acquire, vm.PipeKey, f.sock)
	if s.family == afUnix && d.fromPath == "" {
		// An unnamed sender (a socketpair's end, an unbound socket) has
		// no address: the length comes back 0.
		if from != 0 && fromLen != 0 {
			if err := m.WriteUint(fromLen, 4, 0); err != nil {
				return err
			}
		}
	} else if err := m.writeSockaddr(from, fromLen, s.family, d.from, d.fromPath, false); err != nil {
		return err
	}
	vm.SetResult(res, k)
	return m.Point()
}

// dgramReadiness is poll's bits for a datagram socket: readable with a
// datagram queued (or, sequenced, its peer gone), writable while its
// receiver's queue is short.
func (m *machine) dgramReadiness(s *vsocket) uint32 {
	var r uint32
	if len(s.dgrams) > 0 {
		r |= pollIn | pollRdNorm
	}
	if s.mate == 0 {
		return r | pollOut | pollWrNorm
	}
	mate := m.net().socks[s.mate]
	switch {
	case s.kind == sockSeqpacket && (mate == nil || mate.shutWrite):
		return r | pollIn | pollRdNorm | pollRdHup | pollHup | pollOut | pollWrNorm
	case mate == nil || mate.queued*4 <= maxQueuedDatagrams:
		// Linux calls a Unix datagram socket writable while what it has
		// queued at its peer is at most a quarter of its buffer.
		return r | pollOut | pollWrNorm
	}
	return r
}

// closeDatagrams tells whoever waits on a datagram socket that closes:
// senders waiting for room in its queue fail, and its socketpair's other
// end reads end of file (sequenced packets) or fails to send.
func (m *machine) closeDatagrams(t *vm.Thread, id uint64, s *vsocket) {
	m.Wake(vm.PipeSpaceKey, id)
	if s.mate != 0 && m.net().socks[s.mate] != nil {
		if t != nil {
			m.Sync(t, vm.ReleaseMerge, vm.PipeKey, s.mate)
		}
		m.Wake(vm.DgramKey, s.mate)
	}
	m.netChanged(0, 0)
}
