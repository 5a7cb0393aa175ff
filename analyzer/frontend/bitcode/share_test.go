package bitcode_test

import (
	"testing"

	"augur/analyzer/frontend/ir"
)

// A swap computes each element's address once, not at each access, and
// keeps every load and store; an address after the index changed is
// computed again.
func TestRepeatedAddressesAreShared(t *testing.T) {
	p := lowerC(t, `#include <stdio.h>
int a[8];
void swap(int i, int j) {
	int t = a[i];
	a[i] = a[j];
	a[j] = t;
}
void bump(int i) {
	a[i] += 1;
	i++;
	a[i] += 2;
}
int main(void) {
	swap(1, 2);
	bump(3);
	printf("%d %d\n", a[1], a[4]);
	return 0;
}
`)
	count := func(name string) (geps, loads, stores int) {
		for _, in := range p.Func(name).Insts {
			switch in.Op {
			case ir.OpGEP:
				geps++
			case ir.OpLoad:
				loads++
			case ir.OpStore:
				stores++
			}
		}
		return
	}
	if geps, loads, stores := count("swap"); geps != 2 || loads != 2 || stores != 2 {
		t.Errorf("swap: %d GEPs, %d loads, %d stores; want 2 of each (one address per element)", geps, loads, stores)
	}
	if geps, loads, stores := count("bump"); geps != 2 || loads != 2 || stores != 2 {
		t.Errorf("bump: %d GEPs, %d loads, %d stores; want 2 of each (a[i] before and after i++)", geps, loads, stores)
	}
}
