package solver

import (
	"math/rand/v2"
	"testing"
	"time"

	"augur/analyzer/exec/expr"
)

// randomTerm builds a random term of width 8 over vars, with every
// operator the translation to Z3 has.
func randomTerm(b *expr.Builder, rng *rand.Rand, vars []*expr.Expr, depth int) *expr.Expr {
	binops := []expr.Op{expr.Add, expr.Sub, expr.Mul, expr.UDiv, expr.SDiv, expr.URem, expr.SRem, expr.Shl,
		expr.LShr, expr.AShr, expr.And, expr.Or, expr.Xor}
	cmps := []expr.Op{expr.Eq, expr.Ult, expr.Ule, expr.Slt, expr.Sle}
	if depth == 0 || rng.IntN(4) == 0 {
		if rng.IntN(2) == 0 {
			return vars[rng.IntN(len(vars))]
		}
		return b.Constant(uint64(rng.IntN(256)), 8)
	}
	sub := func() *expr.Expr { return randomTerm(b, rng, vars, depth-1) }
	switch rng.IntN(6) {
	case 0:
		return b.Not(sub())
	case 1:
		return b.Ite(b.Binary(cmps[rng.IntN(len(cmps))], sub(), sub()), sub(), sub())
	case 2:
		return b.Extract(b.Binary(expr.Add, b.SExt(sub(), 16), b.ZExt(sub(), 16)), uint16(rng.IntN(9)), 8)
	case 3:
		return b.Extract(b.Concat(sub(), sub()), 4, 8)
	default:
		return b.Binary(binops[rng.IntN(len(binops))], sub(), sub())
	}
}

// The search over bytes' values and Z3 agree on whether random queries
// over three bytes are satisfiable, and the search's models satisfy them.
func TestEnumerationAgreesWithZ3(t *testing.T) {
	b := expr.NewBuilder()
	s := New(10 * time.Second)
	rng := rand.New(rand.NewPCG(3, 4))
	vars := []*expr.Expr{b.Variable("a", 8), b.Variable("b", 8), b.Variable("c", 8)}
	cmps := []expr.Op{expr.Eq, expr.Ult, expr.Ule, expr.Slt, expr.Sle}
	sats := 0
	for i := 0; i < 80; i++ {
		var conds []*expr.Expr
		for j := 0; j < 1+rng.IntN(4); j++ {
			conds = append(conds, b.Binary(cmps[rng.IntN(len(cmps))], randomTerm(b, rng, vars, 3), randomTerm(b, rng, vars, 3)))
		}
		sat, model, ok := enumerate(conds, nil)
		if !ok {
			continue // a constant query, or past the budget: Z3's
		}
		z3sat, _, err := s.be.check(conds, []string{"a", "b", "c"})
		if err != nil || z3sat != sat {
			t.Fatalf("%v: enumeration says sat=%v, Z3 %v (%v)", conds, sat, z3sat, err)
		}
		if sat {
			sats++
			if !expr.Satisfies(model, conds) {
				t.Fatalf("%v: model %v does not satisfy", conds, model)
			}
		}
	}
	if sats == 0 {
		t.Fatal("no satisfiable query among the random ones: the test checks nothing")
	}
}

