package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/output/report"
)

// A program that looks for files augur was not given, which exist where
// augur runs, is told so: augur run says it on standard error, and the
// analysis's report lists them (files_not_given) with where the program
// looked, so that a user whose program ran on its error path learns why
// and which --file flags to pass. Files the host lacks (notes.txt) are
// not named; the files given are not named either.
func TestFilesNotGivenAreNamed(t *testing.T) {
	src, err := os.ReadFile("../../testdata/sandbox/files_not_given.c")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"files_not_given.c": string(src), "data.txt": "42\n", "settings.conf": "x=1\n", "run.sh": "true\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const hint = "augur: the program looked for data.txt (files_not_given.c:39), run.sh (files_not_given.c:48), " +
		"settings.conf (files_not_given.c:43), which augur was not given and which exist here: it ran without them"
	r := runAugurIn(t, dir, "", "run", "files_not_given.c")
	if r.code != 0 || !strings.Contains(r.stderr, hint) || !strings.Contains(r.stderr, "pass --file data.txt --file run.sh --file settings.conf") {
		t.Errorf("augur run: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "notes.txt") {
		t.Errorf("augur run names a file the host lacks:\n%s", r.stderr)
	}
	r = runAugurIn(t, dir, "", "run", "--file", "data.txt", "--file", "settings.conf", "--file", "run.sh", "files_not_given.c")
	if r.code != 0 || strings.Contains(r.stderr, "looked for") || !strings.Contains(r.stdout, "open data.txt: 3") {
		t.Errorf("augur run with the files: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	r = runAugurIn(t, dir, "", "analyze", "--detect-only", "--format", "json", "--file", "settings.conf", "--file", "run.sh", "files_not_given.c")
	var rep report.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	want := []report.FileNotGiven{{Name: "data.txt", Host: "data.txt", File: "files_not_given.c", Line: 39}}
	if len(rep.FilesNotGiven) != 1 || rep.FilesNotGiven[0] != want[0] {
		t.Errorf("files_not_given = %+v, want %+v", rep.FilesNotGiven, want)
	}
}

// A program that exits with a nonzero status before it makes a second
// thread, on its own inputs and every input explored, gets a report that
// says so (its status and last line of standard error), not only that it
// found nothing; given its arguments it runs its threads and races.
func TestEarlyExitIsSaid(t *testing.T) {
	src := "../../testdata/incomplete/needs_args.c"
	r := runAugur(t, "", "analyze", "--detect-only", "--format", "json", src)
	var rep report.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	x := rep.Stats.Exploration
	if x == nil || !x.ExitedEarly() || x.ExitStatus != 2 || x.ExitMessage != "usage: needs_args NAME COUNT" || len(rep.Races) != 0 {
		t.Errorf("with no arguments: exploration %+v, %d races", x, len(rep.Races))
	}
	r = runAugur(t, "", "analyze", "--detect-only", src)
	if !strings.Contains(r.stdout, `the program exited with status 2 on its own inputs before it created a second thread `+
		`(its last words on standard error: "usage: needs_args NAME COUNT"), so nothing concurrent was analyzed`) {
		t.Errorf("the text report does not say the program exited early:\n%s", r.stdout)
	}
	r = runAugur(t, "", "analyze", "--detect-only", "--format", "json", src, "--", "a", "3")
	rep = report.Report{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("analyze a 3: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	if rep.Stats.Exploration.ExitedEarly() || len(rep.Races) == 0 {
		t.Errorf("given its arguments: exploration %+v, %d races", rep.Stats.Exploration, len(rep.Races))
	}
}
