package vm

import (
	"math/bits"

	"augur/analyzer/exec/expr"
	"augur/analyzer/frontend/ir"
)

// symSwitch chooses the target of a switch on a symbolic value: the one the
// seed takes, with one fork for each other feasible target. It returns the
// index into in.Targets.
func (m *Machine) symSwitch(in *ir.Inst, v Value) (int, error) {
	s := m.sym
	b := s.B
	w := in.Ty.Bits
	x := v.Sym
	type alt struct {
		target int
		cond   *expr.Expr
	}
	var alts []alt
	notAny := b.Constant(1, 1)
	for _, c := range in.Cases {
		eq := b.Binary(expr.Eq, x, b.Constant(c.Value, w))
		alts = append(alts, alt{c.Target, eq})
		notAny = b.Binary(expr.And, notAny, b.Not(eq))
	}
	alts = append(alts, alt{0, notAny})
	var feasible []alt
	for _, a := range alts {
		ok, err := s.S.MayBeTrue(s.pc, a.cond)
		if err != nil {
			return 0, solverErr(err)
		}
		if ok {
			feasible = append(feasible, a)
		}
	}
	if len(feasible) == 0 {
		return 0, terminate(TermSolver, 0, "solver: the path constraint became unsatisfiable")
	}
	mine := 0
	for i, a := range feasible {
		if expr.Eval(a.cond, s.Seed) != 0 {
			mine = i
		}
	}
	if len(feasible) > 1 {
		for i, a := range feasible {
			if i == mine {
				continue
			}
			if s.Stats.Forks >= s.MaxForks {
				s.Stats.ForksRefused++
				continue
			}
			s.Stats.Forks++
			child := m.forkAgain()
			child.sym.pc = append(child.sym.pc, a.cond)
			m.spawned = append(m.spawned, child)
		}
		s.pc = append(s.pc, feasible[mine].cond)
		if m.cfg.PauseAtFork {
			return 0, errPaused
		}
	}
	return feasible[mine].target, nil
}

// gepSymbolic reports whether a GEP's base or an index is symbolic.
func gepSymbolic(in *ir.Inst, regs []Value) bool {
	if get(regs, in.A).Sym != nil {
		return true
	}
	for i := range in.Terms {
		if get(regs, in.Terms[i].Index).Sym != nil {
			return true
		}
	}
	return false
}

// symGEP computes a symbolic address: base + offset + sum(sext(index)*scale).
func (s *state) symGEP(in *ir.Inst, regs []Value) Value {
	b := s.sym.B
	addr := b.Binary(expr.Add, s.term(get(regs, in.A), 64), b.Constant(uint64(in.Imm), 64))
	for i := range in.Terms {
		term := &in.Terms[i]
		idx := b.SExt(s.term(get(regs, term.Index), uint16(term.Width)), 64)
		addr = b.Binary(expr.Add, addr, b.Binary(expr.Mul, idx, b.Constant(uint64(term.Scale), 64)))
	}
	return value(addr)
}

// maxTargets bounds the objects one symbolic pointer is followed into.
const maxTargets = 8

// maxSelect is the largest object a load at a symbolic offset reads as a
// select over all its bytes. A larger one is read as a select over the
// offsets of the load's own alignment (alignedSlots), when it has at most
// maxSelectSlots of them; past that, the offset is made concrete.
const (
	maxSelect      = 512
	maxSelectSlots = 512
)

// symTarget resolves a symbolic address to one object and an offset term.
// A pointer that may point into several objects forks one state per object
// (at most maxTargets; the rest are given up and counted). An offset that
// may leave the object forks a state that takes it and crashes there.
func (m *Machine) symTarget(v Value, size uint64) (*Object, *expr.Expr, error) {
	s := m.sym
	b := s.B
	s.Stats.SymbolicPointers++
	idTerm := b.Extract(v.Sym, ir.AddrShift, 64-ir.AddrShift)
	lo, hi := expr.Bounds(idTerm)
	ids := []uint64{lo} // when lo == hi, the offset cannot reach past the object's id bits
	if lo != hi {
		var err error
		if ids, err = m.targetIDs(idTerm); err != nil {
			return nil, nil, err
		}
	}
	if len(ids) > maxTargets {
		s.Stats.PointerTargetsGivenUp++
		ids = ids[:maxTargets]
	}
	if len(ids) > 1 {
		for _, id := range ids[1:] {
			if s.Stats.Forks >= s.MaxForks {
				s.Stats.ForksRefused++
				continue
			}
			s.Stats.Forks++
			child := m.forkAgain()
			child.sym.pc = append(child.sym.pc, b.Binary(expr.Eq, idTerm, b.Constant(id, idTerm.Width)))
			m.spawned = append(m.spawned, child)
		}
	}
	if len(ids) > 1 || lo != hi {
		s.pc = append(s.pc, b.Binary(expr.Eq, idTerm, b.Constant(ids[0], idTerm.Width)))
	}
	o := m.mem.Object(uint32(ids[0]))
	off := b.Extract(v.Sym, 0, ir.AddrShift)
	if o == nil || o.Freed || o.Kind == ObjFunc {
		return o, off, nil // the access fails as it would concretely
	}
	inBounds := b.Binary(expr.Ule, b.Binary(expr.Add, b.ZExt(off, 64), b.Constant(size, 64)), b.Constant(o.Size, 64))
	ok, _, err := m.decide(inBounds) // a fork takes the out-of-bounds offset
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, off, nil // caller makes the address concrete: out of bounds
	}
	return o, off, nil
}

