package bitcode_test

import (
	"strings"
	"testing"

	"augur/analyzer/frontend/ir"
)

// Each inline-assembly idiom becomes the IR operation it means, and any
// other assembly a failure at its call that quotes it. (Their behaviour is
// checked against native code by testdata/run/asm_idioms.c.)
func TestInlineAssemblyIdioms(t *testing.T) {
	p := lowerC(t, `
int xadd(volatile int *p, int v) { __asm__ __volatile__("lock; xaddl %0, %1" : "+r"(v), "+m"(*p) :: "memory"); return v; }
void inc(volatile long *p) { __asm__ __volatile__("lock incq %0" : "+m"(*p) :: "memory"); }
void orb(volatile char *p) { __asm__ __volatile__("lock; orb %1,%0" : "+m"(*p) : "iq"((char)4)); }
int cas(volatile int *p, int o, int n) { int r; __asm__ __volatile__("lock; cmpxchgl %2,%1" : "=a"(r), "+m"(*p) : "r"(n), "0"(o) : "memory"); return r; }
int casl(volatile long *p, int o, int n) { int r; __asm__("lock cmpxchg %1,%2" : "=a"(r) : "r"(n), "m"(*p), "0a"(o)); return r; }
int casz(volatile long *p, long o, long n) { _Bool ok; __asm__("lock cmpxchg %3, %1" : "=@ccz"(ok), "+m"(*p), "+a"(o) : "r"(n)); return ok; }
int put(volatile int *r) { unsigned char last; __asm__("lock; decl %0; sete %1" : "+m"(*r), "=qm"(last)); return last; }
int xchgz(volatile int *p, int v) { _Bool z; __asm__("xchgl %0, %1" : "+r"(v), "+m"(*p), "=@ccz"(z)); return z; }
int xchg(volatile int *p, int v) { __asm__ __volatile__("xchgl %0,%1" : "=r"(v), "+m"(*p) : "0"(v) : "memory"); return v; }
void fences(void) { __asm__ __volatile__("mfence" ::: "memory"); __asm__ __volatile__("" ::: "memory"); __asm__ __volatile__("pause"); __asm__ __volatile__("lock; addl $0,0(%%rsp)" ::: "memory"); }
unsigned long long tsc(void) { unsigned lo, hi; __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi)); return (unsigned long long)hi << 32 | lo; }
unsigned swap(unsigned x) { __asm__("bswap %0" : "+r"(x)); return x; }
void two(void) { __asm__ __volatile__("mfence\n\tlfence" ::: "memory"); }
int main(void) { return 0; }
`)
	find := func(fn string, op ir.Op) []ir.Inst {
		var out []ir.Inst
		for _, in := range p.Func(fn).Insts {
			if in.Op == op {
				out = append(out, in)
			}
			if in.Op == ir.OpFail && fn != "swap" && fn != "two" && fn != "xchgz" {
				t.Errorf("%s: %s", fn, p.Messages[in.Imm])
			}
		}
		return out
	}
	for _, c := range []struct {
		fn   string
		sub  uint8
		bits uint16
	}{{"xadd", ir.RMWAdd, 32}, {"inc", ir.RMWAdd, 64}, {"orb", ir.RMWOr, 8}, {"xchg", ir.RMWXchg, 32}} {
		rmw := find(c.fn, ir.OpAtomicRMW)
		if len(rmw) != 1 || rmw[0].Sub != c.sub || rmw[0].Ty.Bits != c.bits || rmw[0].Ordering != ir.SeqCst {
			t.Errorf("%s lowered to %+v, want one seq_cst atomicrmw %d of %d bits", c.fn, rmw, c.sub, c.bits)
		}
	}
	if x := find("cas", ir.OpCmpXchg); len(x) != 1 || x[0].Ty.Bits != 32 {
		t.Errorf("cas lowered to %+v, want one cmpxchg", x)
	}
	// No suffix, the memory an input ("m"), the accumulator tied with its
	// register named ("0a"): the registers' 32 bits are the operation's,
	// though the memory is a long.
	if x := find("casl", ir.OpCmpXchg); len(x) != 1 || x[0].Ty.Bits != 32 {
		t.Errorf("casl lowered to %+v, want one cmpxchg of 32 bits", x)
	}
	// The zero flag: a compare-and-swap's success, a decrement's zero
	// result (stored to memory, as clang -O0 makes "=qm"). xchg leaves the
	// flags alone, so a flag output after it is not understood.
	if x, c := find("casz", ir.OpCmpXchg), find("casz", ir.OpMove); len(x) != 1 || len(c) < 2 {
		t.Errorf("casz lowered to %v, want a cmpxchg and its success moved to the flag output", p.Func("casz").Insts)
	}
	if rmw, cmp := find("put", ir.OpAtomicRMW), find("put", ir.OpICmp); len(rmw) != 1 || rmw[0].Sub != ir.RMWSub || len(cmp) != 1 || cmp[0].Sub != ir.ICmpEQ {
		t.Errorf("put lowered to %v, want an atomic decrement and a comparison of its result with 0", p.Func("put").Insts)
	}
	if f := find("xchgz", ir.OpFail); len(f) != 1 {
		t.Errorf("xchgz lowered to %v, want a failure: xchg sets no flag", p.Func("xchgz").Insts)
	}
	if f := find("fences", ir.OpFence); len(f) != 3 || f[0].Ordering != ir.SeqCst || f[2].Ordering != ir.SeqCst ||
		f[1].Ordering != ir.Monotonic || !f[1].Yield || f[0].Yield || f[2].Yield {
		t.Errorf("fences lowered to %+v, want a seq_cst fence (mfence), a pause (a fence that orders nothing and yields) and a seq_cst fence (lock add to the stack)", f)
	}
	if c := find("tsc", ir.OpCycles); len(c) != 1 || c[0].N != 2 {
		t.Errorf("tsc lowered to %+v, want one cycle-counter read into two halves", c)
	}
	fails := find("swap", ir.OpFail)
	if len(fails) != 1 || !strings.Contains(p.Messages[fails[0].Imm], `inline assembly "bswap $0" is not supported`) {
		t.Errorf("bswap lowered to %v, want a failure that quotes it", fails)
	}
	if f := find("two", ir.OpFail); len(f) != 1 || len(find("two", ir.OpFence)) != 0 {
		t.Errorf("two instructions lowered to %v: an idiom is one instruction", p.Func("two").Insts)
	}
}
