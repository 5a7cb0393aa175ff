package vm

import (
	"encoding/binary"
	"fmt"

	"augur/analyzer/exec/expr"
	"augur/analyzer/frontend/ir"
)

// What the C library's stdio, file and network models (package libc) use of
// the machine's symbolic inputs and of the output it records: the
// classifier compares outputs, and inputs are the machine's to make.

// SymbolicBytes makes the first n bytes of an input (a file, standard
// input) the variables name[i], seeded by seed (zeros past its end), and
// keeps the rest of the seed concrete: the input is as long as the longer
// of the two. The terms cover the first n bytes only.
func (s *state) SymbolicBytes(name string, seed []byte, n int) ([]byte, []*expr.Expr) {
	data := make([]byte, max(n, len(seed)))
	copy(data, seed)
	terms := make([]*expr.Expr, n)
	name = s.inputName(name)
	for i := range terms {
		v := fmt.Sprintf("%s[%d]", name, i)
		terms[i] = s.sym.B.Variable(v, 8)
		s.sym.seed(v, uint64(data[i]), false)
	}
	return data, terms
}

// ReplayBytes is SymbolicBytes for a concrete run: the first n bytes are
// the replayed inputs' values (Config.Inputs), or the seed's, and the rest
// is the seed.
func (m *Machine) ReplayBytes(name string, seed []byte, n int) []byte {
	data := make([]byte, max(n, len(seed)))
	copy(data, seed)
	name = m.inputName(name)
	for i := 0; i < n; i++ {
		if v, ok := m.cfg.Inputs[fmt.Sprintf("%s[%d]", name, i)]; ok {
			data[i] = byte(v)
		}
	}
	return data
}

// NoteOutput records b, printed by t on stream 1 or 2, in the digest and,
// while under Config.MaxOutput, as an event.
func (m *Machine) NoteOutput(t *Thread, stream int, b []byte) {
	if !m.outputOrder && m.liveThreads() > 1 {
		m.outputOrder = true
	}
	m.digest.add(stream, b)
	max := m.cfg.MaxOutput
	if max == 0 {
		max = DefaultMaxOutput
	}
	if m.outOmit > 0 || m.outKept+len(b) > max || len(m.output)-m.fileWrites >= maxOutputEvents {
		m.outOmit += uint64(len(b))
		return
	}
	m.outKept += len(b)
	m.output = append(m.output, OutputEvent{Stream: stream, Data: append([]byte(nil), b...),
		Thread: t.ID, Stack: m.stack(t)})
}

// NoteFileWrite records that t wrote b to the file at path, as a
// StreamFile event, while fewer than maxFileWriteEvents such events were
// kept. What the file holds at the end is compared through the result's
// Written files; the events only tell in which order threads wrote.
func (m *Machine) NoteFileWrite(t *Thread, path string, b []byte) {
	if m.fileWrites >= maxFileWriteEvents {
		return
	}
	m.fileWrites++
	data := make([]byte, len(path)+9)
	copy(data, path)
	binary.LittleEndian.PutUint64(data[len(path)+1:], FNV(FNVOffset, b))
	m.output = append(m.output, OutputEvent{Stream: StreamFile, Data: data, Thread: t.ID})
}

// maxFileWriteEvents bounds the StreamFile events an execution keeps. They
// serve only to steer a run toward another's order of writes, and each
// costs the garbage collector as long as the run lives: 65,536 of them
// made a loop of two million fprintf calls to a file 1.4 times slower
// (4,096: within the noise). Past them the steering leaves the
// schedule to the post-race policy, as past the printed events it keeps.
const maxFileWriteEvents = 4096

// SymbolicPrintArgs keeps the terms of the symbolic arguments of a printf
// (from index first on) and replaces them, in a, by values from a solution
// of the path constraint, without constraining the path: printing does not
// fork or fix the inputs. It returns nil when every argument is concrete.
func (s *state) SymbolicPrintArgs(a []Value, first int) ([]*expr.Expr, error) {
	if s.sym == nil {
		return nil, nil
	}
	for i := 0; i < first && i < len(a); i++ { // the stream and the format
		if a[i].Sym != nil {
			x, err := s.concretize(a[i], 64)
			if err != nil {
				return nil, err
			}
			a[i] = Value{Bits: x}
		}
	}
	var terms []*expr.Expr
	var model expr.Assignment
	for i := first; i < len(a); i++ {
		if a[i].Sym == nil {
			continue
		}
		if terms == nil {
			terms = make([]*expr.Expr, len(a)-first)
			var sat bool
			var err error
			if model, sat, err = s.sym.S.Model(s.sym.pc); err != nil || !sat {
				return nil, solverErr(fmt.Errorf("no solution to render symbolic output: %v", err))
			}
		}
		terms[i-first] = a[i].Sym
		a[i] = Value{Bits: expr.Eval(a[i].Sym, model)}
	}
	for i := range terms { // concrete arguments are constant terms
		if terms[i] == nil {
			terms[i] = s.sym.B.Constant(a[first+i].Bits, 64)
		}
	}
	return terms, nil
}

