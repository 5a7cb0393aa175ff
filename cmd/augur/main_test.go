package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var augurBin string

// TestMain builds the augur binary once; the tests run it as a user would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "augur-cli-")
	if err != nil {
		panic(err)
	}
	augurBin = filepath.Join(dir, "augur")
	build := exec.Command("go", "build", "-o", augurBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build augur: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func augur(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(augurBin, args...)
	cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+filepath.Join(os.TempDir(), "augur-cli-test-cache"))
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return so.String(), se.String(), code
}

func TestRunPassesArgsAndExitStatus(t *testing.T) {
	out, _, code := augur(t, "", "run", "../../testdata/run/args_env.c", "--", "x", "y")
	if code != 3 || !strings.Contains(out, "argv[2] = y (1)") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestRunCrashReportsAndExitsLikeASignal(t *testing.T) {
	_, errOut, code := augur(t, "", "run", "../../testdata/crash/heap_oob.c")
	if code != 128+11 {
		t.Fatalf("exit %d, want 139", code)
	}
	for _, want := range []string{"augur: crash: out of bounds heap access", "heap_oob.c:8", "#0 main"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("report lacks %q:\n%s", want, errOut)
		}
	}
}

func TestRunBudgetStopsLoop(t *testing.T) {
	_, errOut, code := augur(t, "", "run", "--max-instructions", "100000", "../../testdata/crash/infinite_loop.c")
	if code != 124 || !strings.Contains(errOut, "instruction budget of 100000 exhausted") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	_, errOut, code = augur(t, "", "run", "--timeout", "200ms", "../../testdata/crash/infinite_loop.c")
	if code != 124 || !strings.Contains(errOut, "time budget of 200ms exhausted") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
}

func TestRunCompileErrorShowsClang(t *testing.T) {
	src := filepath.Join(t.TempDir(), "broken.c")
	os.WriteFile(src, []byte("int main(void) { return nope; }\n"), 0o644)
	_, errOut, code := augur(t, "", "run", src)
	if code != 1 || !strings.Contains(errOut, "broken.c:1:25: error: use of undeclared identifier 'nope'") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
}

func TestRunTraceAndReplay(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.json")
	prog := "../../testdata/sched/interleave.c"
	out1, _, code := augur(t, "", "run", "--schedule", "random", "--seed", "5", "--trace", trace, prog)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	out2, _, code := augur(t, "", "run", "--replay", trace, prog)
	if code != 0 || out1 != out2 {
		t.Fatalf("replay: exit %d, %q vs %q", code, out2, out1)
	}
}

func TestRunReadsStdin(t *testing.T) {
	out, _, code := augur(t, "ab\ncd", "run", "../../testdata/run/stdin_echo.c")
	if code != 0 || !strings.HasPrefix(out, "[AB\n][CD]") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	if _, _, code := augur(t, "", "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	if _, _, code := augur(t, "", "run"); code != 2 {
		t.Errorf("run without files: exit %d", code)
	}
	if _, _, code := augur(t, "", "run", "--schedule", "chaos", "x.c"); code != 2 {
		t.Errorf("bad schedule: exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := augur(t, "", "version")
	if code != 0 || !strings.Contains(out, "llvm:  14.") || !strings.Contains(out, "clang-14") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}
