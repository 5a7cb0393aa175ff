package solver

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"augur/analyzer/exec/expr"
)

func TestSatModelAndMustBeTrue(t *testing.T) {
	b := expr.NewBuilder()
	s := New(5 * time.Second)
	x := b.Variable("x", 16) // wider than a byte: Z3 decides, not enumeration
	three, c21 := b.Constant(3, 16), b.Constant(21, 16)
	eq := b.Binary(expr.Eq, b.Binary(expr.Mul, x, three), c21)
	model, sat, err := s.Model([]*expr.Expr{eq})
	if err != nil || !sat || model["x"] != 7 {
		t.Fatalf("3x == 21 (mod 2^16): %v %v %v", model, sat, err)
	}
	lt10 := b.Binary(expr.Ult, x, b.Constant(10, 16))
	must, err := s.MustBeTrue(b, []*expr.Expr{lt10}, b.Binary(expr.Ult, x, b.Constant(20, 16)))
	if err != nil || !must {
		t.Fatalf("x<10 implies x<20: %v %v", must, err)
	}
	may, err := s.MayBeTrue([]*expr.Expr{lt10}, b.Binary(expr.Ult, b.Constant(10, 16), x))
	if err != nil || may {
		t.Fatalf("x<10 and x>10: %v %v", may, err)
	}
	v, err := s.Value([]*expr.Expr{eq}, b.Binary(expr.Add, x, b.Constant(1, 16)))
	if err != nil || v != 8 {
		t.Fatalf("value of x+1: %d %v", v, err)
	}
}

