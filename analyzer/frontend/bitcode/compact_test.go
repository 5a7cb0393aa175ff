package bitcode_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
)

// The bookkeeping of clang -O0 code is lowered away: an int index's sign
// extension, the field GEP under an element GEP, the branch to the next
// block, and fmuladd's call. What is left of get() is one GEP, its load
// and the return. sum keeps two branches, the entry's (it assigns the
// loop's phis) and the back edge, and its fmuladd is arithmetic.
func TestLoweringLeavesOutBookkeeping(t *testing.T) {
	p := lowerC(t, `struct body { double pos[3], mass; };
struct body sys[4];
double get(int i, int k) { return sys[i].pos[k]; }
double sum(double *v, int n) {
	double s = 0;
	for (int i = 0; i < n; i++)
		s = s + v[i] * v[i];
	return s;
}
int main(void) { return (int)get(1, 2) + (int)sum(0, 0); }
`)
	get := p.Func("get")
	var ops []ir.Op
	for _, in := range get.Insts {
		ops = append(ops, in.Op)
	}
	if len(ops) != 3 || ops[0] != ir.OpGEP || ops[1] != ir.OpLoad || ops[2] != ir.OpRet {
		t.Fatalf("get lowered to %v, want getelementptr, load, ret", ops)
	}
	gep := get.Insts[0]
	if len(gep.Terms) != 2 || gep.Terms[0].Width != 32 || gep.Terms[1].Width != 32 || gep.Terms[0].Scale != 32 || gep.Terms[1].Scale != 8 {
		t.Errorf("get's GEP terms %+v, want the two int indexes, scaled 32 and 8", gep.Terms)
	}
	if !gep.Pair {
		t.Errorf("get's GEP is not paired with its load")
	}
	counts := map[ir.Op]int{}
	fmuladd := false
	for _, in := range p.Func("sum").Insts {
		counts[in.Op]++
		if in.Op == ir.OpCall {
			t.Errorf("sum calls %s", in.Callee.Name)
		}
		fmuladd = fmuladd || in.Op == ir.OpFBin && in.Sub == ir.FMulAdd
	}
	if counts[ir.OpCast] != 0 || counts[ir.OpBr] != 2 || !fmuladd {
		t.Errorf("sum: %d casts (want 0), %d branches (want 2: into the loop, and back), fmuladd lowered: %v", counts[ir.OpCast], counts[ir.OpBr], fmuladd)
	}
}

// lowerC builds a C program of one source and lowers it.
func lowerC(t *testing.T, code string) *ir.Program {
	t.Helper()
	return lowerFile(t, "p.c", code)
}

