package vm

import (
	"testing"

	"augur/analyzer/frontend/ir"
)

// The saturating intrinsics clamp where the plain operation overflows, at
// every width, 64 bits too: a wrap past the unsigned maximum gives the
// maximum, one below 0 gives 0, and a signed overflow the bound on its
// first operand's side.
func TestSaturatingArithmeticClamps(t *testing.T) {
	tab := NewModels()
	run := func(name string, w uint16, x, y uint64) uint64 {
		t.Helper()
		in := &ir.Inst{ArgTys: []ir.Scalar{{Kind: ir.KInt, Bits: w}, {Kind: ir.KInt, Bits: w}}}
		res := []Value{{}}
		if err := tab.Lookup(name).fn(nil, nil, in, []Value{{Bits: x}, {Bits: y}}, res); err != nil {
			t.Fatal(err)
		}
		return res[0].Bits
	}
	cases := []struct {
		name string
		w    uint16
		x, y uint64
		want uint64
	}{
		{"llvm.uadd.sat.i8", 8, 250, 10, 255},
		{"llvm.uadd.sat.i8", 8, 100, 10, 110},
		{"llvm.usub.sat.i8", 8, 3, 10, 0},
		{"llvm.sadd.sat.i8", 8, 125, 5, 127},
		{"llvm.sadd.sat.i8", 8, 0x80, 0xff, 0x80}, // -128 + -1
		{"llvm.ssub.sat.i16", 16, 0x8000, 1, 0x8000},
		{"llvm.ssub.sat.i16", 16, 5, 0xffff, 6}, // 5 - -1
		{"llvm.uadd.sat.i64", 64, ^uint64(0) - 1, 5, ^uint64(0)},
		{"llvm.uadd.sat.i64", 64, 1 << 63, 1, 1<<63 + 1},
		{"llvm.usub.sat.i64", 64, 1 << 63, 1<<63 + 1, 0},
		{"llvm.usub.sat.i64", 64, 1<<63 + 1, 1 << 63, 1},
		{"llvm.sadd.sat.i64", 64, 1<<63 - 1, 1, 1<<63 - 1},
		{"llvm.ssub.sat.i64", 64, 1 << 63, 1, 1 << 63},
	}
	for _, c := range cases {
		if got := run(c.name, c.w, c.x, c.y); got != c.want {
			t.Errorf("%s(%#x, %#x) = %#x, want %#x", c.name, c.x, c.y, got, c.want)
		}
	}
}
