package classify

import (
	"strings"
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// TestAttributeGivesOneOrderFailuresToTheirCause checks which one-order
// verdicts Attribute turns single-ordering: only those whose failure a
// race decided with both orders explains, the same way at the same place.
func TestAttributeGivesOneOrderFailuresToTheirCause(t *testing.T) {
	check := ir.Loc{File: "layout.c", Line: 40, Col: 2}
	unlock := ir.Loc{File: "pool.c", Line: 27, Col: 2}
	assertAt := func(loc ir.Loc) *vm.Termination {
		return &vm.Termination{Kind: vm.TermAssert, Message: "assertion `!compact' failed", Loc: loc}
	}
	uaf := &vm.Termination{Kind: vm.TermCrash, Message: "use after free: write of 4 bytes", Loc: unlock, Freed: &ir.Loc{File: "pool.c", Line: 38}}
	spec := func(id string, failure *vm.Termination, alone string) *Verdict {
		return &Verdict{RaceID: id, Category: SpecViolated, Failure: failure, Order: "primary", Alone: alone}
	}
	const spins = "alternate order cannot be enforced: thread 1 spins"
	for _, c := range []struct {
		name     string
		verdicts []*Verdict
		want     []int
	}{
		{"explained by a two-order race", []*Verdict{
			spec("table", assertAt(check), spins), nil, spec("compact", assertAt(check), ""), spec("ready", assertAt(check), spins),
		}, []int{0, 3}},
		{"two one-order races explain nothing", []*Verdict{
			spec("alive", uaf, spins), spec("freed", uaf, spins),
		}, nil},
		{"another place is another failure", []*Verdict{
			spec("ready", assertAt(check), spins), spec("mode", assertAt(ir.Loc{File: "layout.c", Line: 41, Col: 2}), ""),
		}, nil},
		{"a harmless race explains nothing", []*Verdict{
			spec("ready", assertAt(check), spins), {RaceID: "mode", Category: Harmless, K: 3},
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := append([]*Verdict(nil), c.verdicts...)
			got := Attribute(c.verdicts, nil)
			if len(got) != len(c.want) {
				t.Fatalf("changed %v, want %v", got, c.want)
			}
			for k, i := range got {
				if i != c.want[k] {
					t.Fatalf("changed %v, want %v", got, c.want)
				}
				v := c.verdicts[i]
				if v == before[i] || before[i].Category != SpecViolated {
					t.Errorf("verdict %d was modified in place, not replaced", i)
				}
				if v.Category != SingleOrdering || v.Failure != nil || v.Alone != "" ||
					!strings.HasPrefix(v.Reason, spins) || !strings.Contains(v.Reason, "race compact") {
					t.Errorf("verdict %d: %s, failure %v, reason %q", i, v.Category, v.Failure, v.Reason)
				}
			}
		})
	}
}

// A one-order failure on one path or occurrence of a race whose other
// ones agreed in both orders is reported with what those showed once it
// is given to another race; a failure in both orders on a later path is
// the race's own and wins over it (oneOrder).
func TestAttributeFallsBackOnTheOtherPaths(t *testing.T) {
	check := &vm.Termination{Kind: vm.TermAssert, Message: "assertion `!compact' failed", Loc: ir.Loc{File: "layout.c", Line: 40}}
	alone := func() *Verdict {
		return &Verdict{RaceID: "ready", Category: SpecViolated, Failure: check, Order: "primary", Alone: "thread 1 spins"}
	}
	agreed := &Verdict{RaceID: "ready", Category: Harmless, K: 3, Reason: "both orders ran to the same outcome"}
	own := &Verdict{RaceID: "ready", Category: SpecViolated, Failure: check, Order: "alternate"}
	if got := oneOrder(alone(), own); got != own {
		t.Errorf("a two-order failure after a one-order one: got %+v, want the two-order verdict", got)
	}
	if got := oneOrder(nil, agreed); got != agreed {
		t.Errorf("no one-order failure: got %+v", got)
	}
	v := oneOrder(alone(), agreed)
	if v.Alone == "" || v.Otherwise != agreed {
		t.Fatalf("one-order failure, then agreement: got %+v", v)
	}
	verdicts := []*Verdict{v, {RaceID: "compact", Category: SpecViolated, Failure: check, Order: "alternate"}}
	if got := Attribute(verdicts, nil); len(got) != 1 || got[0] != 0 {
		t.Fatalf("changed %v, want [0]", got)
	}
	w := verdicts[0]
	if w.Category != Harmless || w.K != 3 || w.Otherwise != nil || !strings.HasPrefix(w.Reason, agreed.Reason+"; on another input path") ||
		!strings.Contains(w.Reason, "race compact") {
		t.Errorf("attributed: %s k=%d, reason %q", w.Category, w.K, w.Reason)
	}
	if agreed.Reason != "both orders ran to the same outcome" {
		t.Errorf("the fallback verdict was modified in place: %q", agreed.Reason)
	}
}
