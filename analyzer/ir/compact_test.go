package ir_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"augur/analyzer/build"
	"augur/analyzer/ir"
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
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	built, err := build.Build(context.Background(), []string{src}, build.Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Load(built.All())
	if err != nil {
		t.Fatal(err)
	}
	return p
}
