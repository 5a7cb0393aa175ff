// Package vm interprets a lowered program (package ir): execution states with
// threads, frames and copy-on-write memory, the interpreter loop, the
// cooperative scheduler hook, and the modeled environment (libc primitives,
// pthreads, stdio). Every way an execution can end is a Termination value.
package vm

import "augur/analyzer/exec/expr"

// Value is a register value: concrete bits, or a symbolic expression when Sym
// is non-nil (then Bits is meaningless). Integers are kept zero-extended to
// their width; floats as IEEE bits (float in the low 32 bits); long double as
// a float64; pointers as ir addresses.
type Value struct {
	Bits uint64
	Sym  *expr.Expr
}

// Concrete reports whether v carries no symbolic expression.
func (v Value) Concrete() bool { return v.Sym == nil }

func val(b uint64) Value { return Value{Bits: b} }
