package expr

// Unary and structural constructors. Each folds constants and applies the
// simplifications that keep the shapes symbolic execution produces small:
// byte-wise loads of a value stored whole recombine into that value, and
// extensions and extractions of constants disappear.

// Not returns the bitwise complement of x.
func (b *Builder) Not(x *Expr) *Expr {
	if x.Op == Const {
		return b.Constant(^x.Val, x.Width)
	}
	if x.Op == Not {
		return x.Kids[0]
	}
	return b.intern(&Expr{Op: Not, Width: x.Width, Kids: []*Expr{x}})
}

// ZExt zero-extends x to width bits.
func (b *Builder) ZExt(x *Expr, width uint16) *Expr {
	switch {
	case width == x.Width:
		return x
	case width < x.Width:
		return b.Extract(x, 0, width)
	case x.Op == Const:
		return b.Constant(x.Val, width)
	}
	return b.intern(&Expr{Op: ZExt, Width: width, Kids: []*Expr{x}})
}

// SExt sign-extends x to width bits.
func (b *Builder) SExt(x *Expr, width uint16) *Expr {
	switch {
	case width == x.Width:
		return x
	case width < x.Width:
		return b.Extract(x, 0, width)
	case x.Op == Const:
		return b.Constant(uint64(sext(x.Val, x.Width)), width)
	}
	return b.intern(&Expr{Op: SExt, Width: width, Kids: []*Expr{x}})
}

// Extract returns bits [lo, lo+width) of x.
func (b *Builder) Extract(x *Expr, lo, width uint16) *Expr {
	switch {
	case lo == 0 && width == x.Width:
		return x
	case x.Op == Const:
		return b.Constant(x.Val>>lo, width)
	case x.Op == Extract:
		return b.Extract(x.Kids[0], uint16(x.Val)+lo, width)
	case x.Op == Concat:
		hi, low := x.Kids[0], x.Kids[1]
		if lo+width <= low.Width {
			return b.Extract(low, lo, width)
		}
		if lo >= low.Width {
			return b.Extract(hi, lo-low.Width, width)
		}
	case x.Op == ZExt && lo+width <= x.Kids[0].Width:
		return b.Extract(x.Kids[0], lo, width)
	case x.Op == ZExt && lo >= x.Kids[0].Width:
		return b.Constant(0, width)
	}
	return b.intern(&Expr{Op: Extract, Width: width, Val: uint64(lo), Kids: []*Expr{x}})
}

// Concat returns hi:lo, hi in the high bits.
func (b *Builder) Concat(hi, lo *Expr) *Expr {
	if hi.Op == Const && lo.Op == Const && hi.Width+lo.Width <= 64 {
		return b.Constant(hi.Val<<lo.Width|lo.Val, hi.Width+lo.Width)
	}
	// Adjacent extracts of one value merge back: x[8:16]:x[0:8] is x[0:16].
	if hi.Op == Extract && lo.Op == Extract && hi.Kids[0] == lo.Kids[0] && uint16(hi.Val) == uint16(lo.Val)+lo.Width {
		return b.Extract(hi.Kids[0], uint16(lo.Val), hi.Width+lo.Width)
	}
	if hi.Op == Const && hi.Val == 0 {
		return b.ZExt(lo, hi.Width+lo.Width)
	}
	return b.intern(&Expr{Op: Concat, Width: hi.Width + lo.Width, Kids: []*Expr{hi, lo}})
}

// Ite returns c ? x : y; c has width 1.
func (b *Builder) Ite(c, x, y *Expr) *Expr {
	switch {
	case c.Op == Const && c.Val != 0:
		return x
	case c.Op == Const:
		return y
	case x == y:
		return x
	case x.Width == 1 && x.Op == Const && y.Op == Const && x.Val == 1 && y.Val == 0:
		return c
	}
	return b.intern(&Expr{Op: Ite, Width: x.Width, Kids: []*Expr{c, x, y}})
}

// BoolNot is the logical negation of a width-1 condition.
func (b *Builder) BoolNot(c *Expr) *Expr { return b.Not(c) }

// Vars returns the names of the input variables x depends on, sorted.
func Vars(x *Expr) []string {
	out := make([]string, len(x.vars))
	for i, v := range x.vars {
		out[i] = v.Name
	}
	return out
}

