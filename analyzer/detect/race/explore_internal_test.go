package race

import "testing"

// affordable sizes the exploration's batches to the instructions left,
// to the nearest execution, and never shrinks them under a budget that has no end
// (Unbounded, --explore-instructions 0), where adding the rounding to
// what is left would overflow.
func TestAffordable(t *testing.T) {
	for _, c := range []struct {
		budget, spent, first, most uint64
		want                       int
	}{
		{budget: Unbounded, first: 200, want: 8},
		{budget: Unbounded, spent: 5_000, first: 200, most: 300, want: 8},
		{budget: 1_000, first: 300, want: 3},
		{budget: 1_000, first: 400, want: 3},
		{budget: 1_000, spent: 800, first: 300, want: 1},
		{budget: 1_000, spent: 700, first: 300, want: 1},
		{budget: 1_000, spent: 100, first: 100, most: 450, want: 2},
		{budget: 1_000, spent: 1_000, first: 100, want: 1},
		{budget: 100_000, first: 10, want: 8},
	} {
		d := &detection{opts: Options{Explore: &Explore{Instructions: c.budget}}, res: &Result{}, firstRan: c.first, mostRan: c.most}
		d.res.Explore.Instructions = c.spent
		if got := d.affordable(8, d.exploreBudget()); got != c.want {
			t.Errorf("budget %d, spent %d, first %d, most %d: %d of 8 affordable, want %d", c.budget, c.spent, c.first, c.most, got, c.want)
		}
	}
}

// exhausted ends a stage within half an execution of its budget, so
// that a budget of a few runs is not overshot by a whole one (budget 67
// against executions of 24.5: three, not four).
func TestExhaustedWithinHalfAnExecution(t *testing.T) {
	for _, c := range []struct {
		budget, spent, first, most uint64
		want                       bool
	}{
		{budget: 1_000, spent: 850, first: 300, want: false},
		{budget: 1_000, spent: 851, first: 300, want: true},
		{budget: 1_000, spent: 1_000, first: 10, want: true},
		{budget: 1_000, spent: 700, first: 100, most: 700, want: true},
		{budget: Unbounded, spent: 1 << 40, first: 1 << 30, want: false},
		{budget: 67, spent: 49, first: 24, most: 25, want: false},
		{budget: 67, spent: 73, first: 24, most: 25, want: true},
		{budget: 33, spent: 24, first: 24, most: 24, want: true},
	} {
		d := &detection{opts: Options{Explore: &Explore{Instructions: c.budget}}, res: &Result{}, firstRan: c.first, mostRan: c.most}
		d.res.Explore.Instructions = c.spent
		if got := d.exhausted(d.exploreBudget()); got != c.want {
			t.Errorf("budget %d, spent %d, first %d, most %d: exhausted %v, want %v", c.budget, c.spent, c.first, c.most, got, c.want)
		}
	}
}

// TestPCTDepthGrows checks the exploration's depths: 2 and 3 in turn for
// the first DepthEvery schedules, as before depths grew, then each
// DepthEvery adds the next depth to the turn, up to MaxDepth, and every
// depth from 2 up stays in it.
func TestPCTDepthGrows(t *testing.T) {
	seen := func(from, to int) map[int]int {
		m := map[int]int{}
		for n := from; n < to; n++ {
			m[PCTDepth(n)]++
		}
		return m
	}
	if got := seen(0, DepthEvery); len(got) != 2 || got[2] != DepthEvery/2 || got[3] != DepthEvery/2 {
		t.Errorf("first %d schedules: depths %v, want 2 and 3 in turn", DepthEvery, got)
	}
	for level := 1; level < MaxDepth; level++ {
		from := level * DepthEvery
		got := seen(from, from+DepthEvery)
		deepest := min(3+level, MaxDepth)
		for d := 2; d <= deepest; d++ {
			if got[d] == 0 {
				t.Errorf("schedules %d to %d: no depth %d (%v)", from, from+DepthEvery, d, got)
			}
		}
		if got[deepest+1] != 0 {
			t.Errorf("schedules %d to %d: depth %d before its turn (%v)", from, from+DepthEvery, deepest+1, got)
		}
	}
	if d := PCTDepth(1 << 30); d < 2 || d > MaxDepth {
		t.Errorf("depth %d far on, want 2 to %d", d, MaxDepth)
	}
}
