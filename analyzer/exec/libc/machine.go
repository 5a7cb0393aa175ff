// Package libc holds the C library functions augur models in Go rather than
// compiling from runtime/libc: those that need the execution they run in
// (its heap, its errno, its clock, its memory as the race detector sees
// it). A model reaches the execution only through Machine, a small
// interface that *vm.Machine implements, so the interpreter (package vm)
// stays one idea: the program's instructions, threads and memory.
//
// The models register in vm's table (vm.Register), the one table of every
// modeled function with its traits, which docs/models.md is generated from;
// a program that runs a machine imports this package for that. The machine's
// own models (LLVM intrinsics, exceptions, setjmp, the life of threads and
// processes, symbolic inputs) stay in package vm. stdio, files and sockets
// keep state of their own, the execution's library state (io.go); the
// machine forks and flushes it without looking inside
// (docs/architecture.md, "Models outside the interpreter").
package libc

import (
	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Machine is what a model may ask of the execution it runs in. Reads and
// writes through it are the program's accesses of the current call: the
// race detector sees them at the call's location.
type Machine interface {
	// ReadUint and WriteUint read and write an unsigned integer of size
	// bytes of program memory.
	ReadUint(addr uint64, size int) (uint64, error)
	WriteUint(addr uint64, size int, v uint64) error
	// CString reads a NUL-terminated string.
	CString(addr uint64) (string, error)
	// CopyMem copies n bytes of program memory from src to dst (the
	// ranges may overlap).
	CopyMem(dst, src, n uint64) error
	// SetErrno sets t's errno.
	SetErrno(t *vm.Thread, e int) error
	// Malloc and Free allocate and release heap objects; Malloc returns 0
	// for a size past augur's object limit, as malloc does out of memory,
	// and ends the execution when the memory budget is spent. Free ends it
	// on a double free or a pointer malloc did not return, as glibc aborts.
	Malloc(t *vm.Thread, n uint64, site ir.LocID, name string) (uint64, error)
	Free(t *vm.Thread, p uint64, site ir.LocID, what string) error
	// HeapBlockAt describes the live heap object p points into.
	HeapBlockAt(p uint64) (vm.HeapBlock, bool)

	// Clock and CPUTime read the virtual clocks for t's call in (a
	// function named kind), recording the read as an input.
	Clock(t *vm.Thread, in *ir.Inst, kind string) int64
	CPUTime(t *vm.Thread, in *ir.Inst) uint64
	// TimespecNs reads a struct timespec as nanoseconds.
	TimespecNs(p uint64) (int64, error)
	// Sleep blocks t for d nanoseconds of virtual time. It is a two-step
	// call: the model returns what Sleep returns, and is called again when
	// t wakes, with Resuming(t) true; Sleep then ends the call.
	Sleep(t *vm.Thread, d int64) error
	Resuming(t *vm.Thread) bool

	// SetMem fills n bytes of program memory at dst with c.
	SetMem(dst uint64, c byte, n uint64) error
	// Point is what a model returns to end its call with a preemption
	// point (every call that changes what another thread could see is
	// one).
	Point() error

	// Synchronization objects (sync.go). SyncRead and SyncWrite read and
	// write a word of an object's own state, which is not a program
	// access: the race detector orders by the object's events, which Sync
	// reports (and NoteLock, for the lock graph, when a lock is taken).
	SyncRead(addr uint64, size int) (uint64, error)
	SyncWrite(addr uint64, size int, v uint64) error
	// SyncWords reads and writes the 32-bit fields of an object of size
	// bytes, looking it up once; the fields are the machine's until its
	// next call, so a model uses them before it calls another.
	SyncWords(addr, size uint64) *vm.SyncWords
	Sync(t *vm.Thread, op vm.SyncOp, kind uint8, addr uint64)
	NoteLock(t *vm.Thread, kind uint8, addr uint64, tried bool)
	// TookLock, TryFailed and LockBusy end a lock call (or a semaphore
	// wait) that took its lock, that tried it in vain (its failure set by
	// the model), and that found it taken (waiting as its mode says);
	// each returns what the model returns, the call's preemption point or
	// none.
	TookLock(t *vm.Thread) error
	TryFailed(t *vm.Thread) error
	LockBusy(t *vm.Thread, kind uint8, addr uint64, mode vm.LockMode, abstime uint64, res []vm.Value) error
	// Block makes t wait on the queue of the object of kind at addr, and
	// BlockUntil until a deadline too; the call is made again when t is
	// woken (Wake, WakeOne) or, reporting timedOut, when the deadline
	// passes.
	Block(t *vm.Thread, kind uint8, addr uint64) error
	BlockUntil(t *vm.Thread, kind uint8, addr uint64, abstime uint64) (timedOut bool, err error)
	Wake(kind uint8, addr uint64)
	WakeOne(kind uint8, addr uint64) bool
	// WakeN wakes at most n of the threads waiting on the object and
	// returns how many it woke; BlockFor is BlockUntil with a deadline d
	// nanoseconds from the first call, for a wait a wake-up ends.
	WakeN(kind uint8, addr uint64, n int) int
	BlockFor(t *vm.Thread, kind uint8, addr uint64, d int64) (timedOut bool, err error)
	// CancelPoint acts on t's pending cancellation at a cancellation
	// point: ok is set, and err is what the model returns.
	CancelPoint(t *vm.Thread) (err error, ok bool)
	// ReadTimespec reads a struct timespec's (or timeval's) two fields.
	ReadTimespec(p uint64) (s, frac int64, err error)

	// Memory as bytes, for the models that move data (vm/libc_io.go):
	// they report the access themselves (NoteAccess) and keep the
	// bytes' terms (ConcreteBytes, SetSymBytes).
	ReadBytes(p, n uint64) ([]byte, error)
	WriteBytes(p uint64, b []byte) error
	ReadCString(p uint64, max int) (string, error)
	ByteTerm(p uint64) (byte, *expr.Expr, error)
	NoteAccess(addr, n uint64, kind vm.AccessKind)
	// StoreString writes b and a NUL at p (truncated to n bytes when
	// bounded), reporting the write.
	StoreString(p uint64, b []byte, n uint64, bounded bool) error
	// Alloc makes an object the library hands out (a FILE, a DIR, a
	// read-only text) and returns its address.
	Alloc(kind vm.ObjKind, size uint64, name string, site ir.LocID, t *vm.Thread, text []byte) uint64
	// Charge counts the work of moving n bytes against the budget.
	Charge(n uint64)
	// Now is the virtual clock; Proc the running thread's process (the
	// owner of the descriptors it opens); ErrnoAddr the address of t's
	// errno.
	Now() int64
	Proc() int
	ErrnoAddr(t *vm.Thread) (uint64, error)
	Program() *ir.Program
	// ProgramLoc is where the program's own code made the call at: at,
	// or the call into augur's runtime that led to it.
	ProgramLoc(t *vm.Thread, at ir.LocID) ir.LocID
	Config() vm.Config

	// Inputs and outputs. Symbolic is the exploration state of a
	// symbolic execution (nil in a concrete one), whose Terms the models
	// build with; SymbolicBytes and ReplayBytes make the bytes of an
	// input (a file, stdin) as a symbolic and a replayed run take them.
	// NoteOutput records what the program printed on stdout or stderr,
	// which the classifier compares; printf's symbolic arguments stay
	// terms of it (SymbolicPrintArgs, AnnotateOutput). NoteFileWrite
	// records which thread wrote to which file, in order. NoteUnordered
	// says that a call of a model that prints (vm.Model.Prints) wrote
	// somewhere another thread can read back; OrderOpen says whether it
	// would record anything, so the reason is built only then.
	Symbolic() *vm.Symbolic
	Terms() *expr.Builder
	Concretize(v vm.Value, w uint16) (uint64, error)
	ConcretizeSplit(v vm.Value, w uint16, classes []func(*expr.Expr) *expr.Expr, classOf func(uint64) int, fix func(*vm.Machine)) (uint64, error)
	ConcreteBytes(addr, n uint64) error
	SetSymBytes(p uint64, data []byte, terms []*expr.Expr) error
	SymbolicBytes(name string, seed []byte, n int) ([]byte, []*expr.Expr)
	ReplayBytes(name string, seed []byte, n int) []byte
	NoteOutput(t *vm.Thread, stream int, b []byte)
	NoteFileWrite(t *vm.Thread, path string, b []byte)
	NoteUnordered(why string)
	OrderOpen() bool
	OutputLen() int
	SymbolicPrintArgs(a []vm.Value, first int) ([]*expr.Expr, error)
	AnnotateOutput(format string, terms []*expr.Expr)
}

// model is the Go code of a C function: it reads its flattened arguments
// from args and writes its result to res (empty for void), for the call in
// made by thread t. It returns nil when done or a termination.
type model func(m Machine, t *vm.Thread, in *ir.Inst, args, res []vm.Value) error

// register adds f to the machine's model table under each name.
func (tab table) register(f model, names ...string) vm.Entries {
	return tab.Register(func(m *vm.Machine, t *vm.Thread, in *ir.Inst, args, res []vm.Value) error {
		return f(m, t, in, args, res)
	}, names...)
}

// Machine is implemented by the interpreter's machine.
var _ Machine = (*vm.Machine)(nil)
