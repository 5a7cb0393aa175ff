package expr

import "testing"

func TestHashConsAndFold(t *testing.T) {
	b := NewBuilder()
	x := b.Variable("x", 32)
	if b.Variable("x", 32) != x {
		t.Fatal("same variable built twice is not the same node")
	}
	one := b.Constant(1, 32)
	if first, second := b.Binary(Add, x, one), b.Binary(Add, x, one); first != second {
		t.Fatal("structurally equal terms are different nodes")
	}
	if c := b.Binary(Add, b.Constant(0xffffffff, 32), one); c.Op != Const || c.Val != 0 {
		t.Fatalf("fold wraps at width: got %v", c)
	}
	if c := b.Binary(Slt, b.Constant(0xffffffff, 32), one); c.Val != 1 || c.Width != 1 {
		t.Fatalf("-1 <s 1: got %v", c)
	}
	if d := b.Binary(UDiv, one, b.Constant(0, 32)); d.Op != UDiv {
		t.Fatalf("division by zero must stay symbolic, got %v", d)
	}
}

func TestSimplifications(t *testing.T) {
	b := NewBuilder()
	x := b.Variable("x", 32)
	zero, one := b.Constant(0, 32), b.Constant(1, 32)
	for _, c := range []struct {
		name      string
		got, want *Expr
	}{
		{"x+0", b.Binary(Add, x, zero), x},
		{"0+x", b.Binary(Add, zero, x), x},
		{"x*1", b.Binary(Mul, one, x), x},
		{"x*0", b.Binary(Mul, x, zero), zero},
		{"x-x", b.Binary(Sub, x, x), zero},
		{"x==x", b.Binary(Eq, x, x), b.Constant(1, 1)},
		{"not not x", b.Not(b.Not(x)), x},
		{"x+1 == 1+x", b.Binary(Add, x, one), b.Binary(Add, one, x)},
		// A 32-bit value stored as four bytes and loaded back is the value.
		{"bytes recombine", b.Concat(b.Concat(b.Extract(x, 24, 8), b.Extract(x, 16, 8)),
			b.Concat(b.Extract(x, 8, 8), b.Extract(x, 0, 8))), x},
		{"extract of zext", b.Extract(b.ZExt(x, 64), 0, 32), x},
		{"high bits of zext", b.Extract(b.ZExt(x, 64), 32, 32), zero},
		{"ite const", b.Ite(b.Constant(1, 1), x, zero), x},
		{"ite same", b.Ite(b.Variable("c", 1), x, x), x},
		{"sext const", b.SExt(b.Constant(0xff, 8), 16), b.Constant(0xffff, 16)},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestEvalAndVars(t *testing.T) {
	b := NewBuilder()
	x, y := b.Variable("x", 8), b.Variable("y", 8)
	e := b.Ite(b.Binary(Slt, x, y), b.Binary(Sub, y, x), b.Binary(UDiv, x, y))
	if got := Eval(e, Assignment{"x": 0xfe, "y": 3}); got != 5 { // -2 < 3: 3 - (-2)
		t.Fatalf("got %d", got)
	}
	if got := Eval(e, Assignment{"x": 9, "y": 0}); got != 0xff { // udiv by zero is all ones (SMT-LIB)
		t.Fatalf("udiv by zero: got %d", got)
	}
	if vs := Vars(e); len(vs) != 2 || vs[0] != "x" || vs[1] != "y" {
		t.Fatalf("vars %v", vs)
	}
}
