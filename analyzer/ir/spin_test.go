package ir_test

import (
	"testing"

	"augur/analyzer/ir"
)

// The loads of a loop that can change nothing it reads are preemption
// points (markSpinLoops); those of a loop that counts, walks or stores are
// not, so compute loops keep their fast loads.
func TestSpinLoopLoadsArePreemptionPoints(t *testing.T) {
	p := lowerC(t, `struct box { int ready; } b, *bp = &b;
int turn, spins, a[8];
void wait_turn(int me) { while (turn != me) ; }
void wait_ready(void) { while (!bp->ready) ; }
void count_spins(void) { while (turn == 0) spins++; }
int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
int find(int key) { int i = 0; while (a[i] != key) i++; return i; }
int counted(void) { int n = 0; while (!bp->ready) n++; return n; }
int bounded(void) { int n = 0; while (!turn && n < 100) n++; return n; }
int stoppable(int k) { int s = 0; for (int i = 0; i < k; i++) { if (turn) break; s += i; } return s; }
long timed(void) { long t = 0; while (turn == 0) t += 3; return t; }
int main(void) { wait_turn(0); wait_ready(); count_spins(); return sum(8) + find(0) + counted() + bounded() + stoppable(4) + (int)timed(); }
`)
	for _, c := range []struct {
		fn   string
		spin bool
	}{
		{"wait_turn", true},    // a global flag
		{"wait_ready", true},   // a flag behind a pointer, both loaded each time
		{"count_spins", false}, // stores a global in its loop
		{"sum", false},         // carries i and s in phis
		{"find", false},        // carries i
		{"counted", true},      // counts, but leaves only on the flag
		{"bounded", false},     // may leave on its count
		{"stoppable", false},   // may leave on i < k
		{"timed", true},        // accumulates what no exit reads
	} {
		var loads, yields int
		for _, in := range p.Func(c.fn).Insts {
			if in.Op == ir.OpLoad {
				loads++
				if in.Yield {
					yields++
				}
			}
		}
		switch {
		case loads == 0:
			t.Errorf("%s: no load lowered", c.fn)
		case c.spin && yields != loads:
			t.Errorf("%s: %d of %d loads are preemption points, want all", c.fn, yields, loads)
		case !c.spin && yields != 0:
			t.Errorf("%s: %d of %d loads are preemption points, want none", c.fn, yields, loads)
		}
	}
	// The compact form runs a spin load through the full step, where the
	// point is made; the others stay inline.
	for i, in := range p.Func("wait_turn").Insts {
		if in.Op == ir.OpLoad && p.Func("wait_turn").Code()[i].Op == ir.CodeLoad {
			t.Errorf("wait_turn's spin load is an inline CodeLoad")
		}
	}
}
