package classify

import (
	"sync"
	"testing"
)

// A run cut short is not kept, and whoever waited for it makes its own,
// unless what cut it was the instruction budget, which cuts the same
// execution at the same point for everyone; a run made is given to the
// next caller without being made again; another program's run forgets the
// first's; no more than keep finished runs stay.
func TestRunShareKeepsWhatProves(t *testing.T) {
	s := &runShare{keep: 2, maxBytes: 1 << 20}
	key := func(b byte) [32]byte { return [32]byte{b} }
	runs := 0
	made := func(cut bool) func() *sharedRun {
		return func() *sharedRun { runs++; return &sharedRun{cut: cut} }
	}

	if r := s.run("p", key(1), made(true)); !r.cut {
		t.Fatal("a cut run came back whole")
	}
	s.run("p", key(1), made(false))
	if runs != 2 {
		t.Errorf("%d runs after a cut one and the same asked again, want 2 (the cut one kept?)", runs)
	}
	s.run("p", key(1), made(false))
	if runs != 2 {
		t.Errorf("%d runs, want the finished run given again", runs)
	}

	outran := func() *sharedRun { runs++; return &sharedRun{cut: true, outran: true} }
	if r := s.run("p", key(4), outran); !r.cut || !r.outran {
		t.Fatalf("a run out of instructions came back as %+v", r)
	}
	if r := s.run("p", key(4), outran); runs != 3 || !r.outran {
		t.Errorf("%d runs after one out of instructions asked again, want 3 (it proves the same for every caller)", runs)
	}
	if r := s.runs[key(4)]; r != nil {
		s.forget(key(4), r)
	}

	s.run("p", key(2), made(false))
	s.run("p", key(3), made(false))
	if len(s.runs) != 2 || s.runs[key(1)] != nil {
		t.Errorf("%d runs kept with keep 2, oldest kept: %v", len(s.runs), s.runs[key(1)] != nil)
	}
	s.run("q", key(2), made(false))
	if len(s.runs) != 1 {
		t.Errorf("%d runs kept after another program's, want its one", len(s.runs))
	}
}

// Callers that ask for a run another is making wait for it and make none.
func TestRunShareWaitsForTheRunBeingMade(t *testing.T) {
	s := &runShare{keep: 4, maxBytes: 1 << 20}
	started, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	runs := 0
	do := func() *sharedRun {
		mu.Lock()
		runs++
		mu.Unlock()
		close(started)
		<-release
		return &sharedRun{}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.run("p", [32]byte{1}, do) }()
	<-started
	got := make(chan *sharedRun)
	go func() {
		got <- s.run("p", [32]byte{1}, func() *sharedRun { t.Error("made again while being made"); return &sharedRun{} })
	}()
	close(release)
	if r := <-got; r == nil || r.cut {
		t.Errorf("waiter got %v", r)
	}
	wg.Wait()
	if runs != 1 {
		t.Errorf("%d runs, want 1", runs)
	}
}
