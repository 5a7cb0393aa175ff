package bitcode_test

import (
	"testing"

	"augur/analyzer/frontend/ir"
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
	checkSpinLoads(t, p, []spinCase{
		{"wait_turn", true},    // a global flag
		{"wait_ready", true},   // a flag behind a pointer, both loaded each time
		{"count_spins", false}, // stores a global in its loop
		{"sum", false},         // carries i and s in phis
		{"find", false},        // carries i
		{"counted", true},      // counts, but leaves only on the flag
		{"bounded", false},     // may leave on its count
		{"stoppable", false},   // may leave on i < k
		{"timed", true},        // accumulates what no exit reads
	})
	// The compact form runs a spin load through the full step, where the
	// point is made; the others stay inline.
	for i, in := range p.Func("wait_turn").Insts {
		if in.Op == ir.OpLoad && p.Func("wait_turn").Code()[i].Op == ir.CodeLoad {
			t.Errorf("wait_turn's spin load is an inline CodeLoad")
		}
	}
}

// checkSpinLoads checks that each function's loads are all preemption
// points (spin) or none are.
func checkSpinLoads(t *testing.T, p *ir.Program, cases []spinCase) {
	t.Helper()
	for _, c := range cases {
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
}

// spinCase is a function and whether its loads are a spin loop's.
type spinCase struct {
	fn   string
	spin bool
}

// A spin loop that reads its flag through a function of its own is one
// too, and the reader's loads are points, when every call of the reader is
// in such a loop; a getter that other code calls keeps its loads plain, and
// so does the loop that waits through it.
func TestSpinLoopsThroughReaders(t *testing.T) {
	p := lowerC(t, `struct q { int ready; } q0;
int turn, a[8];
static int ready(struct q *q) { return q->ready != 0; }
static int turn_is(int me) { if (me < 0) return 0; return turn == me; }
static int get(int i) { return a[i]; }
void wait_ready(void) { while (!ready(&q0)) ; }
void wait_turn(int me) { long n = 0; while (!turn_is(me)) n++; }
void wait_get(void) { while (!get(0)) ; }
int sum(void) { int s = 0; for (int i = 0; i < 8; i++) s += get(i); return s; }
int main(void) { wait_ready(); wait_turn(1); wait_get(); return sum(); }
`)
	checkSpinLoads(t, p, []spinCase{
		{"ready", true},   // called only from a spin loop
		{"turn_is", true}, // a branch forward, and the loop counts
		{"get", false},    // sum calls it too, so wait_get waits out its slice
	})
}
