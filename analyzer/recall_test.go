package analyzer_test

import (
	"context"
	"path/filepath"
	"testing"

	"augur/analyzer"
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
			opts := options(f)
			opts.DetectOnly = true
			opts.Run.MaxMemory = 1 << 30
			res, err := analyzer.Analyze(context.Background(), load(t, f), opts, analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			testutil.CheckRaces(t, f, res.Races)
		})
	}
}
