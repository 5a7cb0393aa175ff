package sched

import "testing"

// A thread preempted at the end of a time slice drops below every other
// under PCT, so a spinning thread cannot starve the one it waits for.
func TestPCTDemotesAtTimeSlice(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		p := NewPCT(seed, 1, 100)
		top, _ := p.Pick(&Point{Thread: 0}, []int{0, 1})
		next, _ := p.Pick(&Point{Thread: top, What: WhatTimeSlice}, []int{0, 1})
		if next == top {
			t.Fatalf("seed %d: thread %d ran a whole slice and was picked again", seed, top)
		}
		if again, _ := p.Pick(&Point{Thread: next, What: WhatTimeSlice}, []int{0, 1}); again != top {
			t.Fatalf("seed %d: after both were demoted, want thread %d back, got %d", seed, top, again)
		}
	}
}

// Race-directed scheduling holds a thread at one statement of the pair
// until another thread reaches the other, then runs the waiter and the
// arrival back to back; a waiter whose partner cannot come is let go.
func TestDirectedBringsThePairTogether(t *testing.T) {
	d := NewDirected("a.c:10:3", "a.c:20:5")
	both := []int{1, 2}
	// Thread 1 reaches the first statement: it waits, thread 2 runs.
	if got, _ := d.Pick(&Point{Thread: 1, Loc: "a.c:10:3"}, both); got != 2 {
		t.Fatalf("thread 1 at its statement was not held: picked %d", got)
	}
	// Thread 2 elsewhere: still not thread 1.
	if got, _ := d.Pick(&Point{Thread: 2, Loc: "a.c:15:1"}, both); got != 2 {
		t.Fatalf("picked %d while thread 1 waits for its partner", got)
	}
	// Thread 2 reaches the second: thread 1 accesses first, 2 right after.
	if got, _ := d.Pick(&Point{Thread: 2, Loc: "a.c:20:5"}, both); got != 1 {
		t.Fatalf("at the brink picked %d, want the waiter 1", got)
	}
	if got, _ := d.Pick(&Point{Thread: 1, Loc: "a.c:11:1"}, both); got != 2 || d.Met != 1 {
		t.Fatalf("after the waiter picked %d (met %d), want 2 at once", got, d.Met)
	}
	// A waiter alone is let go rather than deadlock the run.
	lone := NewDirected("a.c:10:3", "a.c:20:5")
	if got, _ := lone.Pick(&Point{Thread: 1, Loc: "a.c:10:3"}, []int{1}); got != 1 {
		t.Fatalf("a lone waiter was not let go: picked %d", got)
	}
	// Patience: a waiter is let go after Patience decisions.
	p := &Directed{Targets: [2]string{"a.c:10:3", "a.c:20:5"}, Patience: 3}
	p.Pick(&Point{Thread: 1, Loc: "a.c:10:3"}, both)
	var got int
	for i := 0; i < 5; i++ {
		got, _ = p.Pick(&Point{Thread: 2, Loc: "a.c:15:1"}, both)
	}
	if got != 1 {
		t.Fatalf("the waiter was held past its patience")
	}
	// With every runnable thread waiting, a sleeper is woken early (its
	// partner may be asleep), but one that sleeps again without reaching
	// either statement polls: it is not woken early again.
	s := NewDirected("a.c:10:3", "a.c:20:5")
	if got, _ := s.Pick(&Point{Thread: 1, Loc: "a.c:10:3", Waking: []int{2}}, []int{1}); got != 2 {
		t.Fatalf("thread 1 waits alone: picked %d, want the sleeper 2 woken early", got)
	}
	if got, _ := s.Pick(&Point{Thread: -1, Loc: "a.c:30:1", Waking: []int{2}}, []int{1}); got != 1 {
		t.Fatalf("the sleeper slept again: picked %d, want the waiter 1 let go", got)
	}
	if got, _ := s.Pick(&Point{Thread: 1, Loc: "a.c:10:3", Waking: []int{2}}, []int{1}); got != 1 {
		t.Fatalf("thread 1 waits again: picked %d, want it let go rather than the poller woken", got)
	}
}

