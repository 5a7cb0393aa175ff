package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A harmful race with a verified fix: the racing line offers it as a
// preferred quick fix whose edit wraps the statement in the lock, the
// hover says it was checked, and once the edit is applied and saved the
// next analysis reports no race there. A rejected fix (the one that
// would deadlock in lock_order.c) is not offered; the race's verified
// fix is, on both of its lines.
func TestVerifiedFixIsAQuickFix(t *testing.T) {
	root := workspaceWith(t, "fix/missing_lock.c", "fix/lock_order.c")
	path := filepath.Join(root, "missing_lock.c")
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	line := lineOf(t, path, "balance += 5;")
	actions := c.codeActions(path, line)
	lock := findAction(actions, "Fix: Hold bank around the access to balance in bonus")
	if lock == nil || lock.Kind != "quickfix" || lock.Edit == nil {
		t.Fatalf("no lock fix among the code actions: %+v", actions)
	}
	edits := lock.Edit.Changes[fileURI(path)]
	if len(edits) != 1 || edits[0].Range.Start.Line != line || edits[0].Range.End.Line != line+1 ||
		!strings.HasPrefix(edits[0].NewText, "\tpthread_mutex_lock(&bank);\n\tbalance += 5;") {
		t.Fatalf("lock fix edit: %+v", lock.Edit)
	}
	if want, h := "**Fix (checked by augur):** Hold bank around", c.hover(path, line, 2); !strings.Contains(h, want) {
		t.Errorf("hover lacks %q:\n%s", want, h)
	}

	// The Races view's command: the diagnostic says the race has a fix,
	// and applyFix asks the client to apply it.
	for _, d := range raceDiags(c.diagnostics(path)) {
		var data struct {
			Fix string `json:"fix"`
		}
		json.Unmarshal(d.Data, &data)
		if !strings.HasPrefix(data.Fix, "Hold bank around") {
			t.Errorf("diagnostic data without its fix: %s", d.Data)
		}
	}
	args, _ := json.Marshal(mustRaceID(t, c, path, line))
	var applied struct {
		Applied bool   `json:"applied"`
		Title   string `json:"title"`
	}
	if err := c.call("workspace/executeCommand", map[string]any{"command": "augur.server.applyFix",
		"arguments": []json.RawMessage{args}}, &applied); err != nil || !applied.Applied || !strings.HasPrefix(applied.Title, "Hold bank") {
		t.Fatalf("applyFix: %v, %+v", err, applied)
	}
	c.mu.Lock()
	sent := false
	for _, r := range c.requests {
		sent = sent || r.Method == "workspace/applyEdit" && strings.Contains(string(r.Params), `\tpthread_mutex_lock(`) &&
			strings.Contains(string(r.Params), `bank);\n\tbalance += 5;`)
	}
	c.mu.Unlock()
	if !sent {
		t.Error("applyFix sent no workspace/applyEdit with the lock")
	}

	// Apply the edit as the editor does, save: no race on balance.
	src, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(src), "\n")
	lines[line] = edits[0].NewText
	c.save(path, strings.Join(lines, ""))
	c.waitAnalyses(2)
	if ds := raceDiags(c.diagnostics(path)); len(ds) != 0 {
		t.Errorf("races after the fix: %+v", ds)
	}

	other := filepath.Join(root, "lock_order.c")
	c.open(other)
	c.waitAnalyses(3)
	bad := lineOf(t, other, "moved += 1;")
	if a := findAction(c.codeActions(other, bad), "Fix: Hold from_lock"); a != nil {
		t.Errorf("a fix that deadlocks is offered: %+v", a)
	}
	for _, l := range []int{bad, lineOf(t, other, "moved += 7;")} {
		if findAction(c.codeActions(other, l), "Fix: Hold to_lock") == nil {
			t.Errorf("the fix that keeps the lock order is not offered on line %d", l+1)
		}
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// A harmless race that follows a benign pattern names it in its hover,
// with the evidence.
func TestBenignPatternInHover(t *testing.T) {
	root := workspaceWith(t, "classify/redundant_write.c")
	path := filepath.Join(root, "redundant_write.c")
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	h := c.hover(path, lineOf(t, path, "initialized = 1;"), 2)
	if want := "- **Benign pattern — redundant-write:** both accesses store 1 into initialized (redundant_write.c:9, in two threads)"; !strings.Contains(h, want) {
		t.Errorf("hover lacks %q:\n%s", want, h)
	}
}

// hover returns the Markdown of the hover at a position (0-based).
func (c *client) hover(path string, line, col int) string {
	c.t.Helper()
	var h struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	if err := c.call("textDocument/hover", pos(path, line, col), &h); err != nil {
		c.t.Fatal(err)
	}
	return h.Contents.Value
}