// A query on wider variables, on too many bytes, or one whose search
// would pass its budget is left to Z3; one on a few bytes is not, and
// its model is the preferred values where the query allows.
func TestEnumerationScope(t *testing.T) {
	b := expr.NewBuilder()
	x := b.Variable("x", 8)
	gt5 := b.Binary(expr.Ult, b.Constant(5, 8), x)
	if sat, model, ok := enumerate([]*expr.Expr{gt5}, expr.Assignment{"x": 9}); !ok || !sat || model["x"] != 9 {
		t.Fatalf("x > 5 preferring 9: sat=%v model=%v ok=%v", sat, model, ok)
	}
	if sat, model, ok := enumerate([]*expr.Expr{gt5}, expr.Assignment{"x": 2}); !ok || !sat || model["x"] != 6 {
		t.Fatalf("x > 5 preferring 2: sat=%v model=%v ok=%v", sat, model, ok)
	}
	wide := b.Variable("w", 16)
	if _, _, ok := enumerate([]*expr.Expr{b.Binary(expr.Ult, b.Constant(5, 16), wide)}, nil); ok {
		t.Fatal("a 16-bit variable was enumerated")
	}
	var many []*expr.Expr
	for i := 0; i <= maxEnumeratedVars; i++ {
		many = append(many, b.Binary(expr.Eq, b.Variable(string(rune('a'+i)), 8), b.Constant(1, 8)))
	}
	if _, _, ok := enumerate(many, nil); ok {
		t.Fatal("more bytes than maxEnumeratedVars were enumerated")
	}
	// a*b*c == 2^23+1 over 24-bit products of bytes: no assignment of
	// two bytes refutes it, so the search would try 2^24 values.
	p, q, r := b.ZExt(b.Variable("p", 8), 32), b.ZExt(b.Variable("q", 8), 32), b.ZExt(b.Variable("r", 8), 32)
	prod := b.Binary(expr.Mul, b.Binary(expr.Mul, p, q), r)
	hard := b.Binary(expr.Eq, prod, b.Constant(1<<23+1, 32))
	if _, _, ok := enumerate([]*expr.Expr{hard}, nil); ok {
		t.Fatal("a search past its budget did not give up")
	}
	s := New(10 * time.Second)
	if ok, err := s.MayBeTrue(nil, gt5); !ok || err != nil || s.Stats.Enumerated != 1 || s.Stats.Z3Calls != 0 {
		t.Fatalf("a query on one byte: %v %v %+v", ok, err, s.Stats)
	}
}

// isDigitChain builds "x is a decimal digit" as a ctype lookup compiles
// to, a chain of one link per byte value: ite(x == 0, 0, ite(x == 1, 0,
// ...)), so that deciding it for one value walks up to 256 links.
func isDigitChain(b *expr.Builder, x *expr.Expr) *expr.Expr {
	cls := b.Constant(0, 8)
	for v := 255; v >= 0; v-- {
		in := uint64(0)
		if v >= '0' && v <= '9' {
			in = 1
		}
		cls = b.Ite(b.Binary(expr.Eq, x, b.Constant(uint64(v), 8)), b.Constant(in, 8), cls)
	}
	return b.Binary(expr.Eq, cls, b.Constant(1, 8))
}

// A condition over one byte alone is decided for all of its values
// before the search, and the search tries only the values it leaves: a
// refutation over four digits (a product of two of them must be 5 and at
// most 2) takes a few hundred evaluations, where walking each digit's
// class chain for every value of every byte took more than a brief
// search's budget. The values kept for a condition serve the next query.
func TestUnaryConditionsNarrowTheSearch(t *testing.T) {
	b := expr.NewBuilder()
	var digits []*expr.Expr
	var conds []*expr.Expr
	for _, name := range []string{"a", "b", "c", "d"} {
		x := b.Variable(name, 8)
		digits = append(digits, b.Binary(expr.Sub, b.ZExt(x, 16), b.Constant('0', 16)))
		conds = append(conds, isDigitChain(b, x))
	}
	prod := b.Binary(expr.Mul, digits[0], digits[3])
	conds = append(conds,
		b.Binary(expr.Eq, prod, b.Constant(5, 16)),
		b.Binary(expr.Ule, b.Binary(expr.Mul, prod, b.Constant(8, 16)), b.Constant(16, 16)),
		b.Binary(expr.Ult, digits[1], digits[2]))
	var tables unaryTables
	en := enumerable(conds, &tables)
	if sat, _, ok := en.run(briefBudget); !ok || sat {
		t.Fatalf("refuting four digits within a brief budget: sat=%v ok=%v (work %d)", sat, ok, en.work)
	}
	if en.work > 1000 {
		t.Errorf("the refutation took %d evaluations, want at most 1000", en.work)
	}
	for _, c := range conds[:4] {
		if tables.lookup(c) == nil {
			t.Fatalf("no values kept for the one-byte condition %v", c)
		}
	}
	// Without the product's bound the query is satisfiable; the model is
	// the preferred values where they are digits, else the first in the
	// search's order.
	satisfiable := append(conds[:5:5], conds[6])
	sat, model, ok := enumerable(satisfiable, &tables).run(briefBudget, expr.Assignment{"a": '5', "d": '1', "c": 'x'})
	if !ok || !sat || !expr.Satisfies(model, satisfiable) || model["a"] != '5' || model["d"] != '1' ||
		model["b"] != '0' || model["c"] != '1' {
		t.Fatalf("a satisfiable query over four digits: sat=%v ok=%v model=%v", sat, ok, model)
	}
}
