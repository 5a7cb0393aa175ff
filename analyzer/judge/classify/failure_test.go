package classify

import (
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// TestSameFailureTellsCausesApart checks when both orders of a pair fail
// "the same way", which makes the pair agree (the failure is the
// program's, not the race's). Seen in pbzip2's teardown: at one load the
// order that read the queue pointer first hit a use after free (main's
// free came between) and the order that let main clear the pointer first
// a null pointer dereference. Those are two failures, and the second is
// the race's; taking them for one called the known crash harmless.
func TestSameFailureTellsCausesApart(t *testing.T) {
	at := ir.Loc{File: "q.c", Line: 886, Col: 28}
	freed := &ir.Loc{File: "q.c", Line: 1050}
	end := func(kind vm.TermKind, msg string, loc ir.Loc, f *ir.Loc) outcome {
		return outcome{res: &vm.Result{Term: &vm.Termination{Kind: kind, Message: msg, Loc: loc, Freed: f}}}
	}
	uaf := end(vm.TermCrash, "use after free: read of 8 bytes at offset 48 of heap object (72 bytes)", at, freed)
	null := end(vm.TermCrash, "null pointer dereference: read of 8 bytes at address 0x30", at, nil)
	null2 := end(vm.TermCrash, "null pointer dereference: read of 8 bytes at address 0x2c", at, nil)
	hang := func(insts int) outcome {
		return end(vm.TermHang, "the program loops forever (seen after "+string(rune('0'+insts))+" instructions): thread 1", ir.Loc{File: "q.c", Line: 9, Col: insts}, nil)
	}
	exit := end(vm.TermExit, "", ir.Loc{}, nil)
	for _, c := range []struct {
		name string
		a, b outcome
		same bool
	}{
		{"a use after free and a null dereference at one load", uaf, null, false},
		{"two null dereferences at one load, other addresses", null, null2, true},
		{"the same use after free", uaf, uaf, true},
		{"a hang seen at two instructions of its line", hang(3), hang(5), true},
		{"an exit is no failure", exit, exit, false},
	} {
		if got := sameFailure(c.a, c.b); got != c.same {
			t.Errorf("%s: sameFailure = %v, want %v", c.name, got, c.same)
		}
	}
}