// targetIDs asks the solver for the object ids idTerm can take on the
// path, one more than maxTargets at most.
func (st *state) targetIDs(idTerm *expr.Expr) ([]uint64, error) {
	s := st.sym
	b := s.B
	var ids []uint64
	excluded := b.Constant(1, 1)
	for len(ids) <= maxTargets {
		ok, err := s.S.MayBeTrue(s.pc, excluded)
		if err != nil {
			return nil, solverErr(err)
		}
		if !ok {
			break
		}
		id, err := s.S.Value(append(s.pc[:len(s.pc):len(s.pc)], excluded), idTerm)
		if err != nil {
			return nil, solverErr(err)
		}
		ids = append(ids, id)
		excluded = b.Binary(expr.And, excluded, b.Not(b.Binary(expr.Eq, idTerm, b.Constant(id, idTerm.Width))))
	}
	return ids, nil
}

func isConst(e *expr.Expr) bool { return e.Op == expr.Const }

// concreteAddr makes a symbolic address concrete, after symTarget has
// chosen its object and forked the alternatives.
func (m *Machine) concreteAddr(v Value, size uint64) (uint64, error) {
	if v.Sym == nil {
		return v.Bits, nil
	}
	if _, _, err := m.symTarget(v, size); err != nil {
		return 0, err
	}
	return m.concretize(v, 64)
}

// maxForkTargets bounds the addresses one address an input chooses is
// followed to while threads run: a store's (concreteStoreAddr) or a
// synchronization call's object (forkSyncPointers).
const maxForkTargets = 4

// concreteStoreAddr makes the address of a store concrete, as
// concreteAddr does. While other threads run, it also forks a state for
// each of a few other addresses the inputs can give, those another thread
// touched lately first (RecentAccesses): a worker writing the slot an
// input names races with main's write of slot 0 only for the input 0, and
// a race detector sees concrete addresses.
func (m *Machine) concreteStoreAddr(v Value, size uint64) (uint64, error) {
	if v.Sym == nil || !m.concurrent() {
		return m.concreteAddr(v, size)
	}
	o, _, err := m.symTarget(v, size)
	if err != nil {
		return 0, err
	}
	var touched []uint64
	if r, ok := m.mon.(RecentAccesses); ok && o != nil {
		touched = r.TouchedByOthers(o.ID, m.cur.ID)
	}
	mine, err := m.forkTargets(v, touched)
	if err != nil {
		return 0, err
	}
	s := m.sym
	s.pc = append(s.pc, s.B.Binary(expr.Eq, v.Sym, s.B.Constant(mine, 64)))
	return mine, nil
}

// forkSyncPointers forks, while threads run, for each pointer argument of
// a synchronization call that an input chooses (`unlock(&m[i])`), a state
// for each of a few other objects it can point to: held locks first (a
// word at the start of an 8-byte slot of the object that is not zero: a
// mutex's lock word), then those near what other threads touched lately
// (the slot's lock for the slot's datum), then others the inputs allow. The current state
// goes on with the seed's object (concreteArgs pins it). A lock chosen by
// an input is a different lock on each path, and the race behind the one
// that releases the lock another access holds shows up.
func (m *Machine) forkSyncPointers(args []Value, tys []ir.Scalar) error {
	if !m.concurrent() {
		return nil
	}
	for i, v := range args {
		if v.Sym == nil || i >= len(tys) || tys[i].Kind != ir.KPtr {
			continue
		}
		o, _, err := m.symTarget(v, 4)
		if err != nil {
			return err
		}
		if o == nil {
			continue
		}
		var held []uint64
		for k := uint64(0); k+4 <= o.Size; k += 8 {
			if ir.LoadLE(o.bytes[k:], 4) != 0 {
				held = append(held, ir.Addr(o.ID, k))
			}
		}
		if r, ok := m.mon.(RecentAccesses); ok {
			held = append(held, r.TouchedByOthers(o.ID, m.cur.ID)...)
		}
		if _, err := m.forkTargets(v, held); err != nil {
			return err
		}
	}
	return nil
}

