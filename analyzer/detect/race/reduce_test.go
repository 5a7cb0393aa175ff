package race_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/internal/testutil"
)

// TestReductionFindsWhatFullEnumerationFinds runs the bounded enumeration
// on every program of the exploration and accuracy corpora twice, with the
// partial-order reduction and without, and checks that the reduction
// loses nothing: the same races and the same failures (kind and place),
// and where the full enumeration ran every schedule within its limit, so
// did the reduced one, in no more schedules.
func TestReductionFindsWhatFullEnumerationFinds(t *testing.T) {
	for _, f := range corpora() {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			detect := corpusDetector(t, f)
			reduced := detect(race.Explore{Max: -1})
			full := detect(race.Explore{Max: -1, NoReduction: true})
			t.Logf("full: %d schedules (all: %v); reduced: %d (all: %v)", full.Explore.Enumerated, full.Explore.Exhaustive,
				reduced.Explore.Enumerated, reduced.Explore.Exhaustive)
			if r, f := findings(reduced), findings(full); !slices.Equal(r, f) {
				t.Logf("reduced enumeration found\n\t%v\nthe full one\n\t%v", r, f)
			}
			if full.Explore.Exhaustive {
				if !reduced.Explore.Exhaustive || reduced.Explore.Enumerated > full.Explore.Enumerated {
					t.Errorf("the full enumeration ran all %d schedules; the reduced one %d (all: %v)",
						full.Explore.Enumerated, reduced.Explore.Enumerated, reduced.Explore.Exhaustive)
				}
				if r, f := findings(reduced), findings(full); !slices.Equal(r, f) {
					t.Errorf("reduced enumeration found\n\t%v\nthe full one\n\t%v", r, f)
				}
			}
		})
	}
}

// findings are the races (by statement pair) and failures (by kind, line
// and what went wrong: a use after free and a null pointer dereference at
// one line are two) of a detection, sorted.
func findings(res *race.Result) []string {
	var out []string
	for _, r := range res.Races {
		out = append(out, "race "+race.RaceCandidateID(r))
	}
	for _, fl := range res.Failures {
		class, _, _ := strings.Cut(fl.Message, ":")
		out = append(out, fmt.Sprintf("%s (%s) at %d", fl.Kind, class, fl.Loc.Line))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestPCTFindsNothingAfterAllSchedules checks the claim that lets the
// exploration skip PCT: where the enumeration ran every schedule at its
// points (AllSchedules), PCT over the same points finds no race or
// failure it did not.
func TestPCTFindsNothingAfterAllSchedules(t *testing.T) {
	for _, f := range corpora() {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			detect := corpusDetector(t, f)
			skipped := detect(race.Explore{Patience: 300})
			if !skipped.Explore.AllSchedules {
				return
			}
			withPCT := detect(race.Explore{Patience: 300, PCTAfterAll: true})
			if s, p := findings(skipped), findings(withPCT); !slices.Equal(s, p) {
				t.Errorf("the enumeration ran every schedule (%d) and found\n\t%v\nPCT after it (%d schedules) found\n\t%v",
					skipped.Explore.Enumerated, s, withPCT.Explore.Schedules, p)
			}
		})
	}
}

// corpora are the programs the enumeration's tests run: the exploration
// corpus and the accuracy corpus (teardown_clear.c there needs a lock's
// holder reversed with the thread waiting for it).
func corpora() []string {
	return append(testutil.Programs("../../../testdata/explore"), testutil.Programs("../../../testdata/accuracy")...)
}

// corpusDetector loads the program f and returns a detection of it with
// five planned schedules and the exploration x, on one worker, for at
// most 20 seconds.
func corpusDetector(t *testing.T, f string) func(x race.Explore) *race.Result {
	prog := loadtest.Program(t, cacheDir, f)
	return func(x race.Explore) *race.Result {
		x.Workers, x.Until = 1, time.Now().Add(20*time.Second)
		res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1,
			Run:     vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
			Explore: &x})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
}
