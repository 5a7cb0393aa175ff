package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

type codeLens struct {
	Range   Range `json:"range"`
	Command struct {
		Title     string            `json:"title"`
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

// Code lenses sit on the racing lines of races with evidence, one per
// command that shows it, and on the line of a failure some schedule
// reached; the server asks for them again after an analysis, and a lens's
// command runs as it is.
func TestCodeLensesOnRacingLines(t *testing.T) {
	c, path := analyzed(t, "retire.c")
	var lenses []codeLens
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &lenses); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lenses {
		got = append(got, fmt.Sprintf("%d %s", l.Range.Start.Line+1, l.Command.Title))
	}
	sort.Strings(got)
	want := []string{
		"27 Replay evidence",
		"27 Show interleaving",
		"28 Replay evidence",
		"28 Show interleaving",
		"32 Replay evidence",
		"32 Show interleaving",
		"35 Replay evidence (2)",
		"35 Show interleaving (2)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lenses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	c.mu.Lock()
	refreshed := false
	for _, r := range c.requests {
		refreshed = refreshed || r.Method == "workspace/codeLens/refresh"
	}
	c.mu.Unlock()
	if !refreshed {
		t.Error("the server never asked the client to refresh its code lenses")
	}
	// Line 35 holds a race and a failure: its lenses stand for both, and
	// running one asks which (window/showMessageRequest).
	run := func(title, choose string) (res struct {
		Transcript string `json:"transcript"`
		Reproduced bool   `json:"reproduced"`
	}) {
		t.Helper()
		c.mu.Lock()
		c.choose = choose
		c.mu.Unlock()
		for _, l := range lenses {
			if l.Range.Start.Line+1 == 35 && l.Command.Title == title {
				if err := c.call("workspace/executeCommand", map[string]any{"command": l.Command.Command,
					"arguments": l.Command.Arguments}, &res); err != nil {
					t.Fatal(err)
				}
				return res
			}
		}
		t.Fatalf("no lens %q on line 35", title)
		return res
	}
	res := run("Replay evidence (2)", "(spec-violated)")
	if data, err := os.ReadFile(res.Transcript); err != nil || !res.Reproduced || !strings.Contains(string(data), "use after free") {
		t.Errorf("replay of the race from the line's lens: %+v %v\n%.1500s", res, err, data)
	}
	res = run("Show interleaving (2)", "memory-error")
	page, err := os.ReadFile(res.Transcript)
	if err != nil || !res.Reproduced || !strings.Contains(string(page), "How the program reaches the crash at retire.c:35") {
		t.Errorf("the failure's timeline: %+v %v\n%.1500s", res, err, page)
	}
	c.mu.Lock()
	var asked []string
	for _, r := range c.requests {
		if r.Method == "window/showMessageRequest" {
			asked = append(asked, string(r.Params))
		}
	}
	c.mu.Unlock()
	if len(asked) != 2 || !strings.Contains(asked[0], "which one?") || !strings.Contains(asked[0], "(spec-violated)") {
		t.Errorf("the server asked %q", asked)
	}
	if res = run("Replay evidence (2)", ""); res.Transcript != "" {
		t.Errorf("a choice the user dismissed replayed %s", res.Transcript)
	}

	// A lens drawn before the last analysis names a race it no longer
	// has: the command says so as information, answers null rather than
	// an error, and asks the client to draw the lenses again; with a race
	// that is still there beside it, that one is shown without asking.
	lensRefreshes := func() (n int) { // called with c.mu held
		for _, r := range c.requests {
			if r.Method == "workspace/codeLens/refresh" {
				n++
			}
		}
		return n
	}
	c.mu.Lock()
	before := lensRefreshes()
	c.mu.Unlock()
	var gone json.RawMessage
	if err := c.call("workspace/executeCommand", map[string]any{"command": lenses[0].Command.Command,
		"arguments": []string{"0123456789ab"}}, &gone); err != nil {
		t.Fatalf("a gone race's lens: %v", err)
	}
	if string(gone) != "null" {
		t.Errorf("a gone race's lens answered %s, want null", gone)
	}
	c.waitFor("the code lenses' refresh", func() bool { return lensRefreshes() > before })
	c.waitFor("the message that the race is gone", func() bool {
		return strings.Contains(strings.Join(c.logs, "\n"), "that race is gone since the last save")
	})
	var one struct {
		Transcript string `json:"transcript"`
	}
	args := append([]json.RawMessage{json.RawMessage(`"0123456789ab"`)}, lenses[0].Command.Arguments...)
	if err := c.call("workspace/executeCommand", map[string]any{"command": lenses[0].Command.Command,
		"arguments": args}, &one); err != nil || one.Transcript == "" {
		t.Errorf("a lens for a gone race and one still there: %+v %v", one, err)
	}
}
