package expr

// Dropping the constraints another one implies.
//
// A loop whose bound an input sets asks the same question at every
// iteration: "i < n" with i concrete and n a term of the input's bytes.
// The path constraint then holds 0 < n, 1 < n, ..., k < n: k conditions
// of which the last implies the others. Every query repeats them all, so
// the solver's work per query, its cache keys and the checks of cached
// models grow with the iteration count. DropImplied keeps, of the
// conditions that bound one term from one side in one domain (signed or
// unsigned), only the tightest: the conjunction it returns is equivalent
// to the one it was given. The same bounds show a conjunction no value
// satisfies (a lower bound past an upper one of the same term): four
// threads running such a loop ask "may n <= 55?" on a path that holds
// 56 < n, and Z3 took 20 to 90 milliseconds to answer each of them no
// (parallel_sum's argument, its bytes parsed by atol).

// bound is a condition read as a bound on a term: term >= val (lower) or
// term <= val (upper), compared signed or unsigned.
type bound struct {
	term          *Expr
	signed, lower bool
	val           uint64 // the bound, as the term's width's bits
}

// asBound reads c as a bound on a term when it compares a term with a
// constant (possibly negated); ok is false for any other condition, and
// for a comparison no value satisfies (x < 0 unsigned), which is kept as
// it is.
func asBound(c *Expr) (b bound, ok bool) {
	neg := false
	if c.Op == Not && c.Width == 1 {
		c, neg = c.Kids[0], true
	}
	switch c.Op {
	case Ult, Ule, Slt, Sle:
	default:
		return bound{}, false
	}
	x, y := c.Kids[0], c.Kids[1]
	constLeft := x.Op == Const && y.Op != Const
	if !constLeft && !(y.Op == Const && x.Op != Const) {
		return bound{}, false
	}
	strict := c.Op == Ult || c.Op == Slt
	b.signed = c.Op == Slt || c.Op == Sle
	if constLeft {
		b.term, b.val, b.lower = y, x.Val, true // k < x: a lower bound
	} else {
		b.term, b.val, b.lower = x, y.Val, false // x < k: an upper bound
	}
	if neg {
		// not (k < x) is x <= k; not (k <= x) is x < k; and so on.
		b.lower, strict = !b.lower, !strict
	}
	if strict {
		// Tighten x > k to x >= k+1, x < k to x <= k-1, unless k is the
		// end of the domain (no value satisfies it: kept as is).
		lo, hi := domain(b.term.Width, b.signed)
		switch {
		case b.lower && b.val == hi, !b.lower && b.val == lo:
			return bound{}, false
		case b.lower:
			b.val = (b.val + 1) & mask(b.term.Width)
		default:
			b.val = (b.val - 1) & mask(b.term.Width)
		}
	}
	return b, true
}

// domain returns the least and greatest values of a width, as its bits.
func domain(width uint16, signed bool) (lo, hi uint64) {
	if signed {
		return 1 << (width - 1), mask(width) >> 1
	}
	return 0, mask(width)
}

// tighter reports whether bound a restricts its term more than b (same
// term, side and domain).
func tighter(a, b bound) bool {
	if a.lower {
		return a.ordered() > b.ordered()
	}
	return a.ordered() < b.ordered()
}

// ordered is the bound's value in an order that is its domain's: a
// signed value with its sign bit flipped compares as unsigned.
func (b bound) ordered() uint64 {
	if b.signed {
		return b.val ^ uint64(1)<<(b.term.Width-1)
	}
	return b.val
}

// DropImplied returns conds without the conditions implied by a tighter
// bound on the same term among them, in their order, and whether two of
// its bounds contradict each other (unsat: then no value satisfies
// conds). It returns conds itself when there is nothing to drop.
func DropImplied(conds []*Expr) (out []*Expr, unsat bool) {
	type side struct {
		term          *Expr
		signed, lower bool
	}
	var best map[side]int // the index of the tightest bound of each side
	var read []bound      // each condition as a bound (term nil: not one)
	for i, c := range conds {
		b, ok := asBound(c)
		if !ok {
			continue
		}
		if read == nil {
			read = make([]bound, len(conds))
			best = map[side]int{}
		}
		read[i] = b
		k := side{b.term, b.signed, b.lower}
		if j, seen := best[k]; !seen || tighter(b, read[j]) {
			best[k] = i
		}
	}
	if len(best) == 0 {
		return conds, false
	}
	for k, i := range best {
		if !k.lower {
			continue
		}
		if j, ok := best[side{k.term, k.signed, false}]; ok && crosses(read[i], read[j]) {
			unsat = true
			break
		}
	}
	for i, c := range conds {
		if b := read[i]; b.term != nil && best[side{b.term, b.signed, b.lower}] != i {
			if out == nil {
				out = append(make([]*Expr, 0, len(conds)), conds[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, c)
		}
	}
	if out == nil {
		return conds, unsat
	}
	return out, unsat
}

// crosses reports whether lower bound lo is greater than upper bound hi of
// the same term and domain: no value lies between them.
func crosses(lo, hi bound) bool { return lo.ordered() > hi.ordered() }
