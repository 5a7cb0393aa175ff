package race

import (
	"slices"
	"testing"

	"augur/analyzer/exec/sched"
)

// Two threads, each running one step after main forked them; what the
// reduction asks for depends only on what the steps touched.
func TestConflictsReverseOnlyConflictingSteps(t *testing.T) {
	w := func(obj uint64) uint64 { return obj<<1 | 1 }
	r := func(obj uint64) uint64 { return obj << 1 }
	decisions := []sched.Decision{
		{Current: 0, Runnable: []int{0, 1, 2}, Chose: 0}, // main forks, then joins
		{Current: 0, Runnable: []int{1, 2}, Chose: 1},
		{Current: -1, Runnable: []int{2}, Chose: 2},
	}
	cases := []struct {
		name   string
		t1, t2 []uint64
		want   []backtrack
	}{
		{"disjoint writes", []uint64{w(10)}, []uint64{w(11)}, nil},
		{"both read", []uint64{r(10)}, []uint64{r(10)}, nil},
		{"write then read", []uint64{w(10)}, []uint64{r(10)}, []backtrack{{at: 1, thread: 2}}},
		{"read then write", []uint64{r(10)}, []uint64{w(10)}, []backtrack{{at: 1, thread: 2}}},
	}
	for _, c := range cases {
		steps := []step{{forks: []int{1, 2}}, {keys: c.t1}, {keys: c.t2}}
		if got := conflicts(decisions, steps); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A step that touched too much to record conflicts with everything.
	steps := []step{{forks: []int{1, 2}}, {keys: []uint64{w(10)}}, {all: true}}
	if got := conflicts(decisions, steps); len(got) != 1 || got[0] != (backtrack{at: 1, thread: 2}) {
		t.Errorf("a step that touched everything: %v", got)
	}
	// Ordered by a join (thread 2 joined thread 1 in an earlier step),
	// the same conflict is no race of steps.
	decisions = append(decisions[:2:2], sched.Decision{Current: 1, Runnable: []int{1, 2}, Chose: 2},
		sched.Decision{Current: 2, Runnable: []int{2}, Chose: 2})
	steps = []step{{forks: []int{1, 2}}, {keys: []uint64{w(10)}}, {joins: []int{1}}, {keys: []uint64{r(10)}}}
	if got := conflicts(decisions, steps); len(got) != 0 {
		t.Errorf("ordered by a join: %v", got)
	}
}
