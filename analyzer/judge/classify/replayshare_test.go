package classify

import (
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// A share keeps states only while a classification of their program runs:
// none before, all dropped when the last one leaves, also when another
// program's classification ran beside it; a state is offered only to a
// point of the same execution that it stands before, and as itself to its
// own point.
func TestStateShareKeepsWhileItsProgramRuns(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/classify/moved_pair.c")
	m, err := vm.New(prog, vm.Config{Args: []string{"moved_pair"}, MaxInstructions: 1_000_000, Models: libc.Models()})
	if err != nil {
		t.Fatal(err)
	}
	at := vm.StopPoint{Thread: 0, Count: 100}
	m.StopBefore(&at)
	if res := m.Run(); res.Term.Kind != vm.TermPaused {
		t.Fatalf("the run ended (%s) before the point", res.Term.Kind)
	}
	key := [32]byte{1}
	s := &stateShare{keep: 4, perKey: 2}
	s.put("p", key, at, m, 0)
	if len(s.kept) != 0 {
		t.Fatal("a state kept while no classification of its program ran")
	}

	s.enter("p")
	s.put("p", key, at, m, 0)
	if f, exact := s.from("p", key, at, nil); f == nil || !exact {
		t.Errorf("its own point: state %v, exact %v", f != nil, exact)
	}
	if f, exact := s.from("p", key, vm.StopPoint{Thread: 0, Count: 200}, nil); f == nil || exact {
		t.Errorf("a later point: state %v, exact %v; want a state to go on from", f != nil, exact)
	}
	if f, _ := s.from("p", key, vm.StopPoint{Thread: 0, Count: 50}, nil); f != nil {
		t.Error("a state past the point was offered")
	}
	if f, _ := s.from("p", [32]byte{2}, vm.StopPoint{Thread: 0, Count: 200}, nil); f != nil {
		t.Error("another execution's state was offered")
	}

	s.enter("q") // another program's classification, beside
	s.leave("q")
	s.enter("p")
	s.put("p", key, at, m, 0)
	s.leave("p")
	if len(s.kept) != 1 {
		t.Errorf("%d states kept while a classification of the program still runs, want 1", len(s.kept))
	}
	s.leave("p")
	if len(s.kept) != 0 || len(s.active) != 0 {
		t.Errorf("%d states and %d programs left once the last classification left", len(s.kept), len(s.active))
	}

	// Two programs' classifications overlapping: the later one's states
	// go once it leaves, whichever left first.
	s.enter("p")
	s.enter("q")
	s.put("q", key, at, m, 0)
	s.leave("p")
	s.leave("q")
	if len(s.kept) != 0 || len(s.active) != 0 {
		t.Errorf("%d states and %d programs left once both classifications left", len(s.kept), len(s.active))
	}
}
