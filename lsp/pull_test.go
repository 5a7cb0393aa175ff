package lsp_test

import (
	"path/filepath"
	"testing"

	"augur/lsp"
)

// pullReport is a textDocument/diagnostic answer.
type pullReport struct {
	Kind     string       `json:"kind"`
	ResultID string       `json:"resultId"`
	Items    []Diagnostic `json:"items"`
}

// pull asks for path's diagnostics, giving the last result id (or "").
func (c *client) pull(path, previous string) pullReport {
	c.t.Helper()
	params := map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}
	if previous != "" {
		params["previousResultId"] = previous
	}
	var r pullReport
	if err := c.call("textDocument/diagnostic", params, &r); err != nil {
		c.t.Fatalf("textDocument/diagnostic: %v", err)
	}
	return r
}

// refreshes counts the server's workspace/diagnostic/refresh requests.
// Caller holds mu (waitFor's conditions do).
func (c *client) refreshes() int {
	n := 0
	for _, m := range c.requests {
		if m.Method == "workspace/diagnostic/refresh" {
			n++
		}
	}
	return n
}

// A client that pulls diagnostics gets an open document's races by pull
// only, never pushed as well (VS Code would show them twice); it is asked
// to pull again when an analysis changes them; an unchanged set is
// answered "unchanged"; and a closed document's races are pushed again,
// since no one pulls them.
func TestPullDiagnostics(t *testing.T) {
	root := workspaceWith(t, "retire.c")
	path := filepath.Join(root, "retire.c")
	c := newClient(t, root)
	c.pulls = true
	startClient(t, c, nil)
	if p, ok := c.caps["diagnosticProvider"].(map[string]any); !ok || p["interFileDependencies"] != true {
		t.Fatalf("diagnosticProvider %v, want interFileDependencies", c.caps["diagnosticProvider"])
	}
	c.open(path)
	first := c.pull(path, "")
	c.waitAnalyses(1)
	if len(raceDiags(first.Items)) < 4 {
		// The first pull came before the analysis ended: the server
		// must ask for another.
		c.waitFor("a diagnostic refresh", func() bool { return c.refreshes() > 0 })
	}
	t.Logf("first pull: %d race diagnostics; refreshes %d", len(raceDiags(first.Items)), func() int { c.mu.Lock(); defer c.mu.Unlock(); return c.refreshes() }())
	full := c.pull(path, first.ResultID)
	if full.Kind != "full" || len(raceDiags(full.Items)) != 4 || full.ResultID == "" {
		t.Fatalf("pull after the analysis: kind %q, %d race diagnostics, id %q; want full, 4", full.Kind, len(raceDiags(full.Items)), full.ResultID)
	}
	for _, d := range raceDiags(full.Items) {
		if d.CodeDescription == nil || len(d.RelatedInformation) == 0 {
			t.Errorf("pulled diagnostic lacks codeDescription or related information: %+v", d)
		}
	}
	if again := c.pull(path, full.ResultID); again.Kind != "unchanged" || again.ResultID != full.ResultID {
		t.Errorf("pull with the current id: kind %q id %q, want unchanged %q", again.Kind, again.ResultID, full.ResultID)
	}
	if pushed := c.diagnostics(path); len(pushed) != 0 {
		t.Errorf("an open, pulled document's diagnostics were pushed too: %d", len(pushed))
	}

	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}})
	c.waitFor("the closed file's races pushed", func() bool { return len(raceDiags(c.diags[fileURI(path)])) == 4 })
	if got := c.shutdown(); got != 0 {
		t.Errorf("exit status %d", got)
	}
}

// A file closed while its first analysis runs (VS Code's preview tabs
// close files this way) still gets its races when the analysis ends,
// pushed since no one pulls them, whether or not the client pulls. The
// analysis is held before it builds until the server has handled the
// close, so the close always lands while it runs: retire.c's analysis
// takes half a second, less than a busy machine may take to send it.
func TestClosedDuringFirstAnalysis(t *testing.T) {
	for _, pulls := range []bool{false, true} {
		t.Run(map[bool]string{false: "push", true: "pull"}[pulls], func(t *testing.T) {
			root := workspaceWith(t, "retire.c")
			path := filepath.Join(root, "retire.c")
			closed := make(chan struct{})
			c := newClient(t, root)
			c.pulls = pulls
			startInProcessClient(t, c, nil, lsp.Options{BeforeAnalysis: func(string) { <-closed }})
			c.open(path)
			c.waitFor("the analysis to start", func() bool { return len(c.progress) > 0 })
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}})
			// The server handles messages in order: once a later request
			// is answered, the close was handled.
			c.call("textDocument/hover", pos(path, 1, 0), nil)
			close(closed)
			c.waitAnalyses(1)
			c.waitFor("the closed file's races pushed", func() bool { return len(raceDiags(c.diags[fileURI(path)])) == 4 })
			if got := c.shutdown(); got != 0 {
				t.Errorf("exit status %d", got)
			}
		})
	}
}
