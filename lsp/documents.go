package lsp

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// document is an open file as the editor has it, with the line edits made
// since it was last saved, so diagnostics computed from the saved file
// can follow the code while the user types.
type document struct {
	path    string
	version int32
	text    string
	lines   []int // byte offset of each line's start
	// edits are the line-moving changes since seq 0, each with its
	// sequence number; savedSeq is the sequence number at the last open or
	// save, when the text equalled the file on disk.
	edits    []lineEdit
	seq      uint64
	savedSeq uint64
}

// lineEdit records that lines [start, end] (saved coordinates of the
// moment) were replaced by text spanning end-start+delta lines.
type lineEdit struct {
	seq        uint64
	start, end int
	delta      int
}

func newDocument(path string, version int32, text string) *document {
	d := &document{path: path, version: version}
	d.setText(text)
	return d
}

func (d *document) setText(text string) {
	d.text = text
	d.lines = d.lines[:0]
	d.lines = append(d.lines, 0)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
}

// line returns line n (0-based) without its newline.
func (d *document) line(n int) string {
	if n < 0 || n >= len(d.lines) {
		return ""
	}
	end := len(d.text)
	if n+1 < len(d.lines) {
		end = d.lines[n+1] - 1
	}
	return strings.TrimSuffix(d.text[d.lines[n]:end], "\r")
}

// offset converts an LSP position (UTF-16 units) to a byte offset.
func (d *document) offset(p protocol.Position) (int, error) {
	if int(p.Line) >= len(d.lines) {
		if int(p.Line) == len(d.lines) && p.Character == 0 {
			return len(d.text), nil
		}
		return 0, fmt.Errorf("position %d:%d is past the end of the document (%d lines)", p.Line, p.Character, len(d.lines))
	}
	start := d.lines[p.Line]
	return start + byteCol(d.line(int(p.Line)), int(p.Character)), nil
}

// applyChange applies one content change from didChange.
func (d *document) applyChange(ch protocol.TextDocumentContentChangeEvent) error {
	switch c := ch.(type) {
	case *protocol.TextDocumentContentChangeWholeDocument:
		// Formatters and reloads from disk send the whole text: how lines
		// moved is found by comparing the two texts line by line.
		d.seq++
		delta := 0 // lines the earlier hunks added, so each hunk is in the coordinates of the moment
		for _, h := range diffLines(splitLines(d.text), splitLines(c.Text)) {
			grow := (h.newEnd - h.newStart) - (h.oldEnd - h.oldStart)
			d.edits = append(d.edits, lineEdit{seq: d.seq, start: h.oldStart + delta, end: h.oldEnd + delta, delta: grow})
			delta += grow
		}
		d.setText(c.Text)
		return nil
	case *protocol.TextDocumentContentChangePartial:
		from, err := d.offset(c.Range.Start)
		if err != nil {
			return err
		}
		to, err := d.offset(c.Range.End)
		if err != nil {
			return err
		}
		if to < from {
			return fmt.Errorf("change range ends before it starts")
		}
		d.seq++
		removed := strings.Count(d.text[from:to], "\n")
		added := strings.Count(c.Text, "\n")
		if added != removed {
			d.edits = append(d.edits, lineEdit{seq: d.seq, start: int(c.Range.Start.Line),
				end: int(c.Range.End.Line), delta: added - removed})
		}
		d.setText(d.text[:from] + c.Text + d.text[to:])
		return nil
	}
	return fmt.Errorf("unknown content change %T", ch)
}

// saved marks the text as equal to the file on disk.
func (d *document) saved() {
	d.savedSeq = d.seq
}

// mapLine moves a 0-based line of the text as of sequence number since to
// where that line is now. A line wholly inside a replaced region goes to
// the region's start.
func (d *document) mapLine(line int, since uint64) int {
	for _, e := range d.edits {
		if e.seq <= since {
			continue
		}
		switch {
		case line > e.end:
			line += e.delta
		case line == e.end:
			line = e.end + e.delta // the rest of the end line follows the new text
		case line > e.start:
			line = e.start
		}
	}
	return max(line, 0)
}

// prune forgets edits no published diagnostic needs any more.
func (d *document) prune(oldest uint64) {
	i := 0
	for i < len(d.edits) && d.edits[i].seq <= oldest {
		i++
	}
	d.edits = d.edits[i:]
}

// utf16Col converts a byte column of a line to UTF-16 units.
func utf16Col(line string, b int) int {
	if b > len(line) {
		b = len(line)
	}
	n := 0
	for _, r := range line[:b] {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

// byteCol converts a UTF-16 column of a line to bytes.
func byteCol(line string, u int) int {
	n := 0
	for i, r := range line {
		if n >= u {
			return i
		}
		if r == utf8.RuneError {
			n++
			continue
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return len(line)
}
