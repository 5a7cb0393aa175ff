package lsp_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Races between the same two statements that differ only in the call
// paths that reach them show once: one diagnostic on the read and one on
// the write, each saying how many more races it stands for, the same in
// the hover, and one set of code lenses on the line. call_paths.c bumps a
// counter through three functions, which is several races on one line.
func TestRacesThroughOtherCallPathsShowOnce(t *testing.T) {
	c, path := analyzed(t, "call_paths.c")
	var line int
	for l := range expectations(t, path) {
		line = l
	}
	var onLine []Diagnostic
	for _, d := range raceDiags(c.diagnostics(path)) {
		if d.Range.Start.Line == line {
			onLine = append(onLine, d)
		}
	}
	if len(onLine) != 2 || onLine[0].Range == onLine[1].Range {
		t.Fatalf("line %d has %d race diagnostics, want 2 (the read and the write): %+v", line+1, len(onLine), onLine)
	}
	stands := regexp.MustCompile(`It stands for (\d+) more races? between the same two statements, reached through other call paths\.`)
	for _, d := range onLine {
		m := stands.FindStringSubmatch(d.Message)
		if m == nil {
			t.Fatalf("diagnostic at column %d does not say what it stands for: %s", d.Range.Start.Character, d.Message)
		}
		if n, _ := strconv.Atoi(m[1]); n < 1 {
			t.Errorf("stands for %d more races", n)
		}
		if d.Code != "k-witness-harmless" {
			t.Errorf("category %q, want k-witness-harmless", d.Code)
		}
		h := c.hover(path, line, int(d.Range.Start.Character))
		if !stands.MatchString(h) {
			t.Errorf("the hover at column %d does not say what it stands for:\n%s", d.Range.Start.Character, h)
		}
	}
	var lenses []codeLens
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &lenses); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range lenses {
		key := fmt.Sprintf("%d %s", l.Range.Start.Line, l.Command.Title)
		if seen[key] {
			t.Errorf("lens %q repeats on line %d", l.Command.Title, l.Range.Start.Line+1)
		}
		seen[key] = true
		if strings.Contains(l.Command.Title, " · ") {
			t.Errorf("lens %q names a race, as if several were on its line", l.Command.Title)
		}
	}
}
