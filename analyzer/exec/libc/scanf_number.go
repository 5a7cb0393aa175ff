package libc

import (
	"slices"

	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/vm"
)

// An integer conversion of base 8, 10 or 16 (%o, %d and %u, %x) on
// symbolic bytes tells each byte's class apart, a digit of the base or
// not, and pins only that of a digit (vm.Machine.ConcretizeSplit): the
// number read is a term of the input. A byte of the other class is
// pinned to one value, which says whether it is a space to skip, a sign,
// a hexadecimal prefix's x or the number's end. The other class, where
// the path allows it, is forked: the input's numbers are explored with
// each count of digits, not only the seed's. (%i, whose base its prefix
// picks, reads pinned bytes.)
const (
	classDigit = iota
	classOther
)

// convBase is the base of an integer conversion: 0 for %i, whose prefix
// picks it, and for a conversion that is not an integer's.
func convBase(conv byte) int {
	switch conv {
	case 'd', 'u':
		return 10
	case 'o':
		return 8
	case 'x', 'X', 'p':
		return 16
	}
	return 0
}

// byClass reports whether an integer conversion of base on symbolic
// bytes reads them by class: all but %i and %p.
func byClass(conv byte, base int) bool { return base != 0 && conv != 'p' }

// digitClasses are the conditions of each class on a byte's term.
func digitClasses(b *expr.Builder, base int) []func(*expr.Expr) *expr.Expr {
	in := func(x *expr.Expr, lo, hi byte) *expr.Expr {
		return b.Binary(expr.And, b.Binary(expr.Ule, b.Constant(uint64(lo), 8), x), b.Binary(expr.Ule, x, b.Constant(uint64(hi), 8)))
	}
	digit := func(x *expr.Expr) *expr.Expr {
		switch base {
		case 8:
			return in(x, '0', '7')
		case 16:
			return b.Binary(expr.Or, in(x, '0', '9'), b.Binary(expr.Or, in(x, 'a', 'f'), in(x, 'A', 'F')))
		}
		return in(x, '0', '9')
	}
	return []func(*expr.Expr) *expr.Expr{
		classDigit: digit,
		classOther: func(x *expr.Expr) *expr.Expr { return b.Not(digit(x)) },
	}
}

// digitClass returns the class of a byte in base.
func digitClass(base int) func(c uint64) int {
	return func(c uint64) int {
		if d := digitVal(int(c)); d >= 0 && d < base {
			return classDigit
		}
		return classOther
	}
}

// splitDigit pins the class of symbolic byte e for a conversion of base,
// forking the other class (fix puts the model's state back in the fork,
// which runs the call again), and pins a byte of the other class to one
// value. It returns the byte's value and whether it is a digit, whose
// term stays free within its class.
func splitDigit(m *machine, e *expr.Expr, base int, fix func(*vm.Machine)) (uint64, bool, error) {
	class := digitClass(base)
	x, err := m.ConcretizeSplit(vm.Value{Sym: e}, 8, digitClasses(m.Terms(), base), class, fix)
	if err != nil {
		return 0, false, err
	}
	if class(x) == classDigit {
		return x, true, nil
	}
	x, err = m.Concretize(vm.Value{Sym: e}, 8)
	return x, false, err
}

// numberSource is a scan source whose bytes may be symbolic (a stream's,
// a string's in memory): an integer conversion reads it by class
// (nextByte) and pushes back the byte after the number (unread); failure
// is the error pinning a byte met, if any.
type numberSource interface {
	scanSource
	nextByte(base int) (c int, term *expr.Expr)
	unread(c int)
	failure() error
}

// nextByte reads the next byte for an integer conversion of base: its
// value and, for a symbolic digit, its term (splitDigit).
func (s *streamScan) nextByte(base int) (c int, term *expr.Expr) {
	e := s.f.symNext()
	if e == nil || s.m.Symbolic() == nil {
		return s.next(), nil
	}
	x, digit, err := splitDigit(s.m, e, base, s.restart)
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return -1, nil
	}
	s.f.pos++
	if digit {
		term = e
	}
	return int(x), term
}

