package vm

import (
	"unsafe"

	"augur/analyzer/frontend/ir"
)

// This file holds the two register modes the interpreter's hot loop is
// compiled for. A register is a Value, its bits and an expression pointer
// (Sym), so every fast path tests its operands for an expression and every
// result it writes stores a nil pointer, through the garbage collector's
// write-barrier check. A machine without a symbolic state (Config.Symbolic
// nil, as in augur run and any execution that marks no input symbolic)
// never builds an expression: every term comes from the state's Builder
// (symState.B), so no register and no object's bytes ever hold one. There
// the tests are known to pass and the pointer is known to be nil already;
// writing only the bits leaves it so, and writing nil over nil needs no
// barrier.
//
// exec is one function body (execIn) compiled for both modes as a generic
// function whose type argument is the mode. The helpers below decide by
// the mode's size, which is a constant in each instantiation, since Go
// compiles a generic function once per shape of its type arguments and
// the two modes' shapes differ: in concreteRegs's copy every test folds to
// true and every write to a store of the bits. (A method of the mode would
// be an indirect call through the instantiation's dictionary, which Go does
// not inline.) A helper must not call another generic helper: a nested
// instantiation loads its dictionary, a load and a nil check on every use.

// regMode is the register mode of execIn's instantiation.
type regMode interface{ symbolicRegs | concreteRegs }

// symbolicRegs is the mode of a machine with a symbolic state: any
// register may hold an expression.
type symbolicRegs struct{ _ byte }

// concreteRegs is the mode of a machine without one: no register holds an
// expression, and no object's bytes do.
type concreteRegs struct{}

// concrete1 reports whether register v is concrete.
func concrete1[M regMode](v *Value) bool {
	var mode M
	return unsafe.Sizeof(mode) == 0 || v.Sym == nil
}

// concrete reports whether registers a and b are both concrete: one test
// of their expressions' pointers or-ed together, where a.Sym == nil &&
// b.Sym == nil compiled to a branch and a flag for each.
func concrete[M regMode](a, b *Value) bool {
	var mode M
	return unsafe.Sizeof(mode) == 0 || uintptr(unsafe.Pointer(a.Sym))|uintptr(unsafe.Pointer(b.Sym)) == 0
}

// concrete2 reads an instruction's operands A and B, and reports whether
// both are concrete.
func concrete2[M regMode](rp unsafe.Pointer, c *ir.Code) (a, b uint64, ok bool) {
	var mode M
	av, bv := reg(rp, c.A), reg(rp, c.B)
	return av.Bits, bv.Bits, unsafe.Sizeof(mode) == 0 || uintptr(unsafe.Pointer(av.Sym))|uintptr(unsafe.Pointer(bv.Sym)) == 0
}

// symBytes reports whether object o has symbolic bytes.
func symBytes[M regMode](o *Object) bool {
	var mode M
	return unsafe.Sizeof(mode) != 0 && o.sym != nil
}

// setReg writes concrete bits to register r.
func setReg[M regMode](r *Value, bits uint64) {
	var mode M
	if unsafe.Sizeof(mode) == 0 {
		r.Bits = bits
		return
	}
	*r = Value{Bits: bits}
}

// copyReg copies register src to dst.
func copyReg[M regMode](dst, src *Value) {
	var mode M
	if unsafe.Sizeof(mode) == 0 {
		dst.Bits = src.Bits
		return
	}
	*dst = *src
}

// moves makes a branch edge's phi moves one after another, which gives
// their parallel assignment unless the edge is Parallel (see ir.Edge;
// exec leaves those to step). It is small enough to inline: exec makes
// no call on its way.
func moves[M regMode](rp unsafe.Pointer, e *ir.Edge) {
	var mode M
	for i := range e.Moves {
		mv := &e.Moves[i]
		dst, src := reg(rp, mv.Dst*ir.SlotBytes), reg(rp, mv.Src*ir.SlotBytes) // moves are of slots (Inst form)
		if unsafe.Sizeof(mode) == 0 {
			dst.Bits = src.Bits
		} else {
			*dst = *src
		}
	}
}

// symbolic reports whether registers may hold expressions.
func symbolic[M regMode]() bool {
	var mode M
	return unsafe.Sizeof(mode) != 0
}
