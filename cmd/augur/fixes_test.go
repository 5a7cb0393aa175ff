package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --suggest-fixes: the JSON report gives missing_lock.c's race its fixes
// with the contract's fields; the first verified diff, applied with
// patch -p0 in the directory augur ran in, leaves a program augur finds
// no race in; SARIF carries the verified fixes; the text report prints
// the diff.
func TestSuggestFixesFlag(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Fatal("patch is not installed (make setup installs it)")
	}
	dir := t.TempDir()
	src, err := os.ReadFile("../../testdata/fix/missing_lock.c")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "bank.c"), src, 0o644)
	r := runAugurIn(t, dir, "", "analyze", "--format", "json", "--suggest-fixes", "bank.c")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var rep struct {
		Races []struct {
			Object string `json:"object"`
			Fixes  []struct {
				Kind     string `json:"kind"`
				Title    string `json:"title"`
				Verified *bool  `json:"verified"`
				Checked  string `json:"checked"`
				Diff     string `json:"diff"`
			} `json:"fixes"`
		} `json:"races"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Races) != 1 || len(rep.Races[0].Fixes) != 2 {
		t.Fatalf("want one race with two fixes: %s", r.stdout)
	}
	for _, f := range rep.Races[0].Fixes {
		if f.Verified == nil || !*f.Verified || f.Title == "" || !strings.HasPrefix(f.Checked, "verified: no race on balance") ||
			!strings.HasPrefix(f.Diff, "--- bank.c\n+++ bank.c\n@@ ") {
			t.Errorf("fix %+v", f)
		}
	}
	if k := rep.Races[0].Fixes[0].Kind; k != "lock" {
		t.Errorf("first fix is %q, want the lock", k)
	}
	patch := exec.Command("patch", "-p0", "--quiet")
	patch.Dir, patch.Stdin = dir, strings.NewReader(rep.Races[0].Fixes[0].Diff)
	if out, err := patch.CombinedOutput(); err != nil {
		t.Fatalf("patch -p0: %v\n%s", err, out)
	}
	if r := runAugurIn(t, dir, "", "analyze", "bank.c"); r.code != 0 || !strings.Contains(r.stdout, "SUMMARY: augur: 0 races") {
		t.Errorf("after the patch: exit %d\n%s", r.code, r.stdout)
	}

	os.WriteFile(filepath.Join(dir, "bank.c"), src, 0o644)
	sarif := runAugurIn(t, dir, "", "analyze", "--format", "sarif", "--suggest-fixes", "bank.c")
	for _, want := range []string{`"fixes"`, `"artifactChanges"`, `"deletedRegion"`, `pthread_mutex_lock(\u0026bank);`} {
		if !strings.Contains(sarif.stdout, want) {
			t.Errorf("SARIF lacks %s", want)
		}
	}
	text := runAugurIn(t, dir, "", "analyze", "--suggest-fixes", "bank.c")
	if !strings.Contains(text.stdout, "  Fix: Hold bank around") || !strings.Contains(text.stdout, "+\tpthread_mutex_lock(&bank);") {
		t.Errorf("text report:\n%s", text.stdout)
	}
}