// VarTerms returns the distinct variables of xs, by name.
func VarTerms(xs ...*Expr) []*Expr {
	var vs []*Expr
	for _, x := range xs {
		vs = unionVars(vs, x.vars)
	}
	return append([]*Expr(nil), vs...)
}

// VarsOf returns the distinct variables of x, by name, as the term holds
// them: the caller must not change the slice.
func VarsOf(x *Expr) []*Expr { return x.vars }

// Satisfies reports whether every condition holds under a.
func Satisfies(a Assignment, conds []*Expr) bool {
	var ev Evaluator
	return ev.Satisfies(a, conds)
}

// Assignment gives each input variable a value.
type Assignment map[string]uint64

// Eval computes x under an assignment; variables missing from it are 0.
// Division by zero evaluates as the hardware-independent SMT-LIB value
// (all ones for udiv, the dividend for urem) so Eval agrees with the solver.
func Eval(x *Expr, a Assignment) uint64 {
	ev := evaluator{a: a}
	return ev.eval(x)
}

// Evaluator checks conditions under assignments, keeping the table of
// values it computes between calls: a solver checks the same path's
// conditions under one recent model after another, and growing that
// table afresh for each cost more than the evaluation.
type Evaluator struct{ ev evaluator }

// Satisfies is the function Satisfies with the evaluator's table. It
// checks the conditions from the last: a solver's query is a path's
// conditions with the new one last, and a recent model, which satisfied
// an earlier query of the same path, most often fails only that one.
func (e *Evaluator) Satisfies(a Assignment, conds []*Expr) bool {
	clear(e.ev.memo)
	e.ev.a = a
	for i := len(conds) - 1; i >= 0; i-- {
		if e.ev.eval(conds[i]) == 0 {
			return false
		}
	}
	return true
}

// evaluator computes terms under one assignment, each shared subterm
// once: the conditions of one path share most of their terms.
type evaluator struct {
	a    Assignment
	memo map[*Expr]uint64
}

func (ev *evaluator) eval(e *Expr) uint64 {
	switch e.Op {
	case Const:
		return e.Val
	case Var:
		return ev.a[e.Name] & mask(e.Width)
	}
	if v, ok := ev.memo[e]; ok {
		return v
	}
	var v uint64
	if e.Op == Ite { // only the side taken is evaluated
		if ev.eval(e.Kids[0]) != 0 {
			v = ev.eval(e.Kids[1])
		} else {
			v = ev.eval(e.Kids[2])
		}
	} else {
		var kids [2]uint64
		for i, k := range e.Kids {
			kids[i] = ev.eval(k)
		}
		v = Apply(e, kids[:len(e.Kids)])
	}
	if ev.memo == nil {
		ev.memo = map[*Expr]uint64{}
	}
	ev.memo[e] = v
	return v
}

// Apply computes the operation of e, which is not a variable, on its
// kids' values (kids[i] is the value of e.Kids[i]).
func Apply(e *Expr, kids []uint64) uint64 {
	switch e.Op {
	case Const:
		return e.Val
	case Not:
		return ^kids[0] & mask(e.Width)
	case ZExt:
		return kids[0]
	case SExt:
		return uint64(sext(kids[0], e.Kids[0].Width)) & mask(e.Width)
	case Extract:
		return kids[0] >> e.Val & mask(e.Width)
	case Concat:
		return (kids[0]<<e.Kids[1].Width | kids[1]) & mask(e.Width)
	case Ite:
		if kids[0] != 0 {
			return kids[1]
		}
		return kids[2]
	}
	w := e.Kids[0].Width
	v, ok := fold(e.Op, kids[0], kids[1], w)
	if !ok {
		v = smtDivByZero(e.Op, kids[0], w)
	}
	return v
}

// smtDivByZero is SMT-LIB's total definition of division by zero (and of
// signed overflow, which bitvec reports as undefined).
func smtDivByZero(op Op, x uint64, w uint16) uint64 {
	switch op {
	case UDiv:
		return mask(w)
	case URem, SRem:
		return x
	case SDiv:
		if sext(x, w) < 0 {
			return 1
		}
		return mask(w)
	}
	return 0
}
