package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Named pipes (FIFOs): mkfifo makes a name in the virtual file system, and
// an open of that name gives one end of a pipe of the network (net.go), so
// reads, writes, end of file, EPIPE, poll and close are a pipe's. As on
// Linux, an open for reading waits until a writer opens the FIFO and an
// open for writing until a reader does (each wait is a blocked thread the
// scheduler and the deadlock report see); O_NONBLOCK makes a reader's open
// return at once and a writer's fail with ENXIO when no reader has it
// open; O_RDWR never waits. The pipe lives while an end is open: data
// left in it when the last end closes is gone, and the next open makes a
// new one.
//
// A FIFO's name can be stat'ed (S_IFIFO), tested with access, opened and
// removed (unlink, remove). Not modeled: stdio streams over a FIFO (fopen
// stops the run, as fdopen of a pipe does), renaming one, and FIFOs in
// directory listings.

// ENXIO is open's error for a nonblocking writer with no reader.
const ENXIO = 6

// fifoQueue is the wait queue of the opens of FIFO pipe id waiting for a
// writer (reading) or for a reader.
func fifoQueue(id uint64, reading bool) uint64 {
	if reading {
		return 2 * id
	}
	return 2*id + 1
}

func (tab table) addFifos() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		path, failed, err := m.kernelName(t, res, a[0].Bits, ^uint64(0))
		if failed {
			return err
		}
		if m.files.exists(path) {
			return fail(m, t, res, vm.EEXIST)
		}
		if !m.files.isDir(pathDir(path)) {
			return fail(m, t, res, vm.ENOENT)
		}
		if m.files.fifos == nil {
			m.files.fifos = map[string]uint64{}
		}
		m.files.fifos[path] = 0 // no pipe until the first open
		m.files.inode(path)
		vm.SetResult(res, 0)
		return nil
	}, "mkfifo")
}

// exists reports whether path names a file, a directory, a FIFO or a
// symbolic link (followed or not: a link to nothing exists as a name).
func (ft *fileTable) exists(path string) bool {
	_, file := ft.fs[path]
	_, fifo := ft.fifos[path]
	return file || fifo || ft.isLink(path) || ft.isDir(path)
}

// openFifo opens the FIFO at path with open(2) flags: a two-step call
// when it waits for the other end (Thread.Phase 1 once it waits). It
// returns the new descriptor, or -1 with errno set.
func (m *machine) openFifo(t *vm.Thread, path string, flags uint64) (int, error) {
	n := m.net()
	acc := flags & oAccMode
	reading, writing := acc != oWronly, acc != 0
	id := m.files.fifos[path]
	if t.Phase() == 0 {
		p := n.pipes[id]
		if p == nil {
			id = n.id()
			p = &vpipe{}
			n.pipes[id] = p
			m.files.fifos[path] = id
		}
		if acc == oWronly && flags&oNonblock != 0 && p.readers == 0 {
			return -1, m.SetErrno(t, ENXIO)
		}
		if reading {
			p.readers++
			m.Wake(vm.FifoKey, fifoQueue(id, false))
		}
		if writing {
			p.writers++
			m.Wake(vm.FifoKey, fifoQueue(id, true))
		}
		waits := acc == oWronly && p.readers == 0 || acc == 0 && flags&oNonblock == 0 && p.writers == 0
		if waits {
			t.SetPhase(1)
			return -1, m.Block(t, vm.FifoKey, fifoQueue(id, reading))
		}
	}
	// The other end opened (a wake-up comes from nothing else), or there
	// was no need to wait.
	t.SetPhase(0)
	f := &vfile{mode: unbuffered, read: reading, write: writing,
		openDesc: m.files.newDesc(flags&oNonblock != 0)}
	if reading {
		f.rx = id
	}
	if writing {
		f.tx = id
	}
	fd := m.newNetFD(f, flags)
	m.netChanged(id, 0)
	return fd, m.Point()
}
