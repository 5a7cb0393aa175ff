package main

import (
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
int main(void) {
	const char *s = getenv("SECRET_TOKEN");
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
