package race_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/race"
	"augur/analyzer/vm"
	"augur/internal/testutil"
)

// TestReductionFindsWhatFullEnumerationFinds runs the bounded enumeration
// on every program of the exploration corpus twice, with the
// partial-order reduction and without, and checks that the reduction
// loses nothing: the same races and the same failures (kind and place),
// and where the full enumeration ran every schedule within its limit, so
// did the reduced one, in no more schedules.
func TestReductionFindsWhatFullEnumerationFinds(t *testing.T) {
	for _, f := range testutil.Programs("../../testdata/explore") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			prog, err := analyzer.LoadProgram([]string{f}, build.Options{CacheDir: cacheDir})
			if err != nil {
				t.Fatal(err)
			}
			run := func(full bool) *race.Result {
				res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1,
					Run:     vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
					Explore: &race.Explore{Max: -1, Workers: 1, NoReduction: full, Until: time.Now().Add(20 * time.Second)}})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			reduced, full := run(false), run(true)
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

// findings are the races (by statement pair) and failures (by kind and
// line) of a detection, sorted.
func findings(res *race.Result) []string {
	var out []string
	for _, r := range res.Races {
		out = append(out, "race "+race.RaceCandidateID(r))
	}
	for _, fl := range res.Failures {
		out = append(out, fmt.Sprintf("%s at %d", fl.Kind, fl.Loc.Line))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
