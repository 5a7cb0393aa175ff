package sched

import (
	"slices"
	"testing"
)

// A bounded schedule follows its prefix, then lets the thread at a point
// go on (no preemption), hands over to the next thread where one gives
// way, and records each decision with whether another choice preempts.
func TestBoundedFollowsPrefixThenDoesNotPreempt(t *testing.T) {
	b := &Bounded{Prefix: []int{2}}
	picks := []struct {
		p        Point
		runnable []int
		want     int
	}{
		{Point{Thread: 0, What: "pthread_mutex_lock"}, []int{0, 1, 2}, 2}, // the prefix
		{Point{Thread: 2, What: "pthread_mutex_lock"}, []int{0, 1, 2}, 2}, // goes on
		{Point{Thread: 2, What: "sched_yield"}, []int{0, 1, 2}, 0},        // gives way: the next, round again
		{Point{Thread: -1, What: "thread exit"}, []int{0, 1}, 0},          // the lowest
	}
	for i, c := range picks {
		got, err := b.Pick(&c.p, c.runnable)
		if err != nil || got != c.want {
			t.Fatalf("pick %d: %d, %v; want %d", i, got, err, c.want)
		}
	}
	if d := b.Decisions; len(d) != 4 || !d[1].Preempts(0) || d[3].Preempts(1) || !d[2].GaveWay || d[1].GaveWay {
		t.Fatalf("decisions %+v", d)
	}
	if !slices.Equal(b.Decisions[0].Runnable, []int{0, 1, 2}) {
		t.Fatalf("runnable not recorded: %+v", b.Decisions[0])
	}
	if _, err := (&Bounded{Prefix: []int{5}}).Pick(&Point{Thread: 0}, []int{0, 1}); err == nil {
		t.Fatal("a prefix choice that cannot run was accepted")
	}
}
