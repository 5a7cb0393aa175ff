package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blockedSource writes a source whose compile never ends (it includes a
// FIFO nobody writes to) into dir and returns its path.
func blockedSource(t *testing.T, dir string) string { return fifoSource(t, dir) }

func fifoSource(t testing.TB, dir string) string {
	t.Helper()
	fifo := filepath.Join(dir, "never.h")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	src := filepath.Join(dir, "blocked.c")
	os.WriteFile(src, []byte("#include \""+fifo+"\"\nint main(void) { return 0; }\n"), 0o644)
	return src
}

// peakRSS is the server process's peak resident memory, from /proc.
func (c *client) peakRSS() uint64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		c.t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb << 10
		}
	}
	c.t.Fatal("no VmHWM in /proc status")
	return 0
}

// Every budget holds in the server: a program that allocates without end
// is stopped by the memory budget, one that spins by the instruction
// budget, a long analysis and a compile that never ends by the time
// budget. Each becomes a diagnostic naming the setting to raise (never a
// command-line flag), the server keeps answering after each, and its own
// memory stays bounded. Running out of a budget is the analysis's limit,
// not the program's failure: a warning where the execution stopped.
func TestServerBudgets(t *testing.T) {
	root := workspaceWith(t, "budget/alloc_forever.c", "budget/spin_forever.c", "budget/slow_analysis.c")
	blocked := blockedSource(t, root)
	os.WriteFile(filepath.Join(root, "augur.toml"), []byte(`max-memory = "64MiB"
max-instructions = 3000000
debounce = "0s"

[[target]]
sources = ["alloc_forever.c"]

[[target]]
sources = ["spin_forever.c"]

[[target]]
sources = ["slow_analysis.c"]
max-instructions = 0
timeout = "2s"

[[target]]
sources = ["blocked.c"]
timeout = "1s"
`), 0o644)
	c := start(t, root, nil)
	answers := func(path string) {
		t.Helper()
		var hover json.RawMessage
		if err := c.call("textDocument/hover", pos(path, 0, 0), &hover); err != nil {
			t.Fatalf("the server stopped answering after %s: %v", filepath.Base(path), err)
		}
	}

	alloc := filepath.Join(root, "alloc_forever.c")
	c.open(alloc)
	c.waitFor("the memory budget diagnostic", func() bool { return diagWithCode(c.diags[fileURI(alloc)], "budget") != nil })
	d := diagWithCode(c.diagnostics(alloc), "budget")
	if d.Severity != 2 || !strings.Contains(d.Message, "memory budget of 64.0 MiB exhausted") ||
		!strings.Contains(d.Message, "augur.maxMemory") || !strings.Contains(d.Message, "max-memory in augur.toml") ||
		strings.Contains(d.Message, "--") || d.Range.Start.Line != lineOf(t, alloc, "malloc(1 << 20)") {
		t.Errorf("memory budget diagnostic: %+v", d)
	}
	answers(alloc)

	spin := filepath.Join(root, "spin_forever.c")
	c.open(spin)
	c.waitFor("the instruction budget diagnostic", func() bool { return diagWithCode(c.diags[fileURI(spin)], "budget") != nil })
	d = diagWithCode(c.diagnostics(spin), "budget")
	if d.Severity != 2 || !strings.Contains(d.Message, "instruction budget of 3000000 exhausted") ||
		!strings.Contains(d.Message, "augur.maxInstructions") || strings.Contains(d.Message, "--") ||
		d.Range.Start.Line != lineOf(t, spin, "x++;") {
		t.Errorf("instruction budget diagnostic: %+v", d)
	}
	answers(spin)

	slow := filepath.Join(root, "slow_analysis.c")
	c.open(slow)
	c.waitFor("the incomplete analysis warning", func() bool { return diagWithCode(c.diags[fileURI(slow)], "incomplete") != nil })
	d = diagWithCode(c.diagnostics(slow), "incomplete")
	if d.Severity != 2 || !strings.Contains(d.Message, "time budget of 2s exhausted") || !strings.Contains(d.Message, "augur.timeout") {
		t.Errorf("incomplete analysis diagnostic: %+v", d)
	}
	if races := raceDiags(c.diagnostics(slow)); len(races) == 0 {
		t.Errorf("the race found before the time budget ran out is not shown")
	}
	answers(slow)

	c.open(blocked)
	c.waitFor("the compile stopped by the time budget", func() bool {
		d := diagWithCode(c.diags[fileURI(blocked)], "incomplete")
		return d != nil && strings.Contains(d.Message, "while compiling")
	})
	if d := diagWithCode(c.diagnostics(blocked), "incomplete"); strings.Count(d.Message, "while compiling") != 1 {
		t.Errorf("the compile stopped by the time budget: %q", d.Message)
	}
	answers(blocked)

	// Under a 64 MiB budget the server peaked at 192 MiB (200 MiB before
	// it set the Go memory limit from the budget).
	if rss := c.peakRSS(); rss > 512<<20 {
		t.Errorf("the server's peak resident memory is %d MiB, want below 512 MiB", rss>>20)
	} else {
		t.Logf("the server's peak resident memory: %d MiB", rss>>20)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// Shutdown in the middle of a compile that would never end answers, and
// exit ends the server: the compiler's process group is killed.
func TestShutdownDuringCompile(t *testing.T) {
	root := workspaceWith(t)
	blocked := blockedSource(t, root)
	c := start(t, root, map[string]any{"timeout": "0"})
	c.open(blocked)
	c.waitFor("the build to start", func() bool {
		for _, v := range c.progress {
			if m, _ := v["message"].(string); strings.HasPrefix(m, "building") {
				return true
			}
		}
		return false
	})
	began := time.Now()
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d after shutdown and exit, want 0", code)
	}
	t.Logf("shutdown and exit took %v while clang was blocked", time.Since(began))
}

// A workspace whose augur.toml asks clang to load a plugin or write a
// file gets a diagnostic on that line, and clang never runs with it.
func TestWorkspaceCannotPassDangerousFlags(t *testing.T) {
	root := workspaceWith(t, "account.c")
	marker := filepath.Join(root, "written.json")
	cfg := filepath.Join(root, "augur.toml")
	os.WriteFile(cfg, []byte("[[target]]\nsources = [\"account.c\"]\nflags = [\"-MJ\", \""+marker+"\"]\n"), 0o644)
	c := start(t, root, nil)
	c.open(cfg)
	c.open(filepath.Join(root, "account.c"))
	c.waitFor("the refused flag", func() bool { return diagWithCode(c.diags[fileURI(cfg)], "config") != nil })
	d := diagWithCode(c.diagnostics(cfg), "config")
	if d.Range.Start.Line != 2 || !strings.Contains(d.Message, `"-MJ" is not allowed`) {
		t.Errorf("config diagnostic: %+v", d)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("clang ran with -MJ and wrote its file")
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
