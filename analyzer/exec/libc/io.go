package libc

import (
	"maps"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// machine is an execution as the stdio, file and network models see it: the
// Machine, and the state those models keep of it, the open files and the
// network (files.go, net.go). It is the execution's library state
// (vm.Library): the machine holds one, forks it with itself, flushes it
// when the process ends and counts its memory against the budget; nothing
// of the interpreter reaches into it.
type machine struct {
	Machine
	files *fileTable
	// errStrings are the strerror texts handed out, one object per code.
	errStrings map[int]uint64
}

// ioModel is the Go code of a stdio, file or network function: a model
// (see model) that reaches the execution's files and network.
type ioModel func(m *machine, t *vm.Thread, in *ir.Inst, args, res []vm.Value) error

// registerIO adds f to the machine's model table under each name.
func (tab table) registerIO(f ioModel, names ...string) vm.Entries {
	return tab.Register(func(vmm *vm.Machine, t *vm.Thread, in *ir.Inst, args, res []vm.Value) error {
		return f(ioOf(vmm), t, in, args, res)
	}, names...)
}

// ioOf is the library state of an execution.
func ioOf(vmm *vm.Machine) *machine { return vmm.Library().(*machine) }

// newState makes a new execution's library state (vm.Models.SetLibrary).
func newState(vmm *vm.Machine) vm.Library {
	m := &machine{Machine: vmm}
	m.files = newFileTable(m, vmm.Config())
	return m
}

// Fork is the state of the fork c of the execution, which it shares until
// either writes (files are copied before their first overwrite).
func (m *machine) Fork(c *vm.Machine) vm.Library {
	cm := &machine{Machine: c, errStrings: maps.Clone(m.errStrings)}
	cm.files = m.files.fork(cm)
	return cm
}

// Flush writes out every stream's buffered output, as exit does.
func (m *machine) Flush() { m.files.flushAll(nil) }

// Footprint is the memory the files and the network hold, in bytes.
func (m *machine) Footprint() uint64 { return m.files.footprint() }

// WriteStderr writes msg to t's standard error, unbuffered, as a message
// of the C library (abort's, an assertion's) is written.
func (m *machine) WriteStderr(t *vm.Thread, msg []byte) { _ = m.files.writeStream(t, 2, msg) }

// ProcessExit closes the descriptors process proc opened, as its end does
// (a client program's: the server sees its connections end).
func (m *machine) ProcessExit(proc int) { m.files.closeOwnedBy(proc) }

// StdinDrained reports whether a read of the standard input the run
// began with found its end.
func (m *machine) StdinDrained() bool {
	in := m.files.stdFiles[0]
	return in.drained && in.std()
}

// b2u is 1 for true and 0 for false.
// written returns the n bytes at p that a write hands to the kernel (a
// file, a pipe, a socket): made concrete, read, and noted as the
// program's read of them, as the system call reads them.
func (m *machine) written(p, n uint64) ([]byte, error) {
	if err := m.ConcreteBytes(p, n); err != nil {
		return nil, err
	}
	b, err := m.ReadBytes(p, n)
	if err != nil {
		return nil, err
	}
	m.NoteAccess(p, n, vm.Read)
	return b, nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
