package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The analyzed program sees augur's environment, never the host's: a
// secret in the user's environment stays there unless the user passes it
// with --env.
func TestProgramDoesNotSeeHostEnvironment(t *testing.T) {
	src := filepath.Join(t.TempDir(), "getenv.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
	const char *s = getenv("SECRET_TOKEN");
	char cwd[64];
	if (!getcwd(cwd, sizeof cwd) || strcmp(cwd, getenv("PWD")) != 0)
		printf("getcwd says %s, PWD %s\n", cwd, getenv("PWD"));
	printf("token=%s home=%s\n", s ? s : "(none)", getenv("HOME"));
	return 0;
}
`), 0o644)
	t.Setenv("SECRET_TOKEN", "hunter2")
	out, _, code := augur(t, "", "run", src)
	if code != 0 || out != "token=(none) home=/home/augur\n" {
		t.Errorf("default environment: exit %d, %q", code, out)
	}
	out, _, _ = augur(t, "", "run", "--env", "SECRET_TOKEN", "--env", "HOME=/srv", src)
	if out != "token=hunter2 home=/srv\n" {
		t.Errorf("with --env: %q", out)
	}
	if _, errOut, code := augur(t, "", "run", "--env", "=x", src); code != 2 || !strings.Contains(errOut, "want NAME=VALUE") {
		t.Errorf("bad --env: exit %d, %s", code, errOut)
	}
}

// Two programs whose races share an id (the same file name and code in
// two directories) keep their own evidence in one evidence directory; a
// program analyzed again replaces its own.
func TestEvidenceOfTwoProgramsDoesNotCollide(t *testing.T) {
	src, err := os.ReadFile("../../testdata/classify/double_free.c")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	evDir := filepath.Join(root, "evidence")
	var ids []string
	harmful := 0 // races with evidence, per analysis
	for _, d := range []string{"one", "two", "one"} {
		path := filepath.Join(root, d, "prog.c")
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, src, 0o644)
		out, errOut, code := augur(t, "", "analyze", "--format", "json", "--evidence-dir", evDir, path)
		if code != 0 {
			t.Fatalf("analyze %s: exit %d\n%s", d, code, errOut)
		}
		var rep struct {
			Races []struct{ ID, Evidence string }
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Races) == 0 || rep.Races[0].Evidence == "" {
			t.Fatalf("analyze %s: %v\n%s", d, err, out)
		}
		ids = append(ids, rep.Races[0].ID)
		harmful = 0
		for _, r := range rep.Races {
			if r.Evidence != "" {
				harmful++
			}
		}
	}
	if ids[0] != ids[1] {
		t.Fatalf("the same code in two directories got ids %s and %s; the test needs them equal", ids[0], ids[1])
	}
	files, _ := filepath.Glob(filepath.Join(evDir, "race-*.json"))
	if len(files) != 2*harmful {
		t.Fatalf("evidence files %v, want %d per program", files, harmful)
	}
	for _, f := range files {
		if _, errOut, code := augur(t, "", "replay", f); code != 0 {
			t.Errorf("replay %s: exit %d\n%s", f, code, errOut)
		}
	}
}

// A program whose global cannot be laid out gets a clear error, not a
// crash of augur.
func TestHugeGlobalIsAnError(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.c")
	os.WriteFile(huge, []byte("static char big[64UL << 30];\nint main(void) { big[5] = 1; return big[5]; }\n"), 0o644)
	_, errOut, code := augur(t, "", "run", huge)
	if code != 1 || !strings.Contains(errOut, "global big is 64.0 GiB: larger than the 4.0 GiB augur can represent") {
		t.Errorf("64 GiB global: exit %d\n%s", code, errOut)
	}
	big := filepath.Join(dir, "big.c")
	os.WriteFile(big, []byte("static char big[2UL << 30];\nint main(void) { big[5] = 1; return big[5]; }\n"), 0o644)
	_, errOut, code = augur(t, "", "run", "--max-memory", "1GiB", big)
	if code != 1 || !strings.Contains(errOut, "globals need 2.0 GiB, more than the memory budget of 1.0 GiB") {
		t.Errorf("2 GiB global under a 1 GiB budget: exit %d\n%s", code, errOut)
	}
}
