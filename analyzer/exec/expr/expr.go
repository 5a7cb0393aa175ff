// Package expr holds augur's symbolic expressions: an immutable DAG of
// bit-vector and boolean terms. Nodes are built only through a Builder, which
// hash-conses them (structurally equal terms are the same pointer) and folds
// constants, so a term over concrete operands never exists: the VM keeps those
// as plain bits.
package expr

import (
	"fmt"
	"strconv"
	"strings"

	"augur/analyzer/frontend/bitvec"
)

// Op is a term's operator.
type Op uint8

const (
	Const Op = iota // Val, of Width bits
	Var             // a named input of Width bits
	Add
	Sub
	Mul
	UDiv
	SDiv
	URem
	SRem
	Shl
	LShr
	AShr
	And
	Or
	Xor
	Eq
	Ult
	Ule
	Slt
	Sle
	Not
	ZExt
	SExt
	Extract // Kids[0] bits [Val, Val+Width)
	Concat  // Kids[0] high, Kids[1] low
	Ite     // Kids[0] ? Kids[1] : Kids[2]
)

var opNames = [...]string{"const", "var", "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr",
	"ashr", "and", "or", "xor", "eq", "ult", "ule", "slt", "sle", "not", "zext", "sext", "extract", "concat", "ite"}

func (o Op) String() string { return opNames[o] }

// Expr is one node. Width is in bits; booleans have width 1.
type Expr struct {
	Op    Op
	Width uint16
	Val   uint64 // the constant, or the low bit of an Extract
	Name  string // variable name
	Kids  []*Expr
	id    uint64 // creation number within the builder
	// vars are the distinct variables the term depends on, by name: set
	// once, when the builder makes the term, and shared with a kid whose
	// variables are all of them. The solver asks for them for every
	// condition of a path at every query.
	vars []*Expr
}

// ID is the term's creation number within its Builder (unique per term).
func (e *Expr) ID() uint64 { return e.id }

// Key is a short identity of the term within its Builder: hash-consing makes
// structurally equal terms one node, numbered in creation order.
func (e *Expr) Key() string { return strconv.FormatUint(e.id, 36) }

func (e *Expr) String() string {
	switch e.Op {
	case Const:
		return fmt.Sprintf("%d:i%d", e.Val, e.Width)
	case Var:
		return e.Name
	}
	parts := make([]string, len(e.Kids))
	for i, k := range e.Kids {
		parts[i] = k.String()
	}
	return fmt.Sprintf("(%s %s)", e.Op, strings.Join(parts, " "))
}

type key struct {
	op    Op
	width uint16
	val   uint64
	name  string
	k0    *Expr
	k1    *Expr
	k2    *Expr
}

// Builder creates hash-consed terms. It is not safe for concurrent use: each
// analysis goroutine owns one.
type Builder struct {
	table map[key]*Expr
	next  uint64
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{table: map[key]*Expr{}} }

func (b *Builder) intern(e *Expr) *Expr {
	k := key{op: e.Op, width: e.Width, val: e.Val, name: e.Name}
	if len(e.Kids) > 0 {
		k.k0 = e.Kids[0]
	}
	if len(e.Kids) > 1 {
		k.k1 = e.Kids[1]
	}
	if len(e.Kids) > 2 {
		k.k2 = e.Kids[2]
	}
	if x, ok := b.table[k]; ok {
		return x
	}
	b.next++
	e.id = b.next
	e.vars = termVars(e)
	b.table[k] = e
	return e
}

// termVars computes the variables of a new term from its kids'.
func termVars(e *Expr) []*Expr {
	if e.Op == Var {
		return []*Expr{e}
	}
	var vs []*Expr
	for _, k := range e.Kids {
		vs = unionVars(vs, k.vars)
	}
	return vs
}

