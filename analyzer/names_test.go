package analyzer

import (
	"testing"

	"augur/analyzer/frontend/ir"
)

// A place names a synchronization call only when the calls of that one
// function are all that can touch the race's memory there: a macro whose
// expansion also stores through a computed pointer, or calls two such
// functions on it, names none. What names another global cannot be the
// access (ctrace's HASH_READ_ENTER locks _hashmutex, waits on _hashsem
// and counts _hashreads at one place), nor can an unlock, which the
// detector does not see, or a free.
func TestSyncCallPlaces(t *testing.T) {
	ptr := []ir.Scalar{{Kind: ir.KPtr}}
	call := func(name string, decl bool, loc ir.LocID, arg ir.Operand) ir.Inst {
		return ir.Inst{Op: ir.OpCall, Callee: &ir.Function{Name: name, Decl: decl}, Loc: loc,
			Args: []ir.Operand{arg}, ArgTys: ptr}
	}
	const computed, m, s, readers = ir.Operand(0), ir.Operand(1), ir.Operand(2), ir.Operand(3)
	locs := []ir.Loc{{}}
	for line := 1; line <= 6; line++ {
		locs = append(locs, ir.Loc{File: "a.c", Line: line, Col: 2})
	}
	prog := &ir.Program{
		Locs:     locs,
		GlobalOf: []*ir.Global{nil, {Name: "m"}, {Name: "s"}, {Name: "readers"}},
		Funcs: []*ir.Function{{Name: "worker", NumSlots: 1, Consts: []uint64{ir.Addr(1, 0), ir.Addr(2, 0), ir.Addr(3, 0)},
			Insts: []ir.Inst{
				call("pthread_cond_signal", true, 1, computed),
				call("pthread_mutex_lock", true, 2, computed), {Op: ir.OpStore, B: computed, Loc: 2},
				call("pthread_cond_destroy", true, 3, computed), call("pthread_mutex_destroy", true, 3, computed),
				call("pthread_cond_destroy", true, 4, computed), call("free", true, 4, computed),
				call("step", false, 5, computed),
				call("pthread_mutex_lock", true, 6, m), {Op: ir.OpLoad, A: readers, Loc: 6}, call("sem_wait", true, 6, s),
				{Op: ir.OpStore, B: readers, Loc: 6}, call("pthread_mutex_unlock", true, 6, m),
			}}},
	}
	places := placesOf(prog)
	for _, c := range []struct {
		line   ir.LocID
		global string
		want   string
	}{
		{1, "", "pthread_cond_signal"}, {2, "", ""}, {3, "", ""}, {4, "", "pthread_cond_destroy"}, {5, "", ""},
		{6, "s", "sem_wait"}, {6, "m", "pthread_mutex_lock"}, {6, "readers", ""}, {6, "", ""},
	} {
		if got := places.syncCall(prog.Loc(c.line), c.global); got != c.want {
			t.Errorf("line %d, memory %q: %q, want %q", c.line, c.global, got, c.want)
		}
	}
	if !places.macroAt(prog.Loc(1), "DONE_SIGNAL") || places.macroAt(prog.Loc(1), "pthread_cond_signal") ||
		places.macroAt(prog.Loc(5), "step") {
		t.Error("macroAt does not tell a macro from a call the code makes")
	}
}