// TestHoldEndsATimedWait checks that Hold, with only the held thread
// runnable, ends another thread's sleep or timed wait (the first of
// Waking) before it refuses, and refuses when none is left.
func TestHoldEndsATimedWait(t *testing.T) {
	h := &Hold{Thread: 1, Fallback: RoundRobin{}}
	if got, err := h.Pick(&Point{Thread: 1, Waking: []int{1, 0, 2}}, []int{1}); err != nil || got != 0 {
		t.Errorf("held thread alone, thread 0 in a timed wait: picked %d, %v; want 0", got, err)
	}
	if got, err := h.Pick(&Point{Thread: 1, Waking: []int{2}}, []int{1}); err != nil || got != 2 {
		t.Errorf("held thread alone, thread 2 asleep: picked %d, %v; want 2", got, err)
	}
	if _, err := h.Pick(&Point{Thread: 1, Waking: []int{1}}, []int{1}); err != ErrHeld {
		t.Errorf("only the held thread waits for a timeout: err %v, want ErrHeld", err)
	}
	if !(Point{Waking: []int{3}}).CanRun(3, []int{0}) {
		t.Error("CanRun: a thread in Waking may be picked")
	}
}

// Quantum passes lock acquisitions only, QuantumLocks-1 in a row, and a
// replay passes them only for a trace Quantum recorded.
func TestQuantumPasses(t *testing.T) {
	q := Quantum{}
	if !q.Passes("pthread_mutex_lock", 0) || !q.Passes("pthread_rwlock_wrlock", QuantumLocks-2) {
		t.Error("a lock taken within the quantum is a decision")
	}
	if q.Passes("pthread_mutex_lock", QuantumLocks-1) {
		t.Error("the quantum's last lock passed")
	}
	for _, what := range []string{"pthread_mutex_unlock", "pthread_rwlock_unlock", "pthread_mutex_trylock", "pthread_cond_signal",
		"sched_yield", "atomic or volatile access", WhatTimeSlice, "thread exit"} {
		if q.Passes(what, 0) {
			t.Errorf("%s passed", what)
		}
	}
	if (&Replay{Trace: NewTrace("round-robin", 0)}).Passes("pthread_mutex_lock", 0) {
		t.Error("a replay of a round-robin trace passed a lock")
	}
	if !(&Replay{Trace: NewTrace(QuantumName, 0)}).Passes("pthread_mutex_lock", 0) {
		t.Error("a replay of a quantum trace made a decision at a lock")
	}
}

// A gathering PCT schedule holds every thread that reaches its place below
// every thread that has not, whatever their priorities: of five peers the
// four that reach the place first all wait there while the fifth, which has
// not, runs; once no other thread can run, the first to arrive goes on.
func TestPCTGathersPeersAtAPlace(t *testing.T) {
	const at = "p.c:16:2"
	for seed := uint64(1); seed <= 20; seed++ {
		p := NewPCT(seed, 1, 1000).GatherAt(at)
		peers := []int{1, 2, 3, 4, 5}
		waiting := map[int]bool{}
		var order []int
		for len(waiting) < 4 {
			// Whichever peer runs goes straight to the place.
			next, _ := p.Pick(&Point{Thread: 0, Loc: "p.c:40:3", What: "pthread_join"}, peers)
			if waiting[next] {
				t.Fatalf("seed %d: thread %d, waiting at the place, ran while %v had not reached it", seed, next, peers)
			}
			waiting[next] = true
			order = append(order, next)
			if len(waiting) == 4 {
				break
			}
			if got, _ := p.Pick(&Point{Thread: next, Loc: at, What: "pthread_mutex_lock"}, peers); waiting[got] {
				t.Fatalf("seed %d: thread %d was picked again at the place", seed, got)
			}
		}
		last := order[3]
		rest := -1
		for _, q := range peers {
			if !waiting[q] {
				rest = q
			}
		}
		if got, _ := p.Pick(&Point{Thread: last, Loc: at, What: "pthread_mutex_lock"}, peers); got != rest {
			t.Fatalf("seed %d: with %v waiting at the place, want the fifth peer %d, got %d", seed, order, rest, got)
		}
		// The fifth blocks elsewhere: of those waiting, the first to arrive goes on.
		waitingOnly := []int{1, 2, 3, 4, 5}
		waitingOnly = append(waitingOnly[:rest-1], waitingOnly[rest:]...)
		if got, _ := p.Pick(&Point{Thread: -1, Loc: "p.c:30:2", What: "pthread_mutex_lock"}, waitingOnly); got != order[0] {
			t.Fatalf("seed %d: want the first to arrive (%d) to go on, got %d", seed, order[0], got)
		}
	}
}

