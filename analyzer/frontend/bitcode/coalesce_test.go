package bitcode_test

import (
	"os"
	"testing"

	"augur/analyzer/frontend/ir"
)

// A loop's phis share a slot with the values their back edges bring when
// the old value is dead by then (ir's joinPhis), so those edges move
// nothing; a phi whose old value is still read keeps its move. The
// branches stay where they were: joining changes no instruction count.
// The loops are testdata/run/loop_phis.c's, whose results TestDifferential
// checks against native code.
func TestLoopPhisShareSlots(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/run/loop_phis.c")
	if err != nil {
		t.Fatal(err)
	}
	p := lowerC(t, string(src))
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
	// j takes i + 1 before the inner loop and j + 1 on its back edge, both
	// in j's slot: the only back edge move left is the outer loop's s.
	if back, _ := moves("triangle"); len(back) != 1 {
		t.Errorf("triangle: back edge moves %v, want only s's", back)
	}
	// y, computed before the branch, keeps its move to the merge; x + 3
	// shares the slot.
	if fwd := forwardMoves(p.Func("carried")); len(fwd) != 1 {
		t.Errorf("carried: moves on forward edges %v, want y's alone", fwd)
	}
}

// forwardMoves lists the moves of fn's branches that go forward, but for
// the function's first instruction's (its entry block's constants).
func forwardMoves(fn *ir.Function) []ir.Move {
	var fwd []ir.Move
	for i, in := range fn.Insts {
		if i == 0 || in.Op != ir.OpBr && in.Op != ir.OpCondBr {
			continue
		}
		for _, e := range in.Targets {
			if e.PC > i {
				fwd = append(fwd, e.Moves...)
			}
		}
	}
	return fwd
}
