package vm

import (
	"errors"
	"sort"
	"strings"

	"augur/analyzer/frontend/ir"
)

// Model is what augur knows of one external function (or intrinsic): the
// Go code that models it and how the rest of augur must treat a call to
// it. A table of them (Models) holds every model a machine can call; a
// new model, with its traits, is added in one place (see Register).
type Model struct {
	Name string
	fn   Native
	// Symbolic models take symbolic arguments as they are (assumptions,
	// printf's terms); every other model gets them made concrete first.
	Symbolic bool
	// Input models make program inputs symbolic (augur_make_symbolic,
	// __VERIFIER_nondet_*): a program that calls one has inputs to
	// explore even without --sym-* flags.
	Input bool
	// Sync is the synchronization the call does: Acquires for a call after
	// which the thread holds a lock or has passed an ordering point (what
	// lock-order reversals reorder), Releases for one that lets others go,
	// Signals for one that wakes a waiter (a condition signal, a semaphore
	// post: interleaving generation also moves these, so a waiter can
	// arrive after its wake-up).
	Sync SyncRole
	// Local models do what only the calling thread sees, or what the
	// monitor sees as memory accesses and synchronization: pure functions,
	// memcpy and memset, the allocator, thread creation and join. Another
	// thread's calls cannot change what a local call does or returns. An
	// execution whose threads, while two of them lived, called no other
	// model and raced nowhere is the only execution of its inputs (see
	// Result.Unordered).
	Local bool
	// Prints marks a model that writes program output (printf, puts,
	// fwrite): local too while what it writes goes to the run's standard
	// output or error, which no thread can read back. Such a call changes
	// what other schedules do in one way only, the order in which the
	// threads' output comes (Result.OutputOrder). One that writes
	// anywhere else (a file, a pipe, a memory stream) says so itself
	// (Machine.NoteUnordered).
	Prints bool
	// float1 and float2 are the model's function when it is a pure
	// function of doubles (RegisterFloat1, RegisterFloat2): exec calls it
	// for a call of doubles (ir.CodeCallFD) without step.
	float1 func(float64) float64
	float2 func(x, y float64) float64
}

// SyncRole is the synchronization a modeled call performs.
type SyncRole uint8

const (
	NoSync SyncRole = iota
	Acquires
	Releases
	Signals
)

// Models is a table of models: what a machine calls for each external
// function and intrinsic, and how the C library keeps its state. There is
// no table but the ones made with NewModels and handed to machines
// (Config.Models): package libc builds the one augur runs with
// (libc.Models), so what a machine can call is what its owner gave it.
// Overloaded intrinsics are registered by their base name ("llvm.memcpy"
// for "llvm.memcpy.p0i8.p0i8.i64").
type Models struct {
	byName map[string]*Model
	// newLibrary makes a new execution's library state (SetLibrary).
	newLibrary func(m *Machine) Library
	// holders read who holds a synchronization object, by kind
	// (SetHolder).
	holders map[waitKind]Holder
}

// NewModels returns a table holding the machine's own models: intrinsics,
// threads and their keys, cancellation, exceptions, setjmp, the process's
// exit and symbolic inputs. The C library adds its own (package libc).
func NewModels() *Models {
	tab := &Models{byName: map[string]*Model{}}
	tab.addIntrinsics()
	tab.addThreads()
	tab.addVerifierAtomics()
	tab.addCancel()
	tab.addExceptions()
	tab.addSetjmp()
	tab.addUcontext()
	tab.addProcess()
	tab.addSymbolic()
	return tab
}

// Register adds the model f under each name and returns the entries, so
// traits can follow: Register(f, "pthread_mutex_lock").Acquires().
func (tab *Models) Register(f Native, names ...string) Entries {
	out := make(Entries, len(names))
	for i, n := range names {
		if _, dup := tab.byName[n]; dup {
			panic("vm: two models of " + n) // a table is built by code: a duplicate is a bug in it
		}
		e := &Model{Name: n, fn: f}
		tab.byName[n] = e
		out[i] = e
	}
	return out
}