// SetSymBytes records the symbolic bytes (nil entries concrete) just
// written at p, or clears stale symbolic bytes there.
func (s *state) SetSymBytes(p uint64, data []byte, terms []*expr.Expr) error {
	o, off, err := s.mem.resolve(p, uint64(len(data)), true)
	if err != nil {
		return memErr(err)
	}
	if terms == nil && o.sym == nil {
		return nil
	}
	o = s.mem.writable(o)
	if o.sym == nil {
		o.sym = make([]*expr.Expr, o.Size)
	}
	for i := range data {
		var e *expr.Expr
		if terms != nil {
			e = terms[i]
		}
		o.sym[off+uint64(i)] = e
	}
	return nil
}

// AnnotateOutput gives the output event printf just recorded (OutputLen
// grew) its format, the terms of its symbolic arguments (from
// SymbolicPrintArgs) and the path constraint they were printed under, for
// the classifier to compare outputs symbolically.
func (s *state) AnnotateOutput(format string, terms []*expr.Expr) {
	ev := &s.output[len(s.output)-1]
	if ev.Stream == StreamFile { // printed to a file: not output terms compare
		return
	}
	ev.Format, ev.Args = format, terms
	ev.Constraints = s.sym.pc[:len(s.sym.pc):len(s.sym.pc)]
}

// OutputLen is the number of output events recorded so far.
func (s *state) OutputLen() int { return len(s.output) }

// Terms builds the terms of a symbolic execution (nil in a concrete one).
func (s *state) Terms() *expr.Builder {
	if s.sym == nil {
		return nil
	}
	return s.sym.B
}

// Concretize picks one value of w bits for v consistent with the path and
// constrains the path to it (for a model that computes on concrete
// values, as scanf's conversions do).
func (s *state) Concretize(v Value, w uint16) (uint64, error) { return s.concretize(v, w) }

// ConcretizeSplit picks a value of w bits for v consistent with the path,
// constrains the path to its class (classOf indexes classes) and forks,
// for each other class the path allows, a state that runs the current
// call again from its start, after fix has put the model's own state in
// the fork back as the call found it.
func (m *Machine) ConcretizeSplit(v Value, w uint16, classes []func(*expr.Expr) *expr.Expr, classOf func(uint64) int,
	fix func(*Machine)) (uint64, error) {
	return m.concretizeSplit(v, w, classes, classOf, fix)
}

// ConcreteBytes makes the n bytes at addr concrete, under constraints, as
// a model that reads them as data does.
func (s *state) ConcreteBytes(addr, n uint64) error { return s.concreteBytes(addr, n) }

// ReadBytes reads n bytes of program memory at p, as they are: the caller
// reports the access (NoteAccess) and makes symbolic bytes concrete first
// (ConcreteBytes) when it reads them as data.
func (s *state) ReadBytes(p, n uint64) ([]byte, error) {
	b, err := s.mem.Read(p, n)
	return b, memErr(err)
}

// WriteBytes writes b to program memory at p; the caller reports the
// access and the bytes' terms (SetSymBytes).
func (s *state) WriteBytes(p uint64, b []byte) error { return memErr(s.mem.Write(p, b)) }

// ReadCString reads a NUL-terminated string of at most max bytes at p,
// concrete (made so under constraints); the caller reports the read.
func (st *state) ReadCString(p uint64, max int) (string, error) {
	if err := st.concreteString(p); err != nil {
		return "", err
	}
	s, err := st.mem.ReadCString(p, max)
	return s, memErr(err)
}

// ByteTerm reads the byte at p and, in a symbolic run, its term when it
// is symbolic, without constraining it (ReadCString pins every byte): a
// model that tells a byte's class apart (sscanf's digits) pins what it
// needs itself. It does not report the read (NoteAccess).
func (s *state) ByteTerm(p uint64) (byte, *expr.Expr, error) {
	o, off, err := s.mem.resolve(p, 1, false)
	if err != nil {
		return 0, nil, memErr(err)
	}
	var e *expr.Expr
	if s.sym != nil && o.sym != nil {
		e = o.sym[off]
	}
	return o.bytes[off], e, nil
}

// NoteAccess reports an access of the current call to n bytes of program
// memory at addr to the race detector.
func (m *Machine) NoteAccess(addr, n uint64, kind AccessKind) { m.noteNative(addr, n, kind) }

// Alloc makes an object of size bytes for thread t's call at site and
// returns its address: a stream's FILE or a directory's DIR (ObjHeap), or
// text the program may only read (ObjGlobal with text set: strerror's).
func (s *state) Alloc(kind ObjKind, size uint64, name string, site ir.LocID, t *Thread, text []byte) uint64 {
	o := s.mem.alloc(kind, size, name, site, t.ID)
	if text != nil {
		copy(o.bytes, text)
		o.ReadOnly = true
		o.setLimits()
	}
	return ir.Addr(o.ID, 0)
}

// Charge counts n bytes a model moved against the instruction budget, as
// the work of copying them.
func (m *Machine) Charge(n uint64) { m.charge(n) }

// Now is the virtual clock, in nanoseconds.
func (s *state) Now() int64 { return s.now() }

// Proc is the process of the running thread (0: the program; k+1: client
// program k), the owner of the descriptors it opens.
func (s *state) Proc() int { return s.procOf() }

// ErrnoAddr is the address of t's errno.
func (s *state) ErrnoAddr(t *Thread) (uint64, error) { return s.errnoAddr(t) }

// Terminate ends the execution: what a model returns for a crash (a null
// FILE pointer) or another termination of its kind.
func Terminate(kind TermKind, signal int, format string, args ...any) error {
	return terminate(kind, signal, format, args...)
}
