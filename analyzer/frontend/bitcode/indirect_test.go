package bitcode_test

import (
	"testing"

	"augur/analyzer/frontend/ir"
)

// A computed goto's jump is a switch over the addresses of the labels it
// may reach, with no default, and those addresses are the values the
// program's label table holds: distinct pointers into the function.
func TestComputedGotoIsASwitchOverLabelAddresses(t *testing.T) {
	p := lowerC(t, `
int run(int op) {
	static void *const tab[] = {&&one, &&two, &&three};
	goto *tab[op];
one: return 1;
two: return 2;
three: return 3;
}
int main(void) { return run(1); }
`)
	var jumps []ir.Inst
	for _, in := range p.Func("run").Insts {
		if in.Op == ir.OpFail {
			t.Errorf("run: %s", p.Messages[in.Imm])
		}
		if in.Op == ir.OpSwitch && in.Sub == ir.SwitchIndirect {
			jumps = append(jumps, in)
		}
	}
	if len(jumps) != 1 || len(jumps[0].Cases) != 3 {
		t.Fatalf("run lowered to %d indirect switches (%+v), want one over 3 labels", len(jumps), jumps)
	}
	seen := map[uint64]bool{}
	for _, c := range jumps[0].Cases {
		if seen[c.Value] || c.Value>>ir.AddrShift != uint64(p.Func("run").ID) {
			t.Errorf("label address %#x repeated or outside run's object", c.Value)
		}
		seen[c.Value] = true
	}
}
