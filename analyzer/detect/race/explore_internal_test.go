package race

import "testing"

// affordable sizes the exploration's batches to the instructions left,
// rounded up, and never shrinks them under a budget that has no end
// (Unbounded, --explore-instructions 0), where adding the rounding to
// what is left would overflow.
func TestAffordable(t *testing.T) {
	for _, c := range []struct {
		budget, spent, first, most uint64
		want                       int
	}{
		{budget: Unbounded, first: 200, want: 8},
		{budget: Unbounded, spent: 5_000, first: 200, most: 300, want: 8},
		{budget: 1_000, first: 300, want: 4},
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