// RegisterFloat1 registers f, a pure function of one floating-point
// argument, under each name (FloatFunc1): a call of it with a double runs
// in the interpreter's loop without step.
func (tab *Models) RegisterFloat1(f func(float64) float64, names ...string) Entries {
	return tab.Register(FloatFunc1(f), names...).set(func(m *Model) { m.float1, m.Local = f, true })
}

// RegisterFloat2 is RegisterFloat1 for a function of two arguments of the
// same kind (FloatFunc2).
func (tab *Models) RegisterFloat2(f func(x, y float64) float64, names ...string) Entries {
	return tab.Register(FloatFunc2(f), names...).set(func(m *Model) { m.float2, m.Local = f, true })
}

// SetLibrary sets how a new execution makes its library state (package
// libc does, as it registers its models).
func (tab *Models) SetLibrary(f func(m *Machine) Library) { tab.newLibrary = f }

// complete says what a machine misses in tab: nil when it has the C
// library (its allocator and its state).
func (tab *Models) complete() error {
	if tab == nil || tab.byName["malloc"] == nil || tab.newLibrary == nil {
		return errors.New("vm: the machine has no C library models: give it libc.Models() (Config.Models)")
	}
	return nil
}

// Entries are table entries just added, to give traits to.
type Entries []*Model

// Symbolic lets the models take symbolic arguments as they are.
func (ms Entries) Symbolic() Entries { return ms.set(func(m *Model) { m.Symbolic = true }) }

// Input marks the models as making program inputs symbolic.
func (ms Entries) Input() Entries { return ms.set(func(m *Model) { m.Input = true }) }

// Acquires marks the models as acquisitions (see SyncRole).
func (ms Entries) Acquires() Entries { return ms.set(func(m *Model) { m.Sync = Acquires }) }

// Releases marks the models as releases.
func (ms Entries) Releases() Entries { return ms.set(func(m *Model) { m.Sync = Releases }) }

// Local marks the models as local (see Model.Local).
func (ms Entries) Local() Entries { return ms.set(func(m *Model) { m.Local = true }) }

// Prints marks the models as writers of program output (see
// Model.Prints).
func (ms Entries) Prints() Entries { return ms.set(func(m *Model) { m.Prints = true }) }

// Signals marks the models as wake-ups.
func (ms Entries) Signals() Entries { return ms.set(func(m *Model) { m.Sync = Signals }) }

func (ms Entries) set(f func(*Model)) Entries {
	for _, m := range ms {
		f(m)
	}
	return ms
}

// Lookup returns the model of a function name, or nil when the table has
// none.
func (tab *Models) Lookup(name string) *Model {
	if m, ok := tab.byName[name]; ok {
		return m
	}
	if strings.HasPrefix(name, "llvm.") {
		for s := name; ; {
			i := strings.LastIndexByte(s, '.')
			if i < 0 {
				break
			}
			s = s[:i]
			if m, ok := tab.byName[s]; ok {
				return m
			}
		}
	}
	return nil
}

// AcquiresAt reports whether a call to name is an acquisition (a lock,
// a semaphore wait, a condition wait): the scheduling decision after it is
// one lock-order reversals reorder.
func (tab *Models) AcquiresAt(name string) bool {
	m := tab.Lookup(name)
	return m != nil && m.Sync == Acquires
}

// ReordersAt reports whether the scheduling decision after a call to name
// is one interleaving generation reorders: an acquisition, or a wake-up
// (condition signal or broadcast, semaphore post).
func (tab *Models) ReordersAt(name string) bool {
	m := tab.Lookup(name)
	return m != nil && (m.Sync == Acquires || m.Sync == Signals)
}

