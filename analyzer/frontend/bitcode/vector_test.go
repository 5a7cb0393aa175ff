package bitcode_test

import (
	"strings"
	"testing"

	"augur/analyzer/frontend/ir"
)

// A float complex crosses calls as a <2 x float> vector, held as its two
// floats; an operation on a vector's elements (vector_size arithmetic,
// compares, shuffles, conversions, an element by a variable index, a
// bitcast to elements of another width, the vector form of an
// element-wise intrinsic) lowers to scalar instructions, one an element,
// with no failure. What cannot be laid out or computed so (a store of
// packed i1 elements, a reduction) is a failure at that instruction that
// says so, not a program that fails to load.
func TestVectorOperationsLowerElementByElement(t *testing.T) {
	p := lowerC(t, `
#include <complex.h>
float complex twice(float complex z) { return z + z; }
float complex pass(float complex z) { return twice(z); }
typedef float v4 __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));
typedef unsigned char v16 __attribute__((vector_size(16)));
v4 add(v4 a, v4 b) { return a * b + a; }
v4i cmp(v4 a, v4 b) { return a < b; }
v4 shuf(v4 a, v4 b) { return __builtin_shufflevector(a, b, 7, 0, 5, 2); }
v4i conv(v4 a) { return __builtin_convertvector(a, v4i); }
float pick(v4 a, int i) { return a[i]; }
v16 bytes(v4i a) { return (v16)a; }
#include <immintrin.h>
v4 root(v4 a) { return _mm_sqrt_ps(a); }
int main(void) { return 0; }
`)
	for _, fn := range []string{"twice", "pass", "add", "cmp", "shuf", "conv", "pick", "bytes", "root"} {
		for _, in := range p.Func(fn).Insts {
			if in.Op == ir.OpFail {
				t.Errorf("%s: %s", fn, p.Messages[in.Imm])
			}
		}
	}
	fails := func(p *ir.Program, fn, want string) {
		t.Helper()
		for _, in := range p.Func(fn).Insts {
			if in.Op == ir.OpFail {
				if msg := p.Messages[in.Imm]; !strings.Contains(msg, want) {
					t.Errorf("%s fails with %q, want %q", fn, msg, want)
				}
				return
			}
		}
		t.Errorf("%s lowered without a failure", fn)
	}
	// clang 14 has no builtin for a reduction or a stored mask: IR has both.
	ll := lowerFile(t, "p.ll", `
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
define i32 @reduce(<4 x i32> %a) {
  %r = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %a)
  ret i32 %r
}
define void @keep(<4 x i1>* %p, <4 x i32> %a, <4 x i32> %b) {
  %m = icmp slt <4 x i32> %a, %b
  store <4 x i1> %m, <4 x i1>* %p
  ret void
}
define i32 @main() {
  ret i32 0
}
`)
	fails(ll, "reduce", "the vector form of llvm.vector.reduce.add")
	fails(ll, "keep", "bits packed in memory")
}
