package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func TestUTF16Columns(t *testing.T) {
	line := "\tс = \"😀\"; x++;" // Cyrillic (2 bytes, 1 unit) and an emoji (4 bytes, 2 units)
	b := strings.Index(line, "x")
	u := utf16Col(line, b)
	if u != 11 {
		t.Errorf("utf16Col = %d, want 11", u)
	}
	if back := byteCol(line, u); back != b {
		t.Errorf("byteCol(%d) = %d, want %d", u, back, b)
	}
}

// Edits that add or remove lines move later lines; edits inside a line
// move nothing; a line inside a replaced region goes to its start.
func TestDocumentLineMap(t *testing.T) {
	d := newDocument("/a.c", 1, "a\nb\nc\nd\ne\n")
	d.saved()
	at := func(l1, c1, l2, c2 uint32, text string) {
		t.Helper()
		err := d.applyChange(&protocol.TextDocumentContentChangePartial{
			Range: protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}},
			Text:  text})
		if err != nil {
			t.Fatal(err)
		}
	}
	at(0, 0, 0, 0, "// new\n// lines\n") // two lines above everything
	at(3, 1, 3, 1, "x")                  // typing inside old line b... now line 3
	if got := d.mapLine(4, d.savedSeq); got != 6 {
		t.Errorf("old line 4 is now %d, want 6", got)
	}
	at(4, 0, 6, 0, "") // delete old lines c and d (now 4 and 5)
	if got := d.mapLine(4, d.savedSeq); got != 4 {
		t.Errorf("old line 4 (e) is now %d, want 4", got)
	}
	if got := d.mapLine(3, d.savedSeq); got != 4 {
		t.Errorf("deleted old line 3 is now %d, want the region start 4", got)
	}
	if d.text != "// new\n// lines\na\nbx\ne\n" {
		t.Errorf("text = %q", d.text)
	}
	d.saved()
	if got := d.mapLine(4, d.savedSeq); got != 4 {
		t.Errorf("after save, line 4 maps to %d", got)
	}
}

// A whole-document change (a formatter, a reload from disk) moves lines by
// what the texts share, not to the top: lines kept stay findable.
func TestWholeDocumentChangeMapsLines(t *testing.T) {
	d := newDocument("/a.c", 1, "a\nb\nc\nd\ne\nf\n")
	d.saved()
	whole := func(text string) {
		t.Helper()
		if err := d.applyChange(&protocol.TextDocumentContentChangeWholeDocument{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	// Two lines inserted at the top, c deleted, e rewritten, a line added
	// after f.
	whole("x\ny\na\nb\nd\nE\nf\ng\n")
	for old, want := range map[int]int{0: 2, 1: 3, 3: 4, 5: 6, 2: 4} {
		if got := d.mapLine(old, d.savedSeq); got != want {
			t.Errorf("old line %d is now %d, want %d", old, got, want)
		}
	}
	// The same text again moves nothing.
	d.saved()
	whole(d.text)
	if got := d.mapLine(5, d.savedSeq); got != 5 {
		t.Errorf("an identical text moved line 5 to %d", got)
	}
}

func TestDiffLines(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     []hunk
	}{
		{"a\nb\nc", "a\nb\nc", nil},
		{"a\nb\nc", "a\nX\nb\nc", []hunk{{1, 1, 1, 2}}},
		{"a\nb\nc", "a\nc", []hunk{{1, 2, 1, 1}}},
		{"a\nb\nc\nd", "a\nB\nc\nD", []hunk{{1, 2, 1, 2}, {3, 4, 3, 4}}},
		{"", "a\nb", []hunk{{0, 1, 0, 2}}}, // an empty document has one empty line
	} {
		got := diffLines(splitLines(c.old), splitLines(c.new))
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("diff %q -> %q = %v, want %v", c.old, c.new, got, c.want)
		}
	}
}

func TestShortPaths(t *testing.T) {
	in := "When release (testdata/classify/double_free.c:11) runs before release (/abs/dir/double_free.c:13), the program fails: double free of heap object allocated at src/x.cpp:19:8."
	want := "When release (double_free.c:11) runs before release (double_free.c:13), the program fails: double free of heap object allocated at x.cpp:19:8."
	if got := shortPaths(in); got != want {
		t.Errorf("shortPaths:\n got %s\nwant %s", got, want)
	}
}
