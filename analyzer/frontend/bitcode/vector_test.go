package bitcode_test

import (
	"strings"
	"testing"

	"augur/analyzer/frontend/ir"
)

// A float complex crosses calls as a <2 x float> vector: a program that
// passes and returns one loads and lowers with no failure, the vector held
// as its two floats; an operation on a vector's elements (SIMD through
// vector_size) is a failure at that instruction that says so, not a
// program that fails to load.
func TestVectorsAreHeldWholeAndOperationsFail(t *testing.T) {
	p := lowerC(t, `
#include <complex.h>
float complex twice(float complex z) { return z + z; }
float complex pass(float complex z) { return twice(z); }
typedef float v4 __attribute__((vector_size(16)));
v4 add(v4 a, v4 b) { return a + b; }
int main(void) { return 0; }
`)
	for _, fn := range []string{"twice", "pass"} {
		for _, in := range p.Func(fn).Insts {
			if in.Op == ir.OpFail {
				t.Errorf("%s: %s", fn, p.Messages[in.Imm])
			}
		}
	}
	failed := false
	for _, in := range p.Func("add").Insts {
		if in.Op == ir.OpFail {
			failed = true
			if msg := p.Messages[in.Imm]; !strings.Contains(msg, "operations on vectors (SIMD) are not supported") {
				t.Errorf("add fails with %q", msg)
			}
		}
	}
	if !failed {
		t.Error("add's vector addition lowered without a failure")
	}
}
