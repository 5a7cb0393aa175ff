package analyzer_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/classify"
	"augur/analyzer/race"
)

// A history carries one analysis's races and verdicts to the next
// analysis of the same program: a race only another schedule found stays
// known (and is classified again), a harmless verdict's k adds up, and
// each analysis starts its random schedules where the last one stopped.
func TestHistoryAcrossAnalyses(t *testing.T) {
	path := "../testdata/race/handoff.c" // its race needs a reversal: round robin alone misses it
	prog := load(t, path)
	hist := filepath.Join(t.TempDir(), "history.json")
	analyze := func(schedules int) *analyzer.Result {
		t.Helper()
		opts := options(path)
		opts.Schedules, opts.Directed, opts.History = schedules, -1, hist
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) > 0 {
			t.Fatalf("warnings: %v", res.Warnings)
		}
		return res
	}
	first := analyze(5)
	if len(first.Races) != 1 || first.Races[0].Technique == race.ByHistory {
		t.Fatalf("first analysis: %d races", len(first.Races))
	}
	k1 := first.Verdicts[0].K
	second := analyze(1)
	if len(second.Races) != 1 || second.Races[0].Technique != race.ByHistory {
		t.Fatalf("second analysis (round robin only) did not recall the race: %+v", second.Races)
	}
	v := second.Verdicts[0]
	if v.Category != first.Verdicts[0].Category {
		t.Fatalf("recalled race classified %s, first %s", v.Category, first.Verdicts[0].Category)
	}
	if v.Category == classify.Harmless && (v.K <= k1 || !strings.Contains(v.Reason, "earlier analyses")) {
		t.Fatalf("k did not add up: %d after %d (%s)", v.K, k1, v.Reason)
	}
	third := analyze(5)
	if third.Detection.Schedules == 0 || len(third.Races) != 1 {
		t.Fatalf("third analysis: %d races", len(third.Races))
	}
	// Another program in the same file starts over.
	other := "../testdata/race/counter.c"
	opts := options(other)
	opts.History = hist
	res, err := analyzer.Analyze(context.Background(), load(t, other), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Races {
		if r.Technique == race.ByHistory {
			t.Fatalf("a race of handoff.c was recalled for counter.c")
		}
	}
}
