package srctext

import (
	"errors"
	"testing"

	"augur/analyzer/frontend/ir"
)

func TestIgnoreMarkerNeedsComment(t *testing.T) {
	for line, want := range map[string]bool{
		"x++; // augur:ignore":         true,
		"x++; /* augur:ignore */":      true,
		`puts("augur:ignore");`:        false,
		"x++; // see augur:ignore doc": true,
		"x++;":                         false,
	} {
		if got := HasIgnoreMarker([]byte(line)); got != want {
			t.Errorf("HasIgnoreMarker(%q) = %v, want %v", line, got, want)
		}
	}
}

// A marker on any of the locations' lines silences; a file that cannot be
// read, or a line past its end, silences nothing. Each file is read once.
func TestSilencedReadsEachFileOnce(t *testing.T) {
	reads := map[string]int{}
	text := New(func(path string) ([]byte, error) {
		reads[path]++
		if path == "a.c" {
			return []byte("int x;\nx++; // augur:ignore\nx--;\n"), nil
		}
		return nil, errors.New("no such file")
	})
	for _, c := range []struct {
		locs []ir.Loc
		want bool
	}{
		{[]ir.Loc{{File: "a.c", Line: 3}, {File: "a.c", Line: 2}}, true},
		{[]ir.Loc{{File: "a.c", Line: 1}, {File: "a.c", Line: 3}}, false},
		{[]ir.Loc{{File: "a.c", Line: 9}}, false},
		{[]ir.Loc{{File: "gone.c", Line: 2}}, false},
	} {
		if got := text.Silenced(c.locs...); got != c.want {
			t.Errorf("Silenced(%v) = %v, want %v", c.locs, got, c.want)
		}
	}
	if reads["a.c"] != 1 || reads["gone.c"] != 1 {
		t.Errorf("reads %v, want each file once", reads)
	}
}
