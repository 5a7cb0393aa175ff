package expr

import (
	"math/rand"
	"testing"
)

// TestDropImpliedKeepsTheConjunction draws random conjunctions of bounds
// (strict and not, signed and unsigned, negated or not, the constant on
// either side, the domain's ends among the constants) on two terms of two
// bytes, with other conditions among them, and checks under 4,096
// assignments (every value of one byte, 16 of the other) that the reduced conjunction holds exactly where the whole
// one does, that it keeps at most one bound per term, side and
// domain, and that a conjunction it calls unsatisfiable holds nowhere.
// Some of every kind occur: the test fails if no draw is unsatisfiable.
func TestDropImpliedKeepsTheConjunction(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	b := NewBuilder()
	x, y := b.Variable("x", 8), b.Variable("y", 8)
	terms := []*Expr{
		b.Binary(Add, x, y),
		b.Binary(Add, b.Binary(Mul, b.ZExt(x, 16), b.Constant(10, 16)), b.ZExt(y, 16)),
	}
	other := b.Binary(Eq, b.Binary(And, x, b.Constant(3, 8)), b.Constant(1, 8))
	ops := []Op{Ult, Ule, Slt, Sle}
	unsats := 0
	for trial := 0; trial < 400; trial++ {
		var conds []*Expr
		for i := 0; i < 2+r.Intn(7); i++ {
			if r.Intn(6) == 0 {
				conds = append(conds, other)
				continue
			}
			e := terms[r.Intn(len(terms))]
			var k uint64
			switch m := mask(e.Width); r.Intn(5) {
			case 0:
				k = 0
			case 1:
				k = m
			case 2:
				k = m >> 1 // the greatest signed value; m>>1+1 is the least
			default:
				k = r.Uint64() & m
			}
			kc := b.Constant(k, e.Width)
			c := b.Binary(ops[r.Intn(len(ops))], e, kc)
			if r.Intn(2) == 0 {
				c = b.Binary(ops[r.Intn(len(ops))], kc, e)
			}
			if r.Intn(2) == 0 {
				c = b.Not(c)
			}
			conds = append(conds, c)
		}
		got, unsat := DropImplied(conds)
		if unsat {
			unsats++
		}
		sides := map[bound]bool{}
		for _, c := range got {
			if bd, ok := asBound(c); ok {
				bd.val = 0
				if sides[bd] {
					t.Fatalf("%v kept two bounds of one side: %v", conds, got)
				}
				sides[bd] = true
			}
		}
		a := Assignment{}
		for xv := uint64(0); xv < 256; xv++ {
			for yv := uint64(0); yv < 256; yv += 17 {
				a["x"], a["y"] = xv, yv
				if Satisfies(a, conds) != Satisfies(a, got) {
					t.Fatalf("x=%d y=%d: %v is %v, but its reduction %v is not", xv, yv, conds,
						Satisfies(a, conds), got)
				}
				if unsat && Satisfies(a, conds) {
					t.Fatalf("x=%d y=%d satisfies %v, called unsatisfiable", xv, yv, conds)
				}
			}
		}
	}
	if unsats == 0 {
		t.Fatal("no draw was unsatisfiable: the test does not check that answer")
	}
}

// TestDropImpliedOnALoopBound is the shape that motivated it: a loop's
// bound n read from an input, asked at every iteration, leaves only the
// last iteration's test and the conditions on other terms.
func TestDropImpliedOnALoopBound(t *testing.T) {
	b := NewBuilder()
	x := b.Variable("x", 8)
	n := b.SExt(x, 32)
	digit := b.Binary(Sle, b.Constant(48, 32), n)
	conds := []*Expr{digit}
	for i := uint64(0); i < 100; i++ {
		conds = append(conds, b.Binary(Slt, b.Constant(i, 32), b.Binary(Sub, n, b.Constant(48, 32))))
	}
	exit := b.Not(b.Binary(Slt, b.Constant(100, 32), b.Binary(Sub, n, b.Constant(48, 32))))
	conds = append(conds, exit)
	got, unsat := DropImplied(conds)
	if unsat {
		t.Fatalf("%v called unsatisfiable", conds)
	}
	if len(got) != 3 || got[0] != digit || got[1] != conds[100] || got[2] != exit {
		t.Fatalf("got %v, want the digit test, 99 < n-48 and not 100 < n-48", got)
	}
	if again, _ := DropImplied(got); len(again) != len(got) || &again[0] != &got[0] {
		t.Fatalf("a reduced conjunction changed again: %v", again)
	}
	// Another thread of the loop, one iteration behind, asks whether it
	// may leave: not on this path.
	behind := b.Not(b.Binary(Slt, b.Constant(98, 32), b.Binary(Sub, n, b.Constant(48, 32))))
	if _, unsat := DropImplied(append(conds[:len(conds)-1:len(conds)-1], behind)); !unsat {
		t.Fatalf("99 < n-48 and not 98 < n-48 not seen to contradict")
	}
}
