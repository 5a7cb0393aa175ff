package vm

import (
	"strings"

	"augur/analyzer/ir"
)

// registry maps external function and intrinsic names to their models.
// Overloaded intrinsics are registered by their base name ("llvm.memcpy" for
// "llvm.memcpy.p0i8.p0i8.i64").
var registry = map[string]native{}

func register(f native, names ...string) {
	for _, n := range names {
		registry[n] = f
	}
}

// lookupNative finds the model for a declared function name.
func lookupNative(name string) native {
	if f, ok := registry[name]; ok {
		return f
	}
	if strings.HasPrefix(name, "llvm.") {
		for s := name; ; {
			i := strings.LastIndexByte(s, '.')
			if i < 0 {
				break
			}
			s = s[:i]
			if f, ok := registry[s]; ok {
				return f
			}
		}
	}
	return nil
}

// resolveNatives binds every declaration of prog to its model, once per
// program, so calls dispatch by function id.
func resolveNatives(prog *ir.Program) []native {
	out := make([]native, len(prog.FuncOf))
	for _, f := range prog.Funcs {
		if f.Decl {
			out[f.ID] = lookupNative(f.Name)
		}
	}
	return out
}

// readUint reads an unsigned integer of size bytes of program data at addr
// for the current call, reporting the access to the monitor.
func (m *Machine) readUint(addr uint64, size int) (uint64, error) {
	v, err := m.syncRead(addr, size)
	if err == nil {
		m.noteNative(addr, uint64(size), Read)
	}
	return v, err
}

// writeUint writes the low size bytes of v at addr as program data for the
// current call, reporting the access to the monitor.
func (m *Machine) writeUint(addr uint64, size int, v uint64) error {
	err := m.syncWrite(addr, size, v)
	if err == nil {
		m.noteNative(addr, uint64(size), Write)
	}
	return err
}

// syncRead reads a word of a synchronization object (a mutex's lock word, a
// semaphore's value): the models' own state, whose ordering they report as
// sync events, so it is not a program access.
func (m *Machine) syncRead(addr uint64, size int) (uint64, error) {
	b, err := m.mem.Read(addr, uint64(size))
	if err != nil {
		return 0, memErr(err)
	}
	return ir.GetScalar(b, ir.Scalar{Kind: ir.KInt, Bits: uint16(8 * size)}), nil
}

// syncWrite writes a word of a synchronization object (see syncRead).
func (m *Machine) syncWrite(addr uint64, size int, v uint64) error {
	b, err := m.mem.writeSlice(addr, uint64(size))
	if err != nil {
		return memErr(err)
	}
	ir.PutScalar(b, ir.Scalar{Kind: ir.KInt, Bits: uint16(8 * size)}, v)
	return nil
}

// readPtr reads a pointer at addr.
func (m *Machine) readPtr(addr uint64) (uint64, error) { return m.readUint(addr, 8) }

// cstring reads a NUL-terminated string argument.
func (m *Machine) cstring(addr uint64) (string, error) {
	if err := m.concreteString(addr); err != nil {
		return "", err
	}
	s, err := m.mem.ReadCString(addr, 1<<24)
	if err != nil {
		return "", memErr(err)
	}
	m.noteNative(addr, uint64(len(s)+1), Read)
	return s, nil
}

func setRes(res []Value, v uint64) {
	if len(res) > 0 {
		res[0] = Value{Bits: v}
	}
}

// errno values used by the models.
const (
	EPERM     = 1
	ENOENT    = 2
	EBADF     = 9
	EAGAIN    = 11
	ENOMEM    = 12
	EBUSY     = 16
	EINVAL    = 22
	ERANGE    = 34
	EDEADLK   = 35
	ETIMEDOUT = 110
)

// setErrno stores e in the calling thread's errno.
func (m *Machine) setErrno(t *Thread, e int) error {
	addr, err := m.errnoAddr(t)
	if err != nil {
		return err
	}
	return m.syncWrite(addr, 4, uint64(e)) // errno is thread-local
}

// errnoAddr is the address of t's errno (the runtime's thread-local
// __augur_errno, which __errno_location returns).
func (m *Machine) errnoAddr(t *Thread) (uint64, error) {
	g := m.prog.GlobalByName("__augur_errno")
	if g == nil {
		return 0, unsupported("errno: the runtime's __augur_errno is missing")
	}
	return m.tlsAddr(t, g.ID)
}
