package libc

import (
	"maps"
	"slices"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// A network inside the sandbox: pipes, and TCP and UDP sockets over a
// virtual loopback, all in the machine's state. A byte stream (a pipe, a
// connected socket, a socketpair) is a pair of one-way pipes; a read of
// an empty one blocks the thread on a wait queue like a condition
// variable, and a write wakes it, so schedules, hangs and deadlocks see
// the waits. Data through a stream orders the writer before the reader
// (a release and an acquire on the pipe), as it does natively. Nothing
// leaves the process: an address other than the loopback's is not
// reachable.

// pipeCapacity is how many bytes a pipe holds before a writer blocks, as
// Linux's default.
const pipeCapacity = 65536

// pipeAtomic is PIPE_BUF: a write of at most this many bytes is never
// split.
const pipeAtomic = 4096

// vpipe is one direction of a byte stream.
type vpipe struct {
	buf []byte
	// readers and writers count the open descriptions that read from or
	// write to it: with no writer a read sees end of file, with no
	// reader a write fails with EPIPE.
	readers, writers int
}

// Socket kinds and families (the Linux values).
const (
	afUnix       = 1
	afInet       = 2
	afInet6      = 10
	sockStream   = 1
	sockDgram    = 2
	sockNonblock = 0o4000
	oNonblock    = 0o4000
)

// vsocket is a socket: bound to a port of the loopback (or a path for
// AF_UNIX), listening with a queue of connections not yet accepted, or
// connected through two pipes; a datagram socket has a queue of
// datagrams (net_dgram.go).
type vsocket struct {
	family, kind int
	refs         int // open descriptions
	port         int // bound port; 0 when unbound
	path         string
	any          bool // bound to the wildcard address (0.0.0.0, ::)
	listening    bool
	backlog      []pending
	rx, tx       uint64 // the pipes of a connected stream socket
	peer         int    // the peer's port (stream) or the default destination (datagram)
	peerPath     string
	mate         uint64 // a datagram socketpair's other end
	dgrams       []datagram
	queued       int // bytes in dgrams
	shutWrite    bool
	reset        bool // TCP: a send went to a peer that had closed (sendTo)
}

// pending is a connection a listening socket has not accepted yet: the
// server side's pipes and the client's port.
type pending struct {
	rx, tx uint64
	peer   int
}

type datagram struct {
	data     []byte
	from     int    // the sender's port (UDP)
	fromPath string // the sender's path (Unix; "" when unnamed)
}

// vepoll is an epoll instance: the descriptors it watches, with the
// events and the data word of each.
type vepoll struct {
	watch map[int]epollInterest
}

// epollInterest is what an epoll instance watches a descriptor for. desc
// is the open file description the descriptor had when it was added: the
// kernel forgets an interest when its description closes, so a number
// open or accept gives again to another file is not the one watched.
type epollInterest struct {
	events uint32
	data   uint64
	desc   uint64
}

// netTable holds the pipes, sockets and epoll instances of an execution,
// by id (descriptors refer to them by id, so a fork copies the table
// alone), and the ports bound.
type netTable struct {
	pipes  map[uint64]*vpipe
	socks  map[uint64]*vsocket
	epolls map[uint64]*vepoll
	events map[uint64]*veventfd
	ports  map[portKey]uint64
	nextID uint64
	// nextPort is the next ephemeral port, counted up from Linux's first.
	nextPort int
	// pollWake is the earliest expiry of the timerfds the readiness call
	// under way found armed and not yet expired (0: none): it waits no
	// longer than that (awaitReady).
	pollWake int64
}

// portKey is what a socket binds: a port of one kind (stream or
// datagram), or an AF_UNIX path.
type portKey struct {
	kind int
	port int
	path string
}

func newNetTable() *netTable {
	return &netTable{pipes: map[uint64]*vpipe{}, socks: map[uint64]*vsocket{}, epolls: map[uint64]*vepoll{},
		events: map[uint64]*veventfd{}, ports: map[portKey]uint64{}, nextPort: 32768}
}

// net returns the machine's network, made on first use.
func (m *machine) net() *netTable {
	if m.files.net == nil {
		m.files.net = newNetTable()
	}
	return m.files.net
}

func (n *netTable) id() uint64 {
	n.nextID++
	return n.nextID
}

func (n *netTable) newPipe() uint64 {
	id := n.id()
	n.pipes[id] = &vpipe{readers: 1, writers: 1}
	return id
}

// fork copies the table for a forked execution state.
func (n *netTable) fork() *netTable {
	if n == nil {
		return nil
	}
	c := *n
	c.pipes = make(map[uint64]*vpipe, len(n.pipes))
	for id, p := range n.pipes {
		cp := *p
		cp.buf = slices.Clone(p.buf)
		c.pipes[id] = &cp
	}
	c.socks = make(map[uint64]*vsocket, len(n.socks))
	for id, s := range n.socks {
		cp := *s
		cp.backlog = slices.Clone(s.backlog)
		cp.dgrams = slices.Clone(s.dgrams) // the data of a datagram is never written
		c.socks[id] = &cp
	}
	c.epolls = make(map[uint64]*vepoll, len(n.epolls))
	for id, e := range n.epolls {
		c.epolls[id] = &vepoll{watch: maps.Clone(e.watch)}
	}
	c.events = make(map[uint64]*veventfd, len(n.events))
	for id, e := range n.events {
		cp := *e
		c.events[id] = &cp
	}
	c.ports = maps.Clone(n.ports)
	return &c
}

// footprint is the memory the network holds for the program: the bytes in
// its pipes and datagram queues, and a record per pipe and socket (the
// memory budget counts it).
func (n *netTable) footprint() uint64 {
	if n == nil {
		return 0
	}
	total := uint64(len(n.pipes)+len(n.socks)) * 128
	for _, p := range n.pipes {
		total += uint64(cap(p.buf))
	}
	for _, s := range n.socks {
		total += uint64(s.queued) + uint64(len(s.backlog))*32
	}
	return total
}

// Limits of what a socket holds for its reader, as Linux's defaults: the
// bytes of datagrams not yet received (more are dropped, as UDP drops
// them), and the connections not yet accepted (more are refused).
const (
	maxQueuedDatagrams = 212992
	maxBacklog         = 4096
)

// ends are the pipes a descriptor reads from and writes to (0: none):
// its own for a pipe or a socketpair, its socket's once connected.
func (m *machine) ends(f *vfile) (rx, tx uint64) {
	if f.sock != 0 {
		if s := m.net().socks[f.sock]; s != nil {
			return s.rx, s.tx
		}
		return 0, 0
	}
	return f.rx, f.tx
}

// isNet reports whether f is a pipe, a socket or an epoll instance rather
// than a file.
func (f *vfile) isNet() bool {
	return f.rx != 0 || f.tx != 0 || f.sock != 0 || f.epoll != 0 || f.event != 0
}

// newNetFD opens a descriptor for f.
func (m *machine) newNetFD(f *vfile, flags uint64) int {
	fd := m.files.freeFD(0)
	f.fd, f.proc, f.cloexec = fd, m.Proc(), flags&oCloexec != 0
	m.files.byFD[fd] = f
	return fd
}

// netChanged wakes every thread that may now go on: the readers of pipe
// rx (0: none), the writers of pipe tx, and every thread in poll, select
// or epoll_wait (they look again).
func (m *machine) netChanged(rx, tx uint64) {
	if rx != 0 {
		m.Wake(vm.PipeWaitKey, rx)
	}
	if tx != 0 {
		m.Wake(vm.PipeSpaceKey, tx)
	}
	m.Wake(vm.PollKey, 0)
}

// streamRead reads at most n bytes of the pipe rx into p: what it holds,
// or end of file when no writer is left; an empty pipe blocks the thread
// (EAGAIN when nonblocking). peek leaves the bytes in the pipe.
func (m *machine) streamRead(t *vm.Thread, in *ir.Inst, rx uint64, p, n uint64, nonblock, peek bool, res []vm.Value) error {
	pp := m.net().pipes[rx]
	if pp == nil {
		return fail(m, t, res, vm.EBADF)
	}
	if len(pp.buf) == 0 {
		switch {
		case pp.writers == 0 || n == 0:
			if pp.writers == 0 {
				m.Sync(t, vm.Acquire, vm.PipeKey, rx) // the writers' closes come first
			}
			vm.SetResult(res, 0)
			return m.Point()
		case nonblock:
			return m.wouldBlock(t, res)
		}
		return m.Block(t, vm.PipeWaitKey, rx)
	}
	k := min(n, uint64(len(pp.buf)))
	if err := m.WriteBytes(p, pp.buf[:k]); err != nil {
		return err
	}
	m.NoteAccess(p, k, vm.Write)
	m.Sync(t, vm.Acquire, vm.PipeKey, rx)
	if !peek {
		pp.buf = pp.buf[k:]
		if len(pp.buf) == 0 {
			pp.buf = nil // what was read is not held
		}
		m.netChanged(0, rx)
	}
	vm.SetResult(res, k)
	return m.Point()
}

// streamWrite writes n bytes at p to the pipe tx, as much as it has room
// for; a full pipe blocks the thread (EAGAIN when nonblocking), and so
// does one that cannot take a write of at most PIPE_BUF bytes whole. No
// reader left is EPIPE (a process that has not ignored SIGPIPE would
// also get the signal; augur reports the error alone).
func (m *machine) streamWrite(t *vm.Thread, in *ir.Inst, tx uint64, p, n uint64, nonblock bool, res []vm.Value) error {
	pp := m.net().pipes[tx]
	if pp == nil {
		return fail(m, t, res, vm.EBADF)
	}
	if pp.readers == 0 {
		return fail(m, t, res, EPIPE)
	}
	room := uint64(pipeCapacity - len(pp.buf))
	if n == 0 {
		vm.SetResult(res, 0)
		return m.Point()
	}
	if room == 0 || n <= pipeAtomic && room < n {
		if nonblock {
			return m.wouldBlock(t, res)
		}
		return m.Block(t, vm.PipeSpaceKey, tx)
	}
	k := min(n, room)
	b, err := m.written(p, k)
	if err != nil {
		return err
	}
	m.Charge(k)
	pp.buf = append(pp.buf, b...)
	m.Sync(t, vm.ReleaseMerge, vm.PipeKey, tx)
	m.netChanged(tx, 0)
	vm.SetResult(res, k)
	return m.Point()
}

// closeNet releases what descriptor f holds of the network.
func (m *machine) closeNet(t *vm.Thread, f *vfile) {
	n := m.net()
	m.releaseEnds(t, f.rx, f.tx)
	if s := n.socks[f.sock]; s != nil {
		s.refs--
		if s.refs == 0 {
			m.closeSocket(t, f.sock, s)
		}
	}
	if f.epoll != 0 {
		delete(n.epolls, f.epoll)
	}
	if e := n.events[f.event]; e != nil {
		e.refs--
		if e.refs == 0 {
			delete(n.events, f.event)
		}
	}
}

// releaseEnds gives up one reader of rx and one writer of tx, for thread
// t (nil: a process's end). What t did before it gave up a writer is
// ordered before a read that finds the end of file it makes.
func (m *machine) releaseEnds(t *vm.Thread, rx, tx uint64) {
	n := m.net()
	if t != nil && tx != 0 && n.pipes[tx] != nil {
		m.Sync(t, vm.ReleaseMerge, vm.PipeKey, tx)
	}
	if p := n.pipes[rx]; p != nil {
		p.readers--
		m.dropPipe(rx, p)
	}
	if p := n.pipes[tx]; p != nil {
		p.writers--
		m.dropPipe(tx, p)
	}
	m.netChanged(tx, rx) // readers see end of file, writers EPIPE
}

// dropPipe forgets a pipe no description holds.
func (m *machine) dropPipe(id uint64, p *vpipe) {
	if p.readers <= 0 && p.writers <= 0 {
		delete(m.net().pipes, id)
	}
}

// holdEnds takes one more reader of rx and writer of tx (dup).
func (m *machine) holdEnds(f *vfile) {
	n := m.net()
	if p := n.pipes[f.rx]; p != nil {
		p.readers++
	}
	if p := n.pipes[f.tx]; p != nil {
		p.writers++
	}
	if s := n.socks[f.sock]; s != nil {
		s.refs++
	}
	if e := n.events[f.event]; e != nil {
		e.refs++
	}
}

// netRead is read(2) on a pipe, a socket or an eventfd.
func (m *machine) netRead(t *vm.Thread, in *ir.Inst, f *vfile, p, n uint64, res []vm.Value) error {
	switch {
	case f.event != 0:
		return m.eventRead(t, in, f, p, n, res)
	case f.sock != 0:
		return m.recvFrom(t, in, uint64(f.fd), p, n, 0, 0, 0, res)
	case f.rx == 0: // a pipe's write end, an epoll instance
		return fail(m, t, res, vm.EBADF)
	}
	return m.streamRead(t, in, f.rx, p, n, f.nonblock, false, res)
}

// netWrite is write(2) on a pipe, a socket or an eventfd.
func (m *machine) netWrite(t *vm.Thread, in *ir.Inst, f *vfile, p, n uint64, res []vm.Value) error {
	switch {
	case f.event != 0:
		return m.eventWrite(t, in, f, p, n, res)
	case f.sock != 0:
		return m.sendTo(t, in, uint64(f.fd), p, n, 0, 0, 0, res)
	case f.tx == 0:
		return fail(m, t, res, vm.EBADF)
	}
	return m.streamWrite(t, in, f.tx, p, n, f.nonblock, res)
}

func (tab table) addNet() {
	pipe := func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		id := m.net().newPipe()
		var flags uint64 // pipe2's
		if len(a) > 1 {
			flags = a[1].Bits
		}
		nb := flags&oNonblock != 0
		r := m.newNetFD(&vfile{rx: id, read: true, openDesc: m.files.newDesc(nb)}, flags)
		w := m.newNetFD(&vfile{tx: id, write: true, openDesc: m.files.newDesc(nb)}, flags)
		if err := m.WriteUint(a[0].Bits, 4, uint64(r)); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return m.WriteUint(a[0].Bits+4, 4, uint64(w))
	}
	tab.registerIO(pipe, "pipe", "pipe2")
}
