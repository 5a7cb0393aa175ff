package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/output/report"
)

// A program split over files is analyzed from the file with main alone:
// augur completes it from the files beside it (testdata/project/tally,
// whose main.c says what it takes), reports what it took and why, and
// the evidence names every file, so it replays without the search. With
// --complete=false the program is the file given, and the call into the
// other file is where the analysis stops.
func TestAnalyzeCompletesTheProgramFromItsDirectory(t *testing.T) {
	main := "../../testdata/project/tally/main.c"
	dir := t.TempDir()
	out, errOut, code := augur(t, "", "analyze", "--format", "json", "--evidence-dir", dir, main)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("no JSON report: %v\n%s", err, out)
	}
	var taken []string
	for _, s := range rep.SourcesTaken {
		taken = append(taken, filepath.Base(s.File)+" for "+s.Symbol+" of "+filepath.Base(s.NeededBy))
	}
	if got := strings.Join(taken, ", "); got != "tally.c for tally_start of main.c, log.c for log_line of tally.c" {
		t.Errorf("sources taken: %s", got)
	}
	if len(rep.Races) != 1 || rep.Races[0].Category != "output-differs" || rep.Races[0].Evidence == "" {
		t.Fatalf("races: %+v", rep.Races)
	}
	replayed, errOut, code := augur(t, "", "replay", rep.Races[0].Evidence)
	if code != 0 || !strings.Contains(replayed, "total 1") && !strings.Contains(replayed, "total 2") {
		t.Errorf("replay, exit %d:\n%s\n%s", code, replayed, errOut)
	}
	text, _, _ := augur(t, "", "analyze", "--detect-only", main)
	if !strings.Contains(text, "SOURCES: completed from the project's files: ") || !strings.Contains(text, "log.c (defines log_line, used by") {
		t.Errorf("the text report does not say what it took:\n%s", text)
	}
	_, _, code = augur(t, "", "analyze", "--detect-only", "--complete=false", main)
	if code != report.ExitIncomplete {
		t.Errorf("--complete=false: exit %d, want %d (the call to tally_start unfollowed)", code, report.ExitIncomplete)
	}
}
