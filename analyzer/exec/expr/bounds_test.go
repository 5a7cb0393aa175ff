package expr

import (
	"math/rand"
	"testing"
)

// TestBoundsHoldUnderEveryAssignment builds random terms over two bytes,
// widened and combined by every operator, and checks each value the term
// takes under all 65,536 assignments against its bounds and its known
// low zeros. A bound that ignores a wrap-around or a shift past the width
// fails here.
func TestBoundsHoldUnderEveryAssignment(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	b := NewBuilder()
	x, y := b.Variable("x", 8), b.Variable("y", 8)
	tight, aligned := 0, 0
	for i := 0; i < 300; i++ {
		e := randomTerm(r, b, []*Expr{x, y}, 4)
		lo, hi := Bounds(e)
		zeros := mask(uint16(TrailingZeros(e)))
		if lo > hi {
			t.Fatalf("%v: bounds [%d, %d] are empty", e, lo, hi)
		}
		if hi < mask(e.Width) {
			tight++
		}
		if TrailingZeros(e) > 0 && e.Op != Const {
			aligned++
		}
		a := Assignment{}
		for xv := uint64(0); xv < 256; xv++ {
			for yv := uint64(0); yv < 256; yv++ {
				a["x"], a["y"] = xv, yv
				v := Eval(e, a)
				if v < lo || v > hi {
					t.Fatalf("%v at x=%d y=%d is %d, outside its bounds [%d, %d]", e, xv, yv, v, lo, hi)
				}
				if v&zeros != 0 {
					t.Fatalf("%v at x=%d y=%d is %#x, but its lowest %d bits were to be 0", e, xv, yv, v, TrailingZeros(e))
				}
			}
		}
	}
	if aligned < 20 {
		t.Fatalf("only %d of 300 terms had a known lowest bit: the test checks too little", aligned)
	}
	if tight < 100 {
		t.Fatalf("only %d of 300 terms had bounds narrower than their width: the test checks too little", tight)
	}
}

// randomTerm builds a term of depth at most d over leaves, of width 8,
// 16 or 32 at each node.
func randomTerm(r *rand.Rand, b *Builder, leaves []*Expr, d int) *Expr {
	widths := []uint16{8, 16, 32}
	if d == 0 || r.Intn(4) == 0 {
		var e *Expr
		if r.Intn(3) == 0 {
			e = b.Constant(uint64(r.Intn(300)), widths[r.Intn(3)])
		} else {
			e = leaves[r.Intn(len(leaves))]
		}
		return e
	}
	x := randomTerm(r, b, leaves, d-1)
	y := fit(b, randomTerm(r, b, leaves, d-1), x.Width)
	switch r.Intn(10) {
	case 0:
		return b.ZExt(x, x.Width*2)
	case 1:
		return b.SExt(x, x.Width*2)
	case 2:
		return b.Not(x)
	case 3:
		lo := uint16(r.Intn(int(x.Width)))
		return b.Extract(x, lo, uint16(1+r.Intn(int(x.Width-lo))))
	case 4:
		c := b.Binary([]Op{Eq, Ult, Ule, Slt, Sle}[r.Intn(5)], x, y)
		return b.Ite(c, x, y)
	case 5:
		return fit(b, b.Concat(x, y), 32)
	case 6: // scaled by an element's size, as an index is
		return b.Binary(Mul, x, b.Constant(uint64(2)<<r.Intn(3), x.Width))
	case 7:
		return b.Binary(Shl, x, b.Constant(uint64(1+r.Intn(3)), x.Width))
	}
	ops := []Op{Add, Sub, Mul, UDiv, URem, Shl, LShr, And, Or, Xor}
	op := ops[r.Intn(len(ops))]
	if r.Intn(2) == 0 { // a constant operand, as addresses and masks have
		y = b.Constant(uint64(r.Intn(int(x.Width)*2)), x.Width)
	}
	return b.Binary(op, x, y)
}

// fit extends or truncates e to width w.
func fit(b *Builder, e *Expr, w uint16) *Expr {
	if e.Width > w {
		return b.Extract(e, 0, w)
	}
	return b.ZExt(e, w)
}

func TestBoundsOfATableIndex(t *testing.T) {
	b := NewBuilder()
	crc := b.Variable("crc", 32)
	in := b.Variable("in", 8)
	// table + ((crc ^ in) & 0xff) * 4, with the table at object 7.
	idx := b.Binary(And, b.Binary(Xor, crc, b.ZExt(in, 32)), b.Constant(0xff, 32))
	addr := b.Binary(Add, b.Constant(7<<40, 64), b.Binary(Mul, b.ZExt(idx, 64), b.Constant(4, 64)))
	lo, hi := Bounds(addr)
	if lo != 7<<40 || hi != 7<<40+255*4 {
		t.Fatalf("bounds [%#x, %#x], want [%#x, %#x]", lo, hi, 7<<40, 7<<40+255*4)
	}
	if z := TrailingZeros(b.Extract(addr, 0, 40)); z != 2 {
		t.Fatalf("the offset of a 4-byte element has %d known low zeros, want 2", z)
	}
	if lo, hi := Bounds(b.Extract(addr, 40, 24)); lo != 7 || hi != 7 {
		t.Fatalf("object id bounds [%d, %d], want 7", lo, hi)
	}
	off := b.Extract(addr, 0, 40)
	if lo, hi := Bounds(off); lo != 0 || hi != 255*4 {
		t.Fatalf("offset bounds [%d, %d], want [0, %d]", lo, hi, 255*4)
	}
	inBounds := b.Binary(Ule, b.Binary(Add, b.ZExt(off, 64), b.Constant(4, 64)), b.Constant(1024, 64))
	if v, ok := Decided(inBounds); !ok || !v {
		t.Fatalf("offset+4 <= 1024: decided %v, %v", v, ok)
	}
	if v, ok := Decided(b.Binary(Ult, idx, b.Constant(256, 32))); !ok || !v {
		t.Fatalf("index < 256: decided %v, %v", v, ok)
	}
	if _, ok := Decided(b.Binary(Ult, idx, b.Constant(100, 32))); ok {
		t.Fatal("index < 100 is not decided by the bounds")
	}
}