// lowerFile builds a program of one source named name (C, or LLVM IR as
// text) and lowers it.
func lowerFile(t *testing.T, name, code string) *ir.Program {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, name)
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	built, err := build.Build(context.Background(), []string{src}, build.Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	p, err := bitcode.Load(built.All())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The compact form (ir.Code) has one entry per instruction, specialized by
// operation and operand kind, with the operands the interpreter's fast
// paths read: an int compare with its width, a branch with no phi moves
// with its target, one- and two-index GEPs with their indexes, widths and
// scales, integer division, double
// arithmetic and its fused multiply-add, calls of library functions of
// doubles, and the step fallback for what has no fast path.
func TestCompactFormSpecializes(t *testing.T) {
	p := lowerC(t, `#include <math.h>
#include <stdio.h>
struct body { double pos[3], mass; };
struct body sys[4];
double get(int i) { return sys[i].mass; }
double pos(int i, long k) { return sys[i].pos[k]; }
double sum(double *v, int n) {
	double s = 0;
	for (int i = 0; i < n; i++)
		s = s + v[i] * v[i];
	return s;
}
unsigned shift(unsigned x, long n) { return (x << n) / 3; }
int rem(int x, int y) { return x % y; }
double dist(double x, double y) { return sqrt(x) + pow(x, y) + sqrtf((float)y); }
int main(void) { printf("%d\n", (int)get(1) + (int)pos(1, 2) + (int)sum(0, 0) + (int)shift(1, 2) + rem(7, 3) + (int)dist(1, 2)); return 0; }
`)
	branches := map[ir.CodeOp]int{}
	for _, fn := range p.Funcs {
		if len(fn.Code()) != len(fn.Insts) {
			t.Fatalf("%s: %d codes for %d instructions", fn.Name, len(fn.Code()), len(fn.Insts))
		}
		for k, c := range fn.Code() {
			if in := fn.Insts[k]; c.Pair != in.Pair || c.Dst != in.Dst*ir.SlotBytes {
				t.Fatalf("%s %d: code %+v for %v", fn.Name, k, c, in.Op)
			}
			if c.Op == ir.CodeBr1 || c.Op == ir.CodeBr2 {
				branches[c.Op]++
				checkBranchMoves(t, fn.Name, k, c, fn.Insts[k].Targets[0])
			}
		}
	}
	if branches[ir.CodeBr1] == 0 || branches[ir.CodeBr2] == 0 {
		t.Errorf("branches with one and two moves: %d and %d, want some of each (the C library has loops that carry values)",
			branches[ir.CodeBr1], branches[ir.CodeBr2])
	}
	ops := func(name string) map[ir.CodeOp]ir.Code {
		m := map[ir.CodeOp]ir.Code{}
		for _, c := range p.Func(name).Code() {
			m[c.Op] = c
		}
		return m
	}
	get := ops("get")
	if g, ok := get[ir.CodeGEP1]; !ok || g.W != 32 || g.C != 32 || g.K != 24 {
		t.Errorf("get's GEP: %+v, want a one-index GEP of an int scaled 32, offset 24", g)
	}
	sum := ops("sum")
	if c, ok := sum[ir.CodeSLT]; !ok || c.W != 32 {
		t.Errorf("sum's loop test: %+v, want a signed compare of 32 bits", c)
	}
	for _, op := range []ir.CodeOp{ir.CodeFMulAddD, ir.CodeAdd, ir.CodeLoad} {
		if _, ok := sum[op]; !ok {
			t.Errorf("sum has no code op %d", op)
		}
	}
	for k, c := range p.Func("sum").Code() {
		in := p.Func("sum").Insts[k]
		if c.Op == ir.CodeJump && (len(in.Targets[0].Moves) != 0 || c.K != uint64(in.Targets[0].PC)) {
			t.Errorf("sum %d: jump %+v for edge %+v", k, c, in.Targets[0])
		}
		if c.Op == ir.CodeIf && (c.K>>32 != uint64(in.Targets[0].PC) || uint32(c.K) != uint32(in.Targets[1].PC)) {
			t.Errorf("sum %d: if %+v for edges %+v", k, c, in.Targets)
		}
	}
	sh := ops("shift")
	if c, ok := sh[ir.CodeShl]; !ok || c.W != 32 || c.K != 0xffffffff {
		t.Errorf("shift's shl: %+v, want a 32-bit shift", c)
	}
	if c, ok := sh[ir.CodeUDiv]; !ok || c.W != 32 {
		t.Errorf("shift's division: %+v, want an unsigned division of 32 bits", c)
	}
	if c, ok := ops("rem")[ir.CodeSRem]; !ok || c.W != 32 || c.K != 0xffffffff {
		t.Errorf("rem's remainder: %+v, want a signed remainder of 32 bits", c)
	}
	if g, ok := ops("pos")[ir.CodeGEP2]; !ok || g.Sub != 32 || g.X != 32 || g.W != 64 || g.K != 8<<32 {
		t.Errorf("pos's GEP: %+v, want two indexes: an int scaled 32 and a long scaled 8, offset 0", g)
	}
	// sqrt and pow are calls of doubles; sqrtf, of a float, steps.
	calls := map[string]ir.Code{}
	for k, c := range p.Func("dist").Code() {
		if in := p.Func("dist").Insts[k]; in.Op == ir.OpCall && in.Callee != nil {
			calls[in.Callee.Name] = c
			if c.Op == ir.CodeCallFD && (c.K != uint64(in.Callee.ID) || c.A != in.Args[0]*ir.SlotBytes || c.B != in.Args[len(in.Args)-1]*ir.SlotBytes) {
				t.Errorf("dist %d: %+v for a call of %s with %v", k, c, in.Callee.Name, in.Args)
			}
		}
	}
	if c := calls["sqrt"]; c.Op != ir.CodeCallFD || c.W != 1 {
		t.Errorf("dist's sqrt: %+v, want a call of one double", c)
	}
	if c := calls["pow"]; c.Op != ir.CodeCallFD || c.W != 2 {
		t.Errorf("dist's pow: %+v, want a call of two doubles", c)
	}
	if c := calls["sqrtf"]; c.Op != ir.CodeStep {
		t.Errorf("dist's sqrtf: %+v, want a step (a float)", c)
	}
	if _, ok := ops("main")[ir.CodeStep]; !ok {
		t.Errorf("main's call of printf does not step")
	}
	if _, ok := ops("main")[ir.CodeCall]; !ok {
		t.Errorf("main's calls of its functions are not direct calls")
	}
}

// checkBranchMoves checks that a CodeBr1 or CodeBr2 makes its edge's moves,
// in their order, and goes where the edge goes.
func checkBranchMoves(t *testing.T, fn string, k int, c ir.Code, e ir.Edge) {
	t.Helper()
	want := []int32{}
	for _, mv := range e.Moves {
		want = append(want, mv.Dst*ir.SlotBytes, int32(mv.Src)*ir.SlotBytes)
	}
	got := []int32{int32(c.A), int32(c.B)}
	if c.Op == ir.CodeBr2 {
		got = append(got, int32(c.C), c.X)
	}
	if e.Parallel || c.K != uint64(e.PC) || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s %d: branch %+v for edge %+v", fn, k, c, e)
	}
}
