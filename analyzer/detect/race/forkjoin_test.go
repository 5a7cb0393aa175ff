package race_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/internal/testutil"
)

// TestOnlyExecution checks the rule by which detection runs one schedule
// of a program whose threads meet only where they are made and joined:
// each program of testdata/forkjoin says whether its first schedule is
// the only execution it has ("expect: only") or not ("expect: not
// only"). An only execution ends detection after the plan's first
// schedule, with the exploration reporting why (EndedForkJoin), and
// whether the order of the threads' output can differ ("(output order)":
// they printed while two of them lived); any other runs the plan and the
// exploration as before. The programs that are not break the rule in one
// way each: a file written by workers and read back, an atomic, an end
// before a worker finished, a race, two threads creating threads in
// either order.
func TestOnlyExecution(t *testing.T) {
	files := testutil.Programs("../../../testdata/forkjoin")
	if len(files) < 8 {
		t.Fatalf("%d programs in testdata/forkjoin", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			only := strings.Contains(string(src), "expect: only")
			if !only && !strings.Contains(string(src), "expect: not only") {
				t.Fatal("no expect line")
			}
			res := corpusDetector(t, f)(race.Explore{})
			ran, ended := res.Schedules, res.Explore.Ended
			t.Logf("%d schedules, exploration ended %q", ran, ended)
			if only && (ran != 1 || ended != race.EndedForkJoin) {
				t.Errorf("%d schedules, exploration ended %q: want 1, ended %q", ran, ended, race.EndedForkJoin)
			}
			if order := strings.Contains(string(src), "expect: only (output order)"); res.Explore.OutputOrder != order {
				t.Errorf("output order can differ: %v, want %v", res.Explore.OutputOrder, order)
			}
			if !only && (ran < 2 || ended == race.EndedForkJoin) {
				t.Errorf("%d schedules, exploration ended %q: want the plan and the exploration", ran, ended)
			}
		})
	}
}
