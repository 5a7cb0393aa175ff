package classify

import (
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
)

// TestBudgetCutOccurrenceIsSaid classifies a race with three occurrences
// whose third is cut by the analysis's time budget: the verdict keeps the
// k of the two that finished and says that the third was left out, so a
// smaller k on a busier machine reads as a cut, not as another verdict.
func TestBudgetCutOccurrenceIsSaid(t *testing.T) {
	r := &race.Race{Alternates: make([]race.Instance, 2)}
	first := &Verdict{Category: Harmless, K: 32, Reason: "both orders agreed"}
	calls := 0
	v := laterOccurrences(r, first, true, func(*race.Race) *Verdict {
		calls++
		if calls == 1 {
			return &Verdict{Category: Harmless, K: 8, Reason: "agreed again"}
		}
		return &Verdict{Category: Unclassified, Budget: vm.BudgetTime, BudgetMessage: "time budget of 15m0s exhausted"}
	})
	if calls != 2 {
		t.Fatalf("classified %d later occurrences, want 2", calls)
	}
	if v.Category != Harmless || v.K != 40 {
		t.Fatalf("verdict %s with k=%d, want k-witness-harmless with k=40 (32 + 8)", v.Category, v.K)
	}
	if !strings.Contains(v.Reason, "1 other occurrence(s)") {
		t.Errorf("reason %q does not count the other occurrence", v.Reason)
	}
	if want := "occurrence 3 of 3 was not finished, so k leaves it and any later one out (time budget of 15m0s exhausted)"; v.Cut != want || v.CutBudget != vm.BudgetTime {
		t.Errorf("cut %q by %v, want %q by the time budget", v.Cut, v.CutBudget, want)
	}
}

// TestBudgetCutSecondOccurrenceKeepsFirst checks the cut when no later
// occurrence finished: the first verdict stands, with its own k, and says
// so.
func TestBudgetCutSecondOccurrenceKeepsFirst(t *testing.T) {
	r := &race.Race{Alternates: make([]race.Instance, 2)}
	first := &Verdict{Category: Harmless, K: 32, Reason: "both orders agreed"}
	v := laterOccurrences(r, first, true, func(*race.Race) *Verdict {
		return &Verdict{Category: Unclassified, Budget: vm.BudgetTime, BudgetMessage: "time budget of 15m0s exhausted"}
	})
	if v.K != 32 || !strings.HasPrefix(v.Cut, "occurrence 2 of 3 was not finished") {
		t.Fatalf("k=%d, cut %q: want k=32 and the cut said", v.K, v.Cut)
	}
}

// TestBudgetCutsAreAllSaid checks a verdict cut twice: the first
// occurrence's harm search ran out, and then a later occurrence was not
// finished. Both are said, so the second does not hide behind the first.
func TestBudgetCutsAreAllSaid(t *testing.T) {
	r := &race.Race{Alternates: make([]race.Instance, 2)}
	first := &Verdict{Category: Harmless, K: 32, Reason: "both orders agreed",
		Cut: "the harm search ran 2 of its 4 PCT schedules (time budget of 15m0s exhausted)", CutBudget: vm.BudgetTime}
	v := laterOccurrences(r, first, true, func(*race.Race) *Verdict {
		return &Verdict{Category: Unclassified, Budget: vm.BudgetTime, BudgetMessage: "time budget of 15m0s exhausted"}
	})
	for _, want := range []string{"the harm search ran 2 of its 4", "occurrence 2 of 3 was not finished"} {
		if !strings.Contains(v.Cut, want) {
			t.Errorf("cut %q does not say %q", v.Cut, want)
		}
	}
	if strings.Count(v.Cut, "harm search") != 1 {
		t.Errorf("cut %q says the harm search's cut more than once", v.Cut)
	}
}
