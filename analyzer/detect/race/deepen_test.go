package race_test

import (
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
)

// TestEnumerationDeepens checks that the bounded enumeration, once it has
// run every schedule with at most EnumerationBound preemptions, goes on to
// those with one more: deep_handshake.c's assert needs three, and with PCT
// off (Explore.Max < 0) only the enumeration's third round can reach it.
func TestEnumerationDeepens(t *testing.T) {
	res := corpusDetector(t, "../../../testdata/explore/deep_handshake.c")(race.Explore{Max: -1})
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
