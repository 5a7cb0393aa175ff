package expr

import "math/bits"

// Unsigned bounds of a term.
//
// Symbolic execution asks the solver many questions whose answer the
// shape of a term already gives: whether a pointer into a table, indexed
// by an input byte masked to 0..255, may leave its object or point into
// another one. The solver proves such a thing by exhausting the values of
// every byte the index depends on, the most expensive kind of query it
// answers. Bounds answers it from the operators: a byte masked by 0xff is
// at most 255 whatever the byte was computed from, so the walk stops
// there. The bounds are sound (every value the term takes under any
// assignment lies within them) and cheap (a walk of at most boundsWork
// nodes; past that a term is given its whole width).

// boundsWork bounds the nodes one Bounds call visits.
const boundsWork = 256

// Bounds returns lo and hi such that lo <= e <= hi, as unsigned numbers of
// e's width, under every assignment of e's variables.
func Bounds(e *Expr) (lo, hi uint64) {
	work := boundsWork
	return bounds(e, &work)
}

// Decided reports the value the condition c (width 1) has under every
// assignment, when its bounds say it has one.
func Decided(c *Expr) (val, ok bool) {
	lo, hi := Bounds(c)
	if lo == hi {
		return lo != 0, true
	}
	return false, false
}

// bounds is Bounds with the nodes left to visit in *work.
func bounds(e *Expr, work *int) (lo, hi uint64) {
	full := mask(e.Width)
	if e.Op == Const {
		return e.Val, e.Val
	}
	if *work <= 0 || e.Op == Var || e.Width > 64 {
		return 0, full
	}
	*work--
	k := func(i int) (uint64, uint64) { return bounds(e.Kids[i], work) }
	switch e.Op {
	case ZExt:
		return k(0)
	case SExt:
		if l, h := k(0); h < 1<<(e.Kids[0].Width-1) {
			return l, h // never negative: as a zero extension
		}
	case Not:
		l, h := k(0)
		return full - h, full - l
	case Extract:
		// When every value within the term's bounds has the same bits
		// above the extracted ones, the extracted bits grow with the
		// value: they lie between those of its bounds.
		if l, h := k(0); e.Kids[0].Width <= 64 && above(l, e.Val+uint64(e.Width)) == above(h, e.Val+uint64(e.Width)) {
			m := mask(e.Width)
			return l >> e.Val & m, h >> e.Val & m
		}
	case Concat:
		lw := e.Kids[1].Width
		hl, hh := k(0)
		ll, lh := k(1)
		return hl<<lw | ll, hh<<lw | lh
	case Ite:
		_, _ = k(0)
		xl, xh := k(1)
		yl, yh := k(2)
		return min(xl, yl), max(xh, yh)
	case Eq, Ult, Ule, Slt, Sle:
		return compareBounds(e, work)
	default:
		return binaryBounds(e, work)
	}
	return 0, full
}

// binaryBounds bounds the arithmetic and bitwise operators. An operation
// that may wrap around its width gets the whole width.
func binaryBounds(e *Expr, work *int) (lo, hi uint64) {
	full := mask(e.Width)
	xl, xh := bounds(e.Kids[0], work)
	yl, yh := bounds(e.Kids[1], work)
	switch e.Op {
	case Add:
		if s, c := bits.Add64(xh, yh, 0); c == 0 && s <= full {
			return xl + yl, s
		}
	case Sub:
		if xl >= yh {
			return xl - yh, xh - yl
		}
	case Mul:
		if h, l := bits.Mul64(xh, yh); h == 0 && l <= full {
			return xl * yl, l
		}
	case Shl:
		if yh < 64 && yh < uint64(e.Width) && bits.Len64(xh)+int(yh) <= int(e.Width) {
			return xl << yl, xh << yh
		}
	case LShr:
		if yh >= uint64(e.Width) {
			return 0, xh // a shift by the width or more gives 0
		}
		return xl >> yh, xh >> yl
	case And:
		return 0, min(xh, yh)
	case Or:
		return max(xl, yl), ones(xh | yh)
	case Xor:
		return 0, ones(xh | yh)
	case UDiv:
		if yl > 0 {
			return xl / yh, xh / yl
		}
	case URem:
		if yl > 0 {
			return 0, min(xh, yh-1)
		}
		return 0, xh // x % 0 is x
	}
	return 0, full
}

// compareBounds bounds a comparison: 1 or 0 when the bounds of its
// operands decide it, else both.
func compareBounds(e *Expr, work *int) (lo, hi uint64) {
	xl, xh := bounds(e.Kids[0], work)
	yl, yh := bounds(e.Kids[1], work)
	always, never := false, false
	switch e.Op {
	case Eq:
		always = xl == xh && yl == yh && xl == yl
		never = xh < yl || yh < xl
	case Ult:
		always, never = xh < yl, xl >= yh
	case Ule:
		always, never = xh <= yl, xl > yh
	case Slt, Sle:
		// Signed: decided like the unsigned ones when neither operand
		// can be negative.
		sign := uint64(1) << (e.Kids[0].Width - 1)
		if xh < sign && yh < sign {
			if e.Op == Slt {
				always, never = xh < yl, xl >= yh
			} else {
				always, never = xh <= yl, xl > yh
			}
		}
	}
	switch {
	case always:
		return 1, 1
	case never:
		return 0, 0
	}
	return 0, 1
}

// above is x's bits from bit n up.
func above(x, n uint64) uint64 {
	if n >= 64 {
		return 0
	}
	return x >> n
}

// ones is the smallest number of the form 2^n-1 at least x: no bit above
// x's highest is set in it.
func ones(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	return 1<<bits.Len64(x) - 1 | x
}

// TrailingZeros returns how many of e's lowest bits are 0 under every
// assignment of its variables: an index scaled by an element's size, or
// an address built from an aligned base and such an index, is aligned to
// that size whatever the index is.
func TrailingZeros(e *Expr) int {
	work := boundsWork
	return trailingZeros(e, &work)
}

// trailingZeros is TrailingZeros with the nodes left to visit in *work.
func trailingZeros(e *Expr, work *int) int {
	w := int(e.Width)
	if e.Op == Const {
		return min(bits.TrailingZeros64(e.Val), w)
	}
	if *work <= 0 || e.Width > 64 {
		return 0
	}
	*work--
	k := func(i int) int { return trailingZeros(e.Kids[i], work) }
	switch e.Op {
	case ZExt, SExt:
		if z := k(0); z < int(e.Kids[0].Width) {
			return z
		}
		return w // an extension of 0
	case Extract:
		return min(max(k(0)-int(e.Val), 0), w)
	case Concat:
		lw := int(e.Kids[1].Width)
		if z := k(1); z < lw {
			return z
		}
		return min(lw+k(0), w)
	case Add, Sub, Or, Xor:
		return min(k(0), k(1))
	case Mul:
		return min(k(0)+k(1), w)
	case And:
		return max(k(0), k(1))
	case Shl:
		if s := e.Kids[1]; s.Op == Const {
			return min(k(0)+int(min(s.Val, uint64(w))), w)
		}
		return k(0) // a shift only adds zeros below
	case Ite:
		return min(k(1), k(2))
	}
	return 0
}
