package sched

import "testing"

// A thread preempted at the end of a time slice drops below every other
// under PCT, so a spinning thread cannot starve the one it waits for.
func TestPCTDemotesAtTimeSlice(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		p := NewPCT(seed, 1, 100)
		top, _ := p.Pick(Point{Thread: 0}, []int{0, 1})
		next, _ := p.Pick(Point{Thread: top, What: WhatTimeSlice}, []int{0, 1})
		if next == top {
			t.Fatalf("seed %d: thread %d ran a whole slice and was picked again", seed, top)
		}
		if again, _ := p.Pick(Point{Thread: next, What: WhatTimeSlice}, []int{0, 1}); again != top {
			t.Fatalf("seed %d: after both were demoted, want thread %d back, got %d", seed, top, again)
		}
	}
}