// MarksInputs reports whether prog calls a model that makes inputs
// symbolic, so classification should explore paths (multipath). Under
// UndefinedHavoc an undefined function's result is such an input too.
func (tab *Models) MarksInputs(prog *ir.Program, undefined UndefinedPolicy) bool {
	for _, f := range prog.Funcs {
		if m := tab.Lookup(f.Name); f.Decl && m != nil && m.Input {
			return true
		}
		if undefined == UndefinedHavoc && tab.Havocable(f) {
			return true
		}
	}
	return false
}

// All returns every model, sorted by name.
func (tab *Models) All() []*Model {
	out := make([]*Model, 0, len(tab.byName))
	for _, m := range tab.byName {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// resolve binds every declaration of prog to its model, so calls
// dispatch by function id.
func (tab *Models) resolve(prog *ir.Program) []*Model {
	out := make([]*Model, len(prog.FuncOf))
	for _, f := range prog.Funcs {
		if f.Decl {
			out[f.ID] = tab.Lookup(f.Name)
		}
	}
	return out
}

// ReadUint reads an unsigned integer of size bytes of program data at addr
// for the current call, reporting the access to the monitor.
func (m *Machine) ReadUint(addr uint64, size int) (uint64, error) {
	v, err := m.SyncRead(addr, size)
	if err == nil {
		m.noteNative(addr, uint64(size), Read)
	}
	return v, err
}

// WriteUint writes the low size bytes of v at addr as program data for the
// current call, reporting the access to the monitor.
func (m *Machine) WriteUint(addr uint64, size int, v uint64) error {
	err := m.SyncWrite(addr, size, v)
	if err == nil {
		m.noteNative(addr, uint64(size), Write)
	}
	return err
}

// CString reads a NUL-terminated string argument, reporting the read to
// the monitor.
func (m *Machine) CString(addr uint64) (string, error) {
	s, err := m.ReadCString(addr, 1<<24)
	if err != nil {
		return "", err
	}
	m.noteNative(addr, uint64(len(s)+1), Read)
	return s, nil
}

// SetResult sets a model's result (none for a void call) to v.
func SetResult(res []Value, v uint64) {
	if len(res) > 0 {
		res[0] = Value{Bits: v}
	}
}

// errno values used by the models.
const (
	EPERM     = 1
	ENOENT    = 2
	EBADF     = 9
	EFAULT    = 14
	EAGAIN    = 11
	ENOMEM    = 12
	EBUSY     = 16
	EEXIST    = 17
	ENOTDIR   = 20
	EISDIR    = 21
	EINVAL    = 22
	ESPIPE    = 29
	ERANGE    = 34
	ENOTEMPTY = 39
	EDEADLK   = 35
	ETIMEDOUT = 110
)

// SetErrno stores e in the calling thread's errno.
func (s *state) SetErrno(t *Thread, e int) error {
	addr, err := s.errnoAddr(t)
	if err != nil {
		return err
	}
	return s.SyncWrite(addr, 4, uint64(e)) // errno is thread-local
}

// errnoAddr is the address of t's errno (the runtime's thread-local
// __augur_errno, which __errno_location returns).
func (s *state) errnoAddr(t *Thread) (uint64, error) {
	g := s.prog.GlobalByName("__augur_errno")
	if g == nil {
		return 0, unsupported("errno: the runtime's __augur_errno is missing")
	}
	return s.tlsAddr(t, g.ID)
}

// StoreString writes b and a terminating NUL at p, truncated to fit n bytes
// when bounded.
func (m *Machine) StoreString(p uint64, b []byte, n uint64, bounded bool) error {
	if bounded {
		if n == 0 {
			return nil
		}
		if uint64(len(b)) > n-1 {
			b = b[:n-1]
		}
	}
	buf := make([]byte, len(b)+1)
	copy(buf, b)
	if err := m.mem.Write(p, buf); err != nil {
		return memErr(err)
	}
	m.clearSym(p, uint64(len(buf)))
	m.noteNative(p, uint64(len(buf)), Write)
	return nil
}
