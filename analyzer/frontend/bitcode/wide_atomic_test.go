package bitcode_test

import (
	"testing"

	"augur/analyzer/frontend/ir"
)

// A sixteen-byte compare-and-swap (cmpxchg16b, under -mcx16) and an
// atomicrmw of an __int128 lower to the atomic instructions with the wide
// type, sixteen bytes of access, and the three and two result registers
// of their {i128, i1} and i128 results.
func TestWideAtomicsLowerWithTheirWidth(t *testing.T) {
	p := lowerC(t, `
unsigned __int128 v;
int cas(unsigned __int128 old, unsigned __int128 want) { return __sync_bool_compare_and_swap(&v, old, want); }
unsigned __int128 add(void) { return __sync_fetch_and_add(&v, 1); }
int main(void) { return 0; }
`)
	for fn, op := range map[string]ir.Op{"cas": ir.OpCmpXchg, "add": ir.OpAtomicRMW} {
		found := false
		for _, in := range p.Func(fn).Insts {
			if in.Op == ir.OpFail {
				t.Errorf("%s: %s", fn, p.Messages[in.Imm])
			}
			if in.Op != op {
				continue
			}
			found = true
			if in.Ty.Bits != 128 || in.Imm != 16 {
				t.Errorf("%s: %v of %d bits, %d bytes", fn, op, in.Ty.Bits, in.Imm)
			}
		}
		if !found {
			t.Errorf("%s: no %v", fn, op)
		}
	}
}