// unionVars merges two lists of variables sorted by name, each name once
// (the first list's variable when both have it). It returns one of them
// when the other adds nothing.
func unionVars(a, b []*Expr) []*Expr {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	out := make([]*Expr, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Name < b[j].Name:
			out = append(out, a[i])
			i++
		case a[i].Name > b[j].Name:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(append(out, a[i:]...), b[j:]...)
	switch len(out) {
	case len(a):
		return a
	case len(b):
		return b
	}
	return out
}

func mask(w uint16) uint64 { return bitvec.Mask(w) }

// Constant returns the constant v of width bits.
func (b *Builder) Constant(v uint64, width uint16) *Expr {
	return b.intern(&Expr{Op: Const, Width: width, Val: v & mask(width)})
}

// Variable returns the input variable name of width bits.
func (b *Builder) Variable(name string, width uint16) *Expr {
	return b.intern(&Expr{Op: Var, Width: width, Name: name})
}

// Binary returns (op x y). Both operands have the same width; comparisons
// have width 1.
func (b *Builder) Binary(op Op, x, y *Expr) *Expr {
	w := x.Width
	switch op {
	case Eq, Ult, Ule, Slt, Sle:
		w = 1
	}
	if x.Op == Const && y.Op == Const {
		if v, ok := fold(op, x.Val, y.Val, x.Width); ok {
			return b.Constant(v, w)
		}
	}
	if r := b.identity(op, x, y); r != nil {
		return r
	}
	// Commutative operators keep constants on the left, so equal terms
	// built in either order are one node.
	switch op {
	case Add, Mul, And, Or, Xor, Eq:
		if y.Op == Const && x.Op != Const {
			x, y = y, x
		}
	}
	return b.intern(&Expr{Op: op, Width: w, Kids: []*Expr{x, y}})
}

// identity applies the algebraic identities that make a term one of its
// operands or a constant: x+0, x*1, x*0, x&0, x&~0, x|0, x^0, x-0, shifts
// by 0, x==x, x-x, x^x.
func (b *Builder) identity(op Op, x, y *Expr) *Expr {
	if x.Op == Const && y.Op != Const {
		switch op {
		case Add, Mul, And, Or, Xor:
			x, y = y, x // identities below look at a constant y
		}
	}
	zero := y.Op == Const && y.Val == 0
	ones := y.Op == Const && y.Val == mask(y.Width)
	switch op {
	case Add, Sub, Or, Xor, Shl, LShr, AShr:
		if zero {
			return x
		}
	case Mul:
		if zero {
			return y
		}
		if y.Op == Const && y.Val == 1 {
			return x
		}
	case And:
		if zero {
			return y
		}
		if ones {
			return x
		}
	case UDiv, SDiv:
		if y.Op == Const && y.Val == 1 {
			return x
		}
	}
	if x == y {
		switch op {
		case Eq, Ule, Sle:
			return b.Constant(1, 1)
		case Ult, Slt:
			return b.Constant(0, 1)
		case Sub, Xor:
			return b.Constant(0, x.Width)
		case And, Or:
			return x
		}
	}
	return nil
}

func sext(v uint64, w uint16) int64 { return bitvec.SExt(v, w) }

// binOps maps arithmetic operators to bitvec's semantics, so folding
// agrees with the interpreter bit for bit. It is indexed by Op, not a
// map: the solver's enumeration folds a node per value it tries.
var binOps = [...]struct {
	op bitvec.Op
	ok bool
}{Add: {bitvec.Add, true}, Sub: {bitvec.Sub, true}, Mul: {bitvec.Mul, true}, UDiv: {bitvec.UDiv, true},
	SDiv: {bitvec.SDiv, true}, URem: {bitvec.URem, true}, SRem: {bitvec.SRem, true}, Shl: {bitvec.Shl, true},
	LShr: {bitvec.LShr, true}, AShr: {bitvec.AShr, true}, And: {bitvec.And, true}, Or: {bitvec.Or, true},
	Xor: {bitvec.Xor, true}, Ite: {}}

// fold evaluates op on constants; division by zero is left symbolic so the
// VM reports it where it happens.
func fold(op Op, x, y uint64, w uint16) (uint64, bool) {
	if int(op) < len(binOps) && binOps[op].ok {
		return bitvec.Eval(binOps[op].op, x, y, w)
	}
	b := func(c bool) (uint64, bool) {
		if c {
			return 1, true
		}
		return 0, true
	}
	switch op {
	case Eq:
		return b(x == y)
	case Ult:
		return b(x < y)
	case Ule:
		return b(x <= y)
	case Slt:
		return b(sext(x, w) < sext(y, w))
	case Sle:
		return b(sext(x, w) <= sext(y, w))
	}
	return 0, false
}
