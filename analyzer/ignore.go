package analyzer

import (
	"bytes"

	"augur/internal/safefile"

	"augur/analyzer/detect/race"
)

// IgnoreMarker silences a race when it appears in a comment on the line of
// either racing access: `x++; // augur:ignore`.
const IgnoreMarker = "augur:ignore"

// sourceText reads the program's sources once each, for what the analysis
// takes from their text beside the compiler: the ignore markers, and the
// names of racing memory (names.go).
type sourceText struct {
	read  func(string) ([]byte, error)
	lines map[string][][]byte
}

func newSourceText(read func(string) ([]byte, error)) *sourceText {
	return &sourceText{read: SourceReader(read), lines: map[string][][]byte{}}
}

// SourceReader is read, or when it is nil a reader of source files from
// disk within the size a source may have: what the analysis reads of the
// sources beside the compiler (ignore markers, fixes) goes through it.
func SourceReader(read func(string) ([]byte, error)) func(string) ([]byte, error) {
	if read != nil {
		return read
	}
	return func(path string) ([]byte, error) {
		return safefile.Read(path, safefile.Rules{Max: safefile.MaxSource})
	}
}

// silences reports whether either access line of r carries the marker.
func (ig *sourceText) silences(r *race.Race) bool {
	return ig.marked(r.First.Loc.File, r.First.Loc.Line) || ig.marked(r.Second.Loc.File, r.Second.Loc.Line)
}

func (ig *sourceText) marked(file string, line int) bool {
	return HasIgnoreMarker(ig.line(file, line))
}

// line returns the 1-based line n of file, nil when the file cannot be
// read or has no such line (an unreadable file silences nothing).
func (ig *sourceText) line(file string, n int) []byte {
	lines, ok := ig.lines[file]
	if !ok {
		data, err := ig.read(file)
		if err == nil {
			lines = bytes.Split(data, []byte("\n"))
		}
		ig.lines[file] = lines
	}
	if n < 1 || n > len(lines) {
		return nil
	}
	return lines[n-1]
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

// Reignore applies the `augur:ignore` comments as they are now (read
// through read, nil for the disk) to a result carried over to an
// unchanged program: races newly silenced leave it. ok is false when a
// race silenced before no longer is: it was never classified, so the
// result cannot stand in for a new analysis.
func (res *Result) Reignore(read func(string) ([]byte, error)) (out *Result, ok bool) {
	ig := newSourceText(read)
	for _, r := range res.Ignored {
		if !ig.silences(r) {
			return nil, false
		}
	}
	c := *res
	c.Races, c.Verdicts, c.Evidence = nil, nil, nil
	c.Ignored = append([]*race.Race(nil), res.Ignored...)
	for i, r := range res.Races {
		if ig.silences(r) {
			c.Ignored = append(c.Ignored, r)
			continue
		}
		c.Races = append(c.Races, r)
		c.Verdicts = append(c.Verdicts, res.Verdicts[i])
		c.Evidence = append(c.Evidence, res.Evidence[i])
	}
	return &c, true
}