// scanNumber reads an integer conversion's text from a source with
// symbolic bytes, at most width bytes after the spaces it skips: the text
// with the term of each symbolic digit (nil for the others), the spaces
// skipped, and whether the input ended before the number began. A
// hexadecimal number may start with 0x, whose 0 is then pinned.
func scanNumber(m *machine, s numberSource, width, base int) (text []byte, terms []*expr.Expr, skipped int, eof bool) {
	c, e := s.nextByte(base)
	for isSpace(c) {
		skipped++
		c, e = s.nextByte(base)
	}
	if c < 0 {
		return nil, nil, skipped, true
	}
	take := func() bool {
		text, terms = append(text, byte(c)), append(terms, e)
		if len(text) == width {
			return false
		}
		c, e = s.nextByte(base)
		return true
	}
	if (c == '+' || c == '-') && !take() {
		return text, terms, skipped, false
	}
	digits, class := len(text), digitClass(base)
	for c >= 0 && class(uint64(c)) == classDigit {
		if !take() {
			return text, terms, skipped, false
		}
		if base == 16 && len(text) == digits+1 && text[digits] == '0' && (c == 'x' || c == 'X') {
			if terms[digits] != nil { // the prefix's 0: no other digit is a prefix
				if _, err := m.Concretize(vm.Value{Sym: terms[digits]}, 8); err != nil {
					return text, terms, skipped, false
				}
				terms[digits] = nil
			}
			if !take() {
				return text, terms, skipped, false
			}
		}
	}
	s.unread(c)
	return text, terms, skipped, false
}

// maxSymbolicDigits is the most digits of each base a conversion keeps
// symbolic: as many as always fit in 64 bits, where the term's
// arithmetic and strtoul's agree.
var maxSymbolicDigits = map[int]int{8: 21, 10: 19, 16: 16}

// numberTerm is the 64-bit term of an integer's text in base whose
// digits terms gives (nil: the text's own), or nil when no digit is
// symbolic or there are too many to keep so (each is then pinned to its
// value).
func (m *machine) numberTerm(text []byte, terms []*expr.Expr, base int) (*expr.Expr, error) {
	symbolic := slices.ContainsFunc(terms, func(e *expr.Expr) bool { return e != nil })
	if !symbolic {
		return nil, nil
	}
	digits := len(text)
	for _, c := range text {
		if c == '+' || c == '-' || c == 'x' || c == 'X' {
			digits--
		}
	}
	if digits > maxSymbolicDigits[base] {
		for i, e := range terms {
			if e != nil {
				x, err := m.Concretize(vm.Value{Sym: e}, 8)
				if err != nil {
					return nil, err
				}
				text[i] = byte(x)
			}
		}
		return nil, nil
	}
	b := m.Terms()
	v, neg := b.Constant(0, 64), false
	for i, c := range text {
		switch {
		case i == 0 && (c == '+' || c == '-'):
			neg = c == '-'
			continue
		case c == 'x' || c == 'X':
			continue
		}
		d := b.Constant(uint64(digitVal(int(c))), 64)
		if terms[i] != nil {
			d = m.digitTerm(terms[i], base)
		}
		v = b.Binary(expr.Add, b.Binary(expr.Mul, v, b.Constant(uint64(base), 64)), d)
	}
	if neg {
		v = b.Binary(expr.Sub, b.Constant(0, 64), v)
	}
	return v, nil
}

// digitTerm is the 64-bit value of a digit of base whose byte's term is
// t, under its class's constraint.
func (m *machine) digitTerm(t *expr.Expr, base int) *expr.Expr {
	b := m.Terms()
	from := func(c byte, add uint64) *expr.Expr {
		return b.Binary(expr.Add, b.Binary(expr.Sub, b.ZExt(t, 64), b.Constant(uint64(c), 64)), b.Constant(add, 64))
	}
	if base != 16 {
		return from('0', 0)
	}
	le := func(c byte) *expr.Expr { return b.Binary(expr.Ule, t, b.Constant(uint64(c), 8)) }
	return b.Ite(le('9'), from('0', 0), b.Ite(le('F'), from('A', 10), from('a', 10)))
}