// forkTargets picks the address v takes in the current state (the seed's
// when the path allows it, else one the path allows) and forks a state
// for each of up to maxForkTargets-1 others: for each of preferred, it or
// the nearest feasible address (nearestTarget) first (the child is
// Contended), then ones the solver finds. Each
// child's path condition pins its address; the caller pins the current
// state's.
func (m *Machine) forkTargets(v Value, preferred []uint64) (uint64, error) {
	s := m.sym
	b := s.B
	eq := func(a uint64) *expr.Expr { return b.Binary(expr.Eq, v.Sym, b.Constant(a, 64)) }
	mine, err := m.candidate(v, 64)
	if err != nil {
		return 0, err
	}
	picked := 1
	others := b.Not(eq(mine))
	fork := func(a uint64, contended bool) {
		s.Stats.Forks++
		child := m.forkAgain()
		child.sym.pc = append(child.sym.pc, eq(a))
		child.sym.contended = child.sym.contended || contended
		m.spawned = append(m.spawned, child)
		picked++
		others = b.Binary(expr.And, others, b.Not(eq(a)))
	}
	for i, a := range preferred {
		if picked >= maxForkTargets || i >= 2*maxForkTargets || s.Stats.Forks >= s.MaxForks {
			break
		}
		if a == mine {
			continue
		}
		near, ok, err := m.nearestTarget(v, others, a)
		if err != nil {
			return 0, err
		}
		if ok {
			fork(near, true)
		}
	}
	for picked < maxForkTargets && s.Stats.Forks < s.MaxForks {
		ok, err := s.S.MayBeTrue(s.pc, others)
		if err != nil {
			return 0, solverErr(err)
		}
		if !ok {
			break
		}
		a, err := s.S.Value(append(s.pc[:len(s.pc):len(s.pc)], others), v.Sym)
		if err != nil {
			return 0, solverErr(err)
		}
		fork(a, false)
	}
	return mine, nil
}

// nearWindows are the distances, in bytes, within which nearestTarget
// looks for an address near a preferred one: the address itself, then
// the field or element around it. The widest is asked first, so an
// address no choice comes near costs one query.
var nearWindows = [...]uint64{0, 8, 64, 512}

// nearestTarget returns an address v can take besides those others
// excludes that is a itself or near it in a's object (within the
// smallest of nearWindows that has one): the lock of the slot whose
// datum another thread wrote, when an input picks the slot.
func (st *state) nearestTarget(v Value, others *expr.Expr, a uint64) (uint64, bool, error) {
	s := st.sym
	b := s.B
	base := a &^ (1<<ir.AddrShift - 1)
	within := func(w uint64) *expr.Expr {
		lo := base
		if a-w <= a && a-w > base {
			lo = a - w
		}
		return b.Binary(expr.And, others, b.Binary(expr.And,
			b.Binary(expr.Ule, b.Constant(lo, 64), v.Sym), b.Binary(expr.Ule, v.Sym, b.Constant(a+w, 64))))
	}
	widest := nearWindows[len(nearWindows)-1]
	if ok, err := s.S.MayBeTrue(s.pc, within(widest)); err != nil {
		return 0, false, solverErr(err)
	} else if !ok {
		return 0, false, nil
	}
	for _, w := range nearWindows {
		in := within(w)
		if w != widest {
			ok, err := s.S.MayBeTrue(s.pc, in)
			if err != nil {
				return 0, false, solverErr(err)
			}
			if !ok {
				continue
			}
		}
		if w == 0 {
			return a, true, nil
		}
		near, err := s.S.Value(append(s.pc[:len(s.pc):len(s.pc)], in), v.Sym)
		if err != nil {
			return 0, false, solverErr(err)
		}
		return near, true, nil
	}
	return 0, false, nil
}

// concurrent reports whether another thread may run beside the current
// one in some schedule: a thread that has not exited, or one that exited
// in this run's schedule but was never joined (another schedule may run
// it later). Forks over what an input chooses are made only then: before
// the first create, or after every thread is joined, which object an
// input names cannot decide a race.
func (s *state) concurrent() bool {
	n := 0
	for _, t := range s.threads {
		if t.status != exited || !t.joined {
			n++
		}
	}
	return n >= 2
}

