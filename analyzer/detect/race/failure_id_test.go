package race

import (
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// TestFailureIDLeavesOutInputFigures checks that one bug reached on two
// inputs is one failure, and that two bugs stay two.
func TestFailureIDLeavesOutInputFigures(t *testing.T) {
	at := ir.Loc{File: "a.c", Line: 16, Col: 6}
	id := func(msg string) string { return FailureID(vm.TermCrash, msg, at) }
	same := [][2]string{
		{"out of bounds global access: read of 1 byte at offset -4 of global 'argument string' (13 bytes)",
			"out of bounds global access: read of 1 byte at offset -3 of global 'argument string' (2 bytes)"},
		{"null pointer: read of 4 bytes at address 0x10", "null pointer: read of 4 bytes at address 0x18"},
	}
	for _, p := range same {
		if id(p[0]) != id(p[1]) {
			t.Errorf("%q and %q are two failures, want one", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"out of bounds global access: read of 1 byte at offset -4 of global 'argument string' (13 bytes)",
			"out of bounds global access: write of 1 byte at offset -4 of global 'argument string' (13 bytes)"},
		{"use after free: read of 8 bytes at offset 0 of a heap object freed earlier",
			"out of bounds heap access: read of 8 bytes at offset 0 of heap object (8 bytes)"},
		{"assertion failed: x == 1", "assertion failed: x == 2"},
	}
	for _, p := range differ {
		if id(p[0]) == id(p[1]) {
			t.Errorf("%q and %q are one failure, want two", p[0], p[1])
		}
	}
	if FailureID(vm.TermCrash, same[0][0], at) == FailureID(vm.TermCrash, same[0][0], ir.Loc{File: "a.c", Line: 17}) {
		t.Error("failures at two lines are one")
	}
}