func TestCachesAndSlicing(t *testing.T) {
	b := expr.NewBuilder()
	s := New(5 * time.Second)
	x, y := b.Variable("x", 16), b.Variable("y", 16)
	cx := b.Binary(expr.Ult, x, b.Constant(100, 16))
	cy := b.Binary(expr.Eq, y, b.Constant(3, 16))
	q := b.Binary(expr.Ult, b.Constant(50, 16), x)
	if got := relevant([]*expr.Expr{cx, cy}, expr.VarsOf(q)); len(got) != 1 || got[0] != cx {
		t.Fatalf("slicing kept %v", got)
	}
	for i := 0; i < 3; i++ {
		if ok, err := s.MayBeTrue([]*expr.Expr{cx, cy}, q); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	if s.Stats.Z3Calls != 1 || s.Stats.CacheHits != 2 {
		t.Fatalf("stats %+v", s.Stats)
	}
	// A new query the last model already satisfies needs no Z3 call.
	if ok, _ := s.MayBeTrue([]*expr.Expr{cx}, b.Binary(expr.Ult, b.Constant(1, 16), x)); !ok || s.Stats.ModelHits != 1 {
		t.Fatalf("model cache: %+v", s.Stats)
	}
}

// A query Z3 gives up on is a timeout value, not a hang or a wrong answer.
// The resource limit makes Z3 give up at the same point on every machine.
func TestGivingUpIsATimeout(t *testing.T) {
	b := expr.NewBuilder()
	s := NewLimited(time.Minute, 1)
	x, y := b.Variable("x", 64), b.Variable("y", 64)
	one := b.Constant(1, 64)
	q := b.Binary(expr.Eq, b.Binary(expr.Mul, x, y), b.Constant(0xfffffffb*0xffffffef&(1<<63-1), 64))
	conds := []*expr.Expr{b.Binary(expr.Ult, one, x), b.Binary(expr.Ult, one, y)}
	if _, err := s.MayBeTrue(conds, q); !errors.Is(err, ErrTimeout) || s.Stats.Timeouts != 1 {
		t.Fatalf("err %v, stats %+v", err, s.Stats)
	}
}

// Eval and the Z3 translation agree on random terms over every operator,
// division by zero included: for random inputs, "vars = a and e != Eval(e,a)"
// must be unsatisfiable.
func TestEvalAgreesWithZ3(t *testing.T) {
	b := expr.NewBuilder()
	s := New(10 * time.Second)
	rng := rand.New(rand.NewPCG(1, 2))
	vars := []*expr.Expr{b.Variable("a", 8), b.Variable("b", 8)}
	binops := []expr.Op{expr.Add, expr.Sub, expr.Mul, expr.UDiv, expr.SDiv, expr.URem, expr.SRem, expr.Shl,
		expr.LShr, expr.AShr, expr.And, expr.Or, expr.Xor}
	cmps := []expr.Op{expr.Eq, expr.Ult, expr.Ule, expr.Slt, expr.Sle}
	var gen func(depth int) *expr.Expr
	gen = func(depth int) *expr.Expr {
		if depth == 0 || rng.IntN(4) == 0 {
			if rng.IntN(2) == 0 {
				return vars[rng.IntN(2)]
			}
			return b.Constant(uint64(rng.IntN(256)), 8)
		}
		switch rng.IntN(6) {
		case 0:
			return b.Not(gen(depth - 1))
		case 1:
			c := b.Binary(cmps[rng.IntN(len(cmps))], gen(depth-1), gen(depth-1))
			return b.Ite(c, gen(depth-1), gen(depth-1))
		case 2:
			w := b.SExt(gen(depth-1), 16)
			return b.Extract(b.Binary(expr.Add, w, b.ZExt(gen(depth-1), 16)), uint16(rng.IntN(9)), 8)
		case 3:
			return b.Extract(b.Concat(gen(depth-1), gen(depth-1)), 4, 8)
		default:
			return b.Binary(binops[rng.IntN(len(binops))], gen(depth-1), gen(depth-1))
		}
	}
	for i := 0; i < 60; i++ {
		e := gen(4)
		a := expr.Assignment{"a": uint64(rng.IntN(256)), "b": uint64(rng.IntN(256))}
		conds := []*expr.Expr{
			b.Binary(expr.Eq, vars[0], b.Constant(a["a"], 8)),
			b.Binary(expr.Eq, vars[1], b.Constant(a["b"], 8)),
		}
		differs := b.Not(b.Binary(expr.Eq, e, b.Constant(expr.Eval(e, a), e.Width)))
		// Z3 itself: through the Solver, queries on two bytes are
		// decided by enumeration, which is Eval.
		if sat, _, err := s.be.check(append(conds, differs), []string{"a", "b"}); err != nil || sat {
			t.Fatalf("term %v under %v: Eval says %d, Z3 disagrees (sat=%v err=%v)", e, a, expr.Eval(e, a), sat, err)
		}
	}
}

// TestReusedModelAssignsEveryVariable asks for a model of a query an
// earlier model satisfies only because it leaves a variable out (read as
// 0): the answer must say that variable is 0, or a caller that fills the
// variables a model leaves free from its seed gets inputs that take
// another path (an explored argument's NUL lost to the seed's byte).
func TestReusedModelAssignsEveryVariable(t *testing.T) {
	b := expr.NewBuilder()
	s := New(5 * time.Second)
	x, y := b.Variable("x", 8), b.Variable("y", 8)
	zero := b.Constant(0, 8)
	xNonzero := b.Not(b.Binary(expr.Eq, x, zero))
	if m, sat, err := s.Model([]*expr.Expr{xNonzero}); err != nil || !sat || m["x"] == 0 {
		t.Fatalf("x != 0: %v %v %v", m, sat, err)
	}
	m, sat, err := s.Model([]*expr.Expr{xNonzero, b.Binary(expr.Eq, y, zero)})
	if err != nil || !sat {
		t.Fatalf("x != 0 and y == 0: %v %v", sat, err)
	}
	if s.Stats.ModelHits != 1 {
		t.Fatalf("the first model was not reused: %+v", s.Stats)
	}
	if v, ok := m["y"]; !ok || v != 0 {
		t.Fatalf("model %v does not assign y = 0", m)
	}
}

// TestLoopBoundFromDigits asks what a concolic run of "for (i = 0; i < n;
// i++)" asks, n being atoi of five digit bytes whose seed is "20000": at
// each iteration k, whether n may be k (the loop ends there: a fork) as
// well as more than k (the path goes on), and the path then keeps k < n.
// Every answer must be right, and the searches over the bytes must
// decide them without Z3: each bound is one more than the last answer,
// and only the tightest bound is kept among the path's conditions.
func TestLoopBoundFromDigits(t *testing.T) {
	b := expr.NewBuilder()
	s := New(5 * time.Second)
	s.Prefer = expr.Assignment{}
	w := uint16(32)
	var n *expr.Expr
	var pc []*expr.Expr
	for i, c := range "20000" {
		d := b.SExt(b.Variable(fmt.Sprintf("arg[%d]", i), 8), w)
		s.Prefer[fmt.Sprintf("arg[%d]", i)] = uint64(c)
		pc = append(pc, b.Binary(expr.Sle, b.Constant('0', w), d), b.Binary(expr.Sle, d, b.Constant('9', w)))
		digit := b.Binary(expr.Sub, d, b.Constant('0', w))
		if n == nil {
			n = digit
		} else {
			n = b.Binary(expr.Add, b.Binary(expr.Mul, n, b.Constant(10, w)), digit)
		}
	}
	for k := uint64(0); k < 150; k++ {
		// In the order vm.Machine.decide asks: the side the seed takes,
		// then the other.
		more := b.Binary(expr.Slt, b.Constant(k, w), n)
		goes, err := s.MayBeTrue(pc, more)
		if err != nil || !goes {
			t.Fatalf("iteration %d: n may be more than %d, the solver says %v (%v)", k, k, goes, err)
		}
		ends, err := s.MayBeTrue(pc, b.Not(more))
		if err != nil || !ends {
			t.Fatalf("iteration %d: n may be %d, the solver says %v (%v)", k, k, ends, err)
		}
		pc = append(pc, more)
	}
	if past, err := s.MayBeTrue(pc, b.Binary(expr.Slt, n, b.Constant(150, w))); err != nil || past {
		t.Fatalf("n < 150 after 150 iterations: %v %v", past, err)
	}
	if s.Stats.Z3Calls > 2 {
		t.Fatalf("%d of %d queries reached Z3 (%+v)", s.Stats.Z3Calls, s.Stats.Queries, s.Stats)
	}
	// Threads behind on the same loop ask whether they may leave it, on a
	// path that holds 149 < n: no, from the bounds alone, each counted as
	// a decision (the solver budget runs out where it did when Z3 said
	// so, 20 to 90 ms each), and none reaching the search or Z3.
	before := s.Stats
	for k := uint64(100); k < 140; k++ {
		leaves, err := s.MayBeTrue(pc, b.Not(b.Binary(expr.Slt, b.Constant(k, w), n)))
		if err != nil || leaves {
			t.Fatalf("a thread at %d may leave after 150 iterations: %v %v", k, leaves, err)
		}
	}
	after := s.Stats
	if after.Bounded-before.Bounded != 40 || after.Z3Calls != before.Z3Calls || after.Enumerated != before.Enumerated ||
		after.Decisions()-before.Decisions() != 40 {
		t.Fatalf("40 queries behind the bound: before %+v, after %+v", before, after)
	}
}

// A model of constraints over independent groups of variables is solved
// group by group: each is a query of its own, which the caches and the
// search over bytes answer, and the model has every group's variables
// and satisfies the whole; an unsatisfiable group makes the whole so.
func TestModelSolvesIndependentGroups(t *testing.T) {
	b := expr.NewBuilder()
	s := New(5 * time.Second)
	x, y, z := b.Variable("x", 8), b.Variable("y", 8), b.Variable("z", 8)
	cs := []*expr.Expr{
		b.Binary(expr.Ult, b.Constant(200, 8), x),
		b.Binary(expr.Eq, b.Binary(expr.Add, y, z), b.Constant(9, 8)),
		b.Binary(expr.Ult, x, b.Constant(210, 8)),
		b.Binary(expr.Eq, z, b.Constant(4, 8)),
	}
	if g := independent(cs); len(g) != 2 || len(g[0]) != 2 || len(g[1]) != 2 {
		t.Fatalf("groups of x and of y, z: %v", g)
	}
	model, sat, err := s.Model(cs)
	if err != nil || !sat || !expr.Satisfies(model, cs) || model["y"] != 5 || model["z"] != 4 {
		t.Fatalf("model %v sat %v err %v", model, sat, err)
	}
	if queries := s.Stats.Queries; queries != 2 {
		t.Errorf("%d queries, want one a group", queries)
	}
	cs = append(cs, b.Binary(expr.Eq, z, b.Constant(5, 8)))
	if _, sat, err := s.Model(cs); err != nil || sat {
		t.Fatalf("z == 4 and z == 5: sat %v err %v", sat, err)
	}
}
