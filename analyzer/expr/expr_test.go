package expr

import "testing"

func TestHashConsAndFold(t *testing.T) {
	b := NewBuilder()
	x := b.Variable("x", 32)
	if b.Variable("x", 32) != x {
		t.Fatal("same variable built twice is not the same node")
	}
	one := b.Constant(1, 32)
	if b.Binary(Add, x, one) != b.Binary(Add, x, one) {
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
