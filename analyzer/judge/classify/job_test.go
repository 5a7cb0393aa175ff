package classify

import (
	"strings"
	"testing"
)

// A classification that panics (a bug in augur) becomes an unclassified
// verdict that names the panic and where it happened; the other races and
// the process go on.
func TestAPanickingClassificationIsUnclassified(t *testing.T) {
	var m map[string]int
	v := safely("r1", func() *Verdict {
		m["x"] = 1 // assignment to a nil map
		return nil
	})
	if v == nil || v.RaceID != "r1" || v.Category != Unclassified || !strings.Contains(v.Reason, "assignment to entry in nil map") ||
		!strings.Contains(v.Reason, "TestAPanickingClassificationIsUnclassified.func1 (job_test.go:") {
		t.Fatalf("verdict %+v", v)
	}
	t.Log(v.Reason)
	if w := safely("r2", func() *Verdict { return &Verdict{RaceID: "r2", Category: Harmless} }); w.Category != Harmless {
		t.Errorf("a classification that does not panic: %+v", w)
	}
}
