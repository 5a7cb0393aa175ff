package analyzer_test

import (
	"context"
	"path/filepath"
	"testing"

	"augur/analyzer"
	"augur/analyzer/detect/race/racetest"
	"augur/internal/testutil"
)

// TestRecallCorpus runs the whole detection plan (base schedules,
// explored inputs, race-directed scheduling) on every annotated program of
// testdata/race and testdata/recall, whose races hide behind lock order,
// condition-variable and semaphore order, or narrow inputs, and matches
// the races found 1:1 against the annotations: every race found, none
// reported that is not there.
func TestRecallCorpus(t *testing.T) {
	files := append(testutil.Programs("../testdata/race"), testutil.Programs("../testdata/recall")...)
	for _, f := range files {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			opts := corpusOptions(t, f)
			opts.DetectOnly = true
			res, err := analyzer.Analyze(context.Background(), mustLoad(t, f), opts, analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			racetest.CheckRaces(t, f, res.Races)
		})
	}
}

// TestRecallCategories classifies the races of testdata/recall, each
// found by whichever technique reaches it (on explored inputs, under
// race-directed scheduling), and checks the category its annotation
// names: a race found on other inputs or with access preemption must
// replay there for classification to judge it.
func TestRecallCategories(t *testing.T) {
	for _, f := range testutil.Programs("../testdata/recall") {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			want := map[int]string{}
			for _, a := range testutil.RaceAnnotations(t, f) {
				want[a.Line] = a.Category
			}
			opts := corpusOptions(t, f)
			res, err := analyzer.Analyze(context.Background(), mustLoad(t, f), opts, analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Races) == 0 {
				t.Fatal("no race found")
			}
			for i, r := range res.Races {
				cat, ok := want[racetest.LineIn(r.Second, f)]
				if !ok {
					cat = want[racetest.LineIn(r.First, f)]
				}
				if v := res.Verdicts[i]; string(v.Category) != cat {
					t.Errorf("race on %s (found by %s): %s (%s: %s), want %s", r.Object, r.Technique, v.Category, v.Stage, v.Reason, cat)
				}
			}
		})
	}
}
