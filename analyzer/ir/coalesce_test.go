package ir_test

import (
	"testing"

	"augur/analyzer/ir"
)

// A loop's phis share a slot with the values their back edges bring when
// the old value is dead by then (ir's joinPhis), so those edges move
// nothing; a phi whose old value is still read keeps its move. The
// branches stay where they were: joining changes no instruction count.
// testdata/run/loop_phis.c checks the same loops' results against native
// code.
func TestLoopPhisShareSlots(t *testing.T) {
	p := lowerC(t, `long squares(int n) {
	long s = 0;
	for (int i = 0; i < n; i++)
		s = s + (long)i * i;
	return s;
}
long fib(int n) {
	long a = 0, b = 1;
	for (int i = 0; i < n; i++) {
		long t = a + b;
		a = b;
		b = t;
	}
	return a + b;
}
int exit_reads_old(int x) {
	for (;;) {
		int next = x * 3 + 1;
		if (next > 1000)
			break;
		x = next;
	}
	return x;
}
int main(void) { return (int)squares(3) + (int)fib(4) + exit_reads_old(2); }
`)
	// moves lists the moves of fn's branches that go back (to an earlier
	// instruction), and counts its branches.
	moves := func(name string) (back []ir.Move, branches int) {
		fn := p.Func(name)
		for i, in := range fn.Insts {
			if in.Op != ir.OpBr && in.Op != ir.OpCondBr {
				continue
			}
			branches++
			for _, e := range in.Targets {
				if e.PC <= i {
					back = append(back, e.Moves...)
				}
			}
		}
		return back, branches
	}
	if back, n := moves("squares"); len(back) != 0 || n != 3 {
		t.Errorf("squares: back edge moves %v (want none: i and s are joined), %d branches (want 3)", back, n)
	}
	// i is joined; b is not (a's move on the same edge reads it), and a's
	// value is a phi's.
	if back, _ := moves("fib"); len(back) != 2 {
		t.Errorf("fib: back edge moves %v, want a's and b's", back)
	}
	// x's old value is what the loop returns once next is too large.
	if back, _ := moves("exit_reads_old"); len(back) != 1 {
		t.Errorf("exit_reads_old: back edge moves %v, want x's", back)
	}
}
