package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ThreadSanitizer report of counter.c's race, as the text output of a
// CI run would hold it (written here, in ThreadSanitizer's format).
const counterReport = `==================
WARNING: ThreadSanitizer: data race (pid=777)
  Write of size 4 at 0x55c4c0 by thread T2:
    #0 worker /ci/build/testdata/race/counter.c:11:7 (counter+0xd019f)

  Previous write of size 4 at 0x55c4c0 by thread T1:
    #0 worker /ci/build/testdata/race/counter.c:11:7 (counter+0xd019f)

  Location is global 'hits' of size 4 at 0x55c4c0 (counter+0x1476258)

SUMMARY: ThreadSanitizer: data race /ci/build/testdata/race/counter.c:11:7 in worker
==================
`

// --tsan-report reads standard input with "-": the race it reports is
// counter.c's, tagged with the warning's number in JSON and text; a file
// that is no ThreadSanitizer report is refused before any analysis.
func TestTSanReportFlag(t *testing.T) {
	src := "../../testdata/race/counter.c"
	out, stderr, code := augur(t, counterReport, "analyze", "--format", "json", "--explore-time", "0", "--tsan-report", "-", src)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rep struct {
		Races []struct {
			Category string `json:"category"`
			TSan     any    `json:"tsan"`
		} `json:"races"`
		Unreproduced []any `json:"tsan_unreproduced"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Races) != 1 || rep.Races[0].TSan != float64(1) || len(rep.Unreproduced) != 0 {
		t.Errorf("report: %+v", rep)
	}
	text, _, _ := augur(t, counterReport, "analyze", "--explore-time", "0", "--tsan-report", "-", src)
	if !strings.Contains(text, "Reported by ThreadSanitizer: warning 1") {
		t.Errorf("text report does not say the race came from ThreadSanitizer:\n%s", text)
	}
	junk := filepath.Join(t.TempDir(), "junk.log")
	os.WriteFile(junk, []byte("make: *** [all] Error 2\n"), 0o644)
	_, stderr, code = augur(t, "", "analyze", "--tsan-report", junk, src)
	if code != 2 || !strings.Contains(stderr, "not a ThreadSanitizer report") {
		t.Errorf("a file that is not a report: exit %d, %q", code, stderr)
	}
}