// The places where threads gather are the point locations at least the
// given number of threads reached, in the order first reached; time
// slices do not count, nor do points of threads that exited or blocked.
func TestTraceGathering(t *testing.T) {
	tr := FromEvents("pct", 1, []Event{
		{Thread: 0, Loc: "m.c:5:1", What: "pthread_create", Next: 0},
		{Thread: 1, Loc: "m.c:9:2", What: "pthread_mutex_lock", Next: 2},
		{Thread: 2, Loc: "m.c:9:2", What: "pthread_mutex_lock", Next: 3},
		{Thread: 3, Loc: "m.c:7:1", What: WhatTimeSlice, Next: 1},
		{Thread: 1, Loc: "m.c:7:1", What: WhatTimeSlice, Next: 2},
		{Thread: 2, Loc: "m.c:7:1", What: WhatTimeSlice, Next: 3},
		{Thread: 3, Loc: "m.c:9:2", What: "pthread_mutex_lock", Next: 1},
		{Thread: -1, Loc: "m.c:12:1", What: "thread exit", Next: 2},
		{Thread: 1, Loc: "m.c:11:2", What: "pthread_mutex_unlock", Next: 2},
		{Thread: 2, Loc: "m.c:11:2", What: "pthread_mutex_unlock", Next: 1},
	})
	if got := tr.Gathering(3); len(got) != 1 || got[0] != "m.c:9:2" {
		t.Errorf("Gathering(3) = %q, want [m.c:9:2]", got)
	}
	if got := tr.Gathering(2); len(got) != 2 || got[0] != "m.c:9:2" || got[1] != "m.c:11:2" {
		t.Errorf("Gathering(2) = %q, want [m.c:9:2 m.c:11:2]", got)
	}
}

// A forked PCT makes the same choices as the original from the fork on,
// and neither's priorities change the other's: the snapshots the
// exploration resumes from fork the policy with the machine. Threads are
// numbered past the priorities' first growth to check it too.
func TestPCTForkChoosesTheSameApart(t *testing.T) {
	p := NewPCT(7, 3, 200)
	runnable := []int{0, 1, 2}
	for i := 0; i < 10; i++ {
		p.Pick(&Point{Thread: i % 3}, runnable)
	}
	c := p.Fork().(*PCT)
	many := []int{0, 1, 2, 5, 40, 99}
	for i := 0; i < 150; i++ {
		pt := Point{Thread: many[i%len(many)]}
		if i%7 == 0 {
			pt.What = WhatTimeSlice
		}
		a, _ := p.Pick(&pt, many)
		b, _ := c.Pick(&pt, many)
		if a != b {
			t.Fatalf("pick %d: original %d, fork %d", i, a, b)
		}
	}
	d := p.Fork().(*PCT) // the priorities of the same six threads, forked
	for _, th := range many {
		d.prio.set(th, 1<<30)
		if p.prio.of(th) == 1<<30 {
			t.Fatalf("setting thread %d's priority in a fork changed the original's", th)
		}
	}
	if !p.prio.given(40) || p.prio.given(41) {
		t.Errorf("given(40) %v, given(41) %v: want true, false", p.prio.given(40), p.prio.given(41))
	}
}
