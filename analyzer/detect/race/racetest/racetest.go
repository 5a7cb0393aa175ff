// Package racetest checks races found in a test program against the
// expectations its comments write (`// race: NAME CATEGORY` on both
// endpoint lines, read by internal/testutil).
package racetest

import (
	"path/filepath"
	"testing"

	"augur/analyzer/detect/race"
	"augur/internal/testutil"
)

// LineIn returns the line of the first frame of an endpoint's stack that
// is in file (the racing access may sit in a runtime function called from
// it), or 0.
func LineIn(e race.Endpoint, file string) int {
	for _, f := range e.Stack {
		if filepath.Base(f.Loc.File) == filepath.Base(file) {
			return f.Loc.Line
		}
	}
	return 0
}

// CheckRaces matches the races found in the program at path 1:1 against
// its `// race:` comments: every expected race reported with both endpoint
// lines, and nothing else.
func CheckRaces(t testing.TB, path string, races []*race.Race) {
	t.Helper()
	want := testutil.RacePairs(t, path)
	got := map[[2]int][]*race.Race{}
	for _, r := range races {
		a, b := LineIn(r.First, path), LineIn(r.Second, path)
		got[[2]int{min(a, b), max(a, b)}] = append(got[[2]int{min(a, b), max(a, b)}], r)
	}
	for ls, n := range want {
		if len(got[ls]) != n {
			t.Errorf("%s: lines %d and %d: %d races reported, want %d", filepath.Base(path), ls[0], ls[1], len(got[ls]), n)
		}
	}
	for ls, rs := range got {
		if _, ok := want[ls]; !ok {
			for _, r := range rs {
				t.Errorf("%s: unexpected race on %s: %s at line %d vs %s at line %d", filepath.Base(path), r.Object,
					r.First.KindName(), ls[0], r.Second.KindName(), ls[1])
			}
		}
	}
}
