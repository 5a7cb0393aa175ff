package bitcode_test

import (
	"strings"
	"testing"

	"augur/analyzer/frontend/ir"
)

// A function that computes on its arguments alone, in one block, is
// inlined at its calls, its instructions keeping their source lines, and
// stays in the program; a function that reads memory, calls, can fault,
// branches, takes variadic arguments or is an SV-COMP atomic one is still
// called.
func TestPureLeavesAreInlined(t *testing.T) {
	p := lowerC(t, `#include <stdio.h>
int g;
static double matrix_entry(int i, int j) {
	return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
}
static unsigned mix(unsigned x) { return (x ^ 0x9e3779b9u) * 31u % 7u; }
static int reads(int i) { return i + g; }
static int divides(int i, int j) { return i / j; }
static int branches(int i) {
	if (i > 3)
		return i * 2;
	return i - 1;
}
static int calls(int i) { return mix(i) + 1; }
static int sum(int n, ...) { return n + 1; }
int __VERIFIER_atomic_inc(int i) { return i + 1; }
int main(int argc, char **argv) {
	double d = matrix_entry(argc, 2) + mix(argc);
	int r = reads(1) + divides(4, 2) + branches(5) + calls(6) + sum(1, 2) + __VERIFIER_atomic_inc(7);
	printf("%f %d\n", d, r);
	return 0;
}
`)
	callees := map[string]bool{}
	for _, in := range p.Func("main").Insts {
		if in.Op == ir.OpCall && in.Callee != nil {
			callees[in.Callee.Name] = true
		}
	}
	for _, name := range []string{"matrix_entry", "mix"} {
		if callees[name] {
			t.Errorf("main still calls %s, a pure leaf", name)
		}
		if p.Func(name) == nil {
			t.Errorf("%s left the program", name)
		}
	}
	for _, name := range []string{"reads", "divides", "branches", "calls", "sum", "__VERIFIER_atomic_inc"} {
		if !callees[name] {
			t.Errorf("main does not call %s, which is not a pure leaf", name)
		}
	}
	// matrix_entry's division is in main now, at its line (4).
	found := false
	for _, in := range p.Func("main").Insts {
		if in.Op == ir.OpFBin && in.Sub == ir.FDiv {
			l := p.Locs[in.Loc]
			found = true
			if !strings.HasSuffix(l.File, "p.c") || l.Line != 4 {
				t.Errorf("matrix_entry's division inlined at %v, want p.c:4", l)
			}
		}
	}
	if !found {
		t.Errorf("main has no double division: matrix_entry's body was not inlined")
	}
}