// symLoad loads a scalar from a symbolic address. Within one small object
// the value is a select over every offset the address may take, so the
// offset stays symbolic; otherwise the address is made concrete and ok is
// false (the caller loads from the returned address).
func (m *Machine) symLoad(in *ir.Inst, v Value) (Value, uint64, bool, error) {
	size := uint64(in.Imm)
	o, off, err := m.symTarget(v, size)
	if err != nil {
		return Value{}, 0, false, err
	}
	concrete := func() (Value, uint64, bool, error) {
		addr, err := m.concretize(v, 64)
		return Value{}, addr, false, err
	}
	if o == nil || o.Freed || o.Kind == ObjFunc || in.Layout != nil ||
		(in.Ty.Kind != ir.KInt && in.Ty.Kind != ir.KPtr) || isConst(off) {
		return concrete()
	}
	first, step := uint64(0), uint64(1)
	if o.Size > maxSelect {
		if first, step, err = m.alignedSlots(off, size, o.Size); err != nil {
			return Value{}, 0, false, err
		}
		if step == 0 {
			return concrete()
		}
	}
	b := m.sym.B
	var result *expr.Expr
	for k := first; k+size <= o.Size; k += step {
		at := m.bytesTerm(o, k, size)
		if in.Ty.Bits < at.Width {
			at = b.Extract(at, 0, in.Ty.Bits)
		}
		if result == nil {
			result = at
			continue
		}
		result = b.Ite(b.Binary(expr.Eq, off, b.Constant(k, off.Width)), at, result)
	}
	return value(result), 0, true, nil
}

// alignedSlots lets a load of size bytes at symbolic offset off of an
// object larger than maxSelect read a select over the offsets that share
// the alignment the seed's offset has (first, first+size, ...), with the
// path constrained to that alignment: the slot an input picks in a table
// of pointers (Goblint's evilcollapse rewires one list head of ten, 560
// bytes, to another list) stays a term, so the pointer loaded from it
// forks over its targets. A step of 0 means the object has too many
// slots, or the size is not a power of two: the caller makes the offset
// concrete.
func (st *state) alignedSlots(off *expr.Expr, size, objSize uint64) (first, step uint64, err error) {
	if size < 2 || size&(size-1) != 0 || objSize/size > maxSelectSlots {
		return 0, 0, nil
	}
	w := uint16(bits.TrailingZeros64(size))
	if expr.TrailingZeros(off) >= int(w) {
		return 0, size, nil // every offset it can take is aligned: nothing to ask or constrain
	}
	s := st.sym
	cand, err := st.candidate(value(off), off.Width)
	if err != nil {
		return 0, 0, err
	}
	first = cand & (size - 1)
	s.pc = append(s.pc, s.B.Binary(expr.Eq, s.B.Extract(off, 0, w), s.B.Constant(first, w)))
	return first, size, nil
}

// bytesTerm is the little-endian term of size bytes of o at off.
func (s *state) bytesTerm(o *Object, off, size uint64) *expr.Expr {
	b := s.sym.B
	var e *expr.Expr
	for i := off; i < off+size; i++ {
		var byt *expr.Expr
		if o.sym != nil {
			byt = o.sym[i]
		}
		if byt == nil {
			byt = b.Constant(uint64(o.bytes[i]), 8)
		}
		if e == nil {
			e = byt
		} else {
			e = b.Concat(byt, e)
		}
	}
	return e
}

// loadSym reads size bytes at off of o as a term when any of them is
// symbolic; ok is false when all are concrete.
func (st *state) loadSym(o *Object, off uint64, s ir.Scalar) (Value, bool, error) {
	size := uint64(s.Size())
	if o.sym == nil {
		return Value{}, false, nil
	}
	any := false
	for i := off; i < off+size; i++ {
		if o.sym[i] != nil {
			any = true
			break
		}
	}
	if !any {
		return Value{}, false, nil
	}
	isInt := s.Kind == ir.KInt || s.Kind == ir.KPtr
	if st.sym.pin != nil && isInt {
		return st.settle(o, off, s), true, nil
	}
	b := st.sym.B
	var e *expr.Expr
	for i := off; i < off+size; i++ { // little-endian: byte off is the low byte
		byt := o.sym[i]
		if byt == nil {
			byt = b.Constant(uint64(o.bytes[i]), 8)
		}
		if e == nil {
			e = byt
		} else {
			e = b.Concat(byt, e)
		}
	}
	if !isInt {
		st.sym.Stats.FloatConcretized++
		x, err := st.concretize(value(e), e.Width)
		if err != nil {
			return Value{}, false, err
		}
		return Value{Bits: ir.GetScalar(le(x, size), s)}, true, nil
	}
	if e.Width > s.Bits {
		e = b.Extract(e, 0, s.Bits)
	}
	return value(e), true, nil
}

