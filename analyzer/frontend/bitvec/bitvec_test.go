package bitvec

import "testing"

func TestEvalEdges(t *testing.T) {
	cases := []struct {
		op      Op
		a, b    uint64
		w       uint16
		want    uint64
		defined bool
	}{
		{Add, 0xff, 1, 8, 0, true},
		{Sub, 0, 1, 32, 0xffffffff, true},
		{Mul, 1 << 63, 2, 64, 0, true},
		{SDiv, 0xfffffff9, 2, 32, 0xfffffffd, true},  // -7 / 2 = -3
		{SRem, 0xfffffff9, 2, 32, 0xffffffff, true},  // -7 % 2 = -1
		{SDiv, 0x80000000, 0xffffffff, 32, 0, false}, // INT_MIN / -1
		{UDiv, 5, 0, 32, 0, false},
		{Shl, 1, 32, 32, 0, true},
		{AShr, 0x80, 9, 8, 0xff, true},
		{LShr, 0x80, 7, 8, 1, true},
	}
	for _, c := range cases {
		got, ok := Eval(c.op, c.a, c.b, c.w)
		if ok != c.defined || (ok && got != c.want) {
			t.Errorf("Eval(%d, %#x, %#x, i%d) = %#x, %v; want %#x, %v", c.op, c.a, c.b, c.w, got, ok, c.want, c.defined)
		}
	}
	if SExt(0x80, 8) != -128 || Mask(64) != ^uint64(0) || Mask(1) != 1 {
		t.Error("SExt/Mask")
	}
}
