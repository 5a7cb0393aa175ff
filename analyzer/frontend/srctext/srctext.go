// Package srctext reads the program's sources as text, for what the
// analysis takes from them beside the compiler: the `augur:ignore`
// comments that silence a race, and the lines whose expressions name
// racing memory and whose statements a fix rewrites.
package srctext

import (
	"bytes"

	"augur/analyzer/frontend/ir"
	"augur/internal/safefile"
)

// IgnoreMarker silences a race when it appears in a comment on the line of
// either racing access: `x++; // augur:ignore`.
const IgnoreMarker = "augur:ignore"

// Reader is read, or when it is nil a reader of source files from disk
// within the size a source may have: what the analysis reads of the
// sources beside the compiler goes through it, so that the editor's
// unsaved buffers are what it reads.
func Reader(read func(string) ([]byte, error)) func(string) ([]byte, error) {
	if read != nil {
		return read
	}
	return func(path string) ([]byte, error) {
		return safefile.Read(path, safefile.Rules{Max: safefile.MaxSource})
	}
}

// Text reads each source once, split into lines.
type Text struct {
	read  func(string) ([]byte, error)
	lines map[string][][]byte
}

// New returns a Text that reads sources through read (nil: the disk,
// as Reader).
func New(read func(string) ([]byte, error)) *Text {
	return &Text{read: Reader(read), lines: map[string][][]byte{}}
}

// Line returns the 1-based line n of file, nil when the file cannot be
// read or has no such line.
func (t *Text) Line(file string, n int) []byte {
	lines, ok := t.lines[file]
	if !ok {
		data, err := t.read(file)
		if err == nil {
			lines = bytes.Split(data, []byte("\n"))
		}
		t.lines[file] = lines
	}
	if n < 1 || n > len(lines) {
		return nil
	}
	return lines[n-1]
}

// Silenced reports whether any of the locations' lines carries the ignore
// marker: a race is silenced by a marker at either of its accesses. A
// file that cannot be read silences nothing.
func (t *Text) Silenced(locs ...ir.Loc) bool {
	for _, l := range locs {
		if HasIgnoreMarker(t.Line(l.File, l.Line)) {
			return true
		}
	}
	return false
}

// HasIgnoreMarker reports whether a source line carries the ignore marker
// inside a comment.
func HasIgnoreMarker(line []byte) bool {
	i := bytes.Index(line, []byte(IgnoreMarker))
	if i < 0 {
		return false
	}
	before := line[:i]
	return bytes.Contains(before, []byte("//")) || bytes.Contains(before, []byte("/*"))
}