// settle gives the symbolic bytes a load of s at off in o reads their
// values under the path's pin, in the object itself, and returns the
// loaded value. A pinned path never forks again, so those values are the
// bytes' for the rest of it; settled, they cost an ordinary load from
// then on, instead of a term made and evaluated at every load (a loop
// bound an argument sets, read by every iteration of every thread).
func (st *state) settle(o *Object, off uint64, s ir.Scalar) Value {
	w := st.mem.writable(o)
	end := off + uint64(s.Size())
	for i := off; i < end; i++ {
		if w.sym[i] != nil {
			w.bytes[i] = byte(expr.Eval(w.sym[i], st.sym.pin))
			w.sym[i] = nil
		}
	}
	return Value{Bits: ir.GetScalar(w.bytes[off:end], s)}
}

func le(x, size uint64) []byte {
	out := make([]byte, 16)
	for i := uint64(0); i < size && i < 8; i++ {
		out[i] = byte(x >> (8 * i))
	}
	return out
}

// storeSym records the bytes of a symbolic value in memory, or clears the
// symbolic bytes a concrete store overwrites. o must be writable.
func (st *state) storeSym(o *Object, off uint64, s ir.Scalar, v Value) {
	size := uint64(s.Size())
	if v.Sym == nil {
		if o.sym != nil {
			for i := off; i < off+size; i++ {
				o.sym[i] = nil
			}
		}
		return
	}
	if o.sym == nil {
		o.sym = make([]*expr.Expr, o.Size)
	}
	b := st.sym.B
	e := v.Sym
	if e.Width < uint16(8*size) {
		e = b.ZExt(e, uint16(8*size))
	}
	for i := uint64(0); i < size; i++ {
		o.sym[off+i] = b.Extract(e, uint16(8*i), 8)
	}
}

// concreteBytes makes the symbolic bytes in [addr, addr+n) concrete under
// the path constraint, for models that compute on bytes (strings, buffers
// written out). Invalid ranges are left for the model to report.
func (s *state) concreteBytes(addr, n uint64) error {
	if s.sym == nil || n == 0 {
		return nil
	}
	o, off, err := s.mem.resolve(addr, n, false)
	if err != nil || o.sym == nil {
		return nil
	}
	for i := off; i < off+n; i++ {
		if o.sym[i] == nil {
			continue
		}
		x, err := s.concretize(Value{Sym: o.sym[i]}, 8)
		if err != nil {
			return err
		}
		w := s.mem.writable(o)
		w.bytes[i], w.sym[i] = byte(x), nil
		o = w
	}
	return nil
}

// concreteString makes a NUL-terminated string at addr concrete byte by
// byte: whether a symbolic byte ends the string is decided as it is reached.
func (s *state) concreteString(addr uint64) error {
	if s.sym == nil {
		return nil
	}
	for i := uint64(0); i < 1<<24; i++ {
		o, off, err := s.mem.resolve(addr+i, 1, false)
		if err != nil {
			return nil
		}
		if o.sym != nil && o.sym[off] != nil {
			if err := s.concreteBytes(addr+i, 1); err != nil {
				return err
			}
			o = s.mem.Object(o.ID)
		}
		if o.bytes[off] == 0 {
			return nil
		}
	}
	return nil
}

// copySym moves the symbolic bytes of [src, src+n) to dst along with the
// concrete ones (memcpy, memmove); dst loses stale symbolic bytes.
func (s *state) copySym(dst, src, n uint64) {
	if s.sym == nil {
		return
	}
	so, soff, err := s.mem.resolve(src, n, false)
	if err != nil {
		return
	}
	do, doff, err := s.mem.resolve(dst, n, true)
	if err != nil || (so.sym == nil && do.sym == nil) {
		return
	}
	terms := make([]*expr.Expr, n)
	if so.sym != nil {
		copy(terms, so.sym[soff:soff+n])
	}
	do = s.mem.writable(do)
	if do.sym == nil {
		do.sym = make([]*expr.Expr, do.Size)
	}
	copy(do.sym[doff:doff+n], terms)
}

// clearSym drops symbolic bytes a model overwrote with concrete ones.
func (s *state) clearSym(dst, n uint64) {
	if s.sym == nil {
		return
	}
	o, off, err := s.mem.resolve(dst, n, true)
	if err != nil || o.sym == nil {
		return
	}
	o = s.mem.writable(o)
	for i := off; i < off+n; i++ {
		o.sym[i] = nil
	}
}
