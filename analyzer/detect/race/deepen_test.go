package race_test

import (
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// TestEnumerationDeepens checks that the bounded enumeration, once it has
// run every schedule with at most EnumerationBound preemptions, goes on to
// those with one more: deep_handshake.c's assert needs three, and with PCT
// off (Explore.Max < 0) only the enumeration's third round can reach it.
func TestEnumerationDeepens(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/explore/deep_handshake.c")
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1,
		Run:     vm.Config{Args: []string{"deep_handshake.c"}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
		Explore: &race.Explore{Workers: 1, Max: -1}})
	if err != nil {
		t.Fatal(err)
	}
	x := res.Explore
	t.Logf("%d schedules enumerated; bound %d, complete to %d", x.Enumerated, x.Bound, x.CompleteBound)
	if x.CompleteBound < race.EnumerationBound || x.Bound <= race.EnumerationBound {
		t.Errorf("the enumeration stopped at bound %d (complete to %d): want rounds past %d",
			x.Bound, x.CompleteBound, race.EnumerationBound)
	}
	var found bool
	for _, f := range res.Failures {
		if f.Kind == vm.TermAssert && strings.Contains(f.Schedule, "bounded schedule") &&
			strings.Contains(f.Schedule, "preemptions: 3") {
			found = true
		}
	}
	if !found {
		t.Errorf("no assert from a bounded schedule of three preemptions; failures: %+v", res.Failures)
	}
}
