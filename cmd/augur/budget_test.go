package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"augur/internal/bytesize"
)

// budgetCase is one expectation written in a testdata/budget program:
//
//	augur ARGS => exit N: TEXT; rss < SIZE; time < DURATION
//
// The command, run on the file, must exit with N, print TEXT (on either
// stream), peak below SIZE of resident memory and, where a case bounds
// it, end within DURATION (generous: a bound that catches a budget
// overrun by several times, not a timing test).
type budgetCase struct {
	args   []string
	exit   int
	text   string
	maxRSS uint64
	within time.Duration
}

var budgetLine = regexp.MustCompile(`^\s*\*?\s*augur (.+?) => exit (\d+): (.+?)(?:; rss < (\S+))?(?:; time < (\S+))?$`)

func budgetCases(t *testing.T, path string) []budgetCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []budgetCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := budgetLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		c := budgetCase{args: strings.Fields(m[1]), text: m[3]}
		c.exit, _ = strconv.Atoi(m[2])
		if m[4] != "" {
			if c.maxRSS, err = bytesize.Parse(m[4]); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		if m[5] != "" {
			if c.within, err = time.ParseDuration(m[5]); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no expectation line", path)
	}
	return out
}

// TestBudgets runs every expectation of testdata/budget: each budget
// (instructions, time, memory) stops a program that would run away, with
// the exit status and message the file states, within the memory it
// states.
func TestBudgets(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/budget/*.c")
	if len(files) < 4 {
		t.Fatalf("%d programs in testdata/budget", len(files))
	}
	for _, path := range files {
		// Compiled first, into the cache: a time budget in a case is the
		// analysis's, which a slow compile on a loaded machine would spend.
		runAugur(t, "", "run", "--max-instructions", "1", path)
		for _, c := range budgetCases(t, path) {
			name := filepath.Base(path) + " " + strings.Join(c.args, " ")
			t.Run(name, func(t *testing.T) {
				args := append(append([]string(nil), c.args...), path)
				began := time.Now()
				r := runAugur(t, "", args...)
				if took := time.Since(began); c.within > 0 && took > c.within {
					t.Errorf("took %v, want within %v", took.Round(time.Millisecond), c.within)
				}
				out, code, rss := r.stdout+r.stderr, r.code, r.rss
				if code != c.exit || !strings.Contains(out, c.text) {
					t.Fatalf("exit %d, want %d with %q in:\n%s", code, c.exit, c.text, tail(out, 3000))
				}
				if c.maxRSS > 0 && rss > c.maxRSS {
					t.Errorf("peak RSS %s, want below %s", bytesize.Format(rss), bytesize.Format(c.maxRSS))
				}
				t.Logf("exit %d, peak RSS %s", code, bytesize.Format(rss))
			})
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// A compiler that never finishes (its source includes a FIFO nobody
// writes to) is stopped by the time budget, which counts compiling.
func TestBudgetStopsTheCompiler(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "never")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	src := filepath.Join(dir, "blocked.c")
	os.WriteFile(src, []byte("#include \""+fifo+"\"\nint main(void) { return 0; }\n"), 0o644)
	for _, c := range []struct {
		cmd  string
		exit int
	}{{"run", 124}, {"analyze", exitBudget}} {
		r := runAugur(t, "", c.cmd, "--timeout", "1s", src)
		out, code := r.stdout+r.stderr, r.code
		if code != c.exit || !strings.Contains(out, "time budget of 1s exhausted while compiling (raise --timeout)") {
			t.Errorf("%s: exit %d, want %d:\n%s", c.cmd, code, c.exit, out)
		}
	}
}

// The first SIGINT (a user's Ctrl-C, a CI job's time limit) stops an
// analysis that would run for hours as its time budget would: it reports
// what it found, says INCOMPLETE and that it was interrupted, and exits 4.
func TestInterruptReportsWhatWasFound(t *testing.T) {
	cache := t.TempDir()
	cmd := exec.Command(augurBin, "analyze", "--max-instructions", "0", "--timeout", "5m", "../../testdata/budget/slow_analysis.c")
	cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+cache)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The handler is in place before compiling starts: wait for bitcode.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if bc, _ := filepath.Glob(filepath.Join(cache, "bitcode", "*.bc")); len(bc) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no bitcode in the cache after two minutes: %s", errOut.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Fatalf("exit %v, want 4\n%s%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{"INCOMPLETE: augur: the analysis stopped early: interrupted", "SUMMARY: augur:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "--timeout") {
		t.Errorf("an interrupted analysis is told to raise --timeout:\n%s", out.String())
	}
}
