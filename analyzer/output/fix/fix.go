// Package fix proposes source changes that remove a data race: join the
// thread before its result is used, publish a pointer after filling what
// it points to, take the lock that already guards the other access, or
// make the variable atomic.
// It only writes the change; whether the change works is for the
// analysis to decide by analyzing the changed program (analyzer/output/fixcheck
// verifies it), so a proposal here is a candidate, not a suggestion.
//
// Edits are by whole lines, on sources as the developer wrote them: the
// proposals recognize a few shapes of C they can change safely (a
// one-line statement, a one-line declaration of a scalar global) and
// propose nothing elsewhere.
package fix

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Kind is what a fix does.
type Kind string

const (
	// Join moves a pthread_join that comes after one of the accesses up
	// to just before it: the thread is joined before its result is used.
	Join Kind = "join"
	// Publish moves the statement that publishes a pointer below the
	// stores that fill the object it points to.
	Publish Kind = "publish"
	// Lock wraps the unguarded access's statement in the mutex the other
	// access held.
	Lock Kind = "lock"
	// Atomic makes the variable atomic (_Atomic in C): every access to it
	// becomes an atomic one, and ++ or += an atomic read-modify-write.
	Atomic Kind = "atomic"
)

// Edit replaces lines [Line, Line+len(Old)) of File (1-based) with New.
type Edit struct {
	File string
	Line int
	Old  []string
	New  []string
}

// Fix is one proposed change and, once verified, what the verification
// found.
type Fix struct {
	Kind  Kind
	Title string
	Edits []Edit // by file, then line (Propose sorts them)
	// Verified is set when the changed program was analyzed with the
	// same settings and the race was gone with nothing new in its place;
	// Checked says what that analysis ran and found, in a sentence.
	Verified bool
	Checked  string
	// Refused says why the fix of this kind cannot be made (the mutex
	// cannot be named where the race is, the region would block with it
	// held); such a fix has no edits and is never verified.
	Refused string
}

// Apply returns src with the fix's edits to path applied, or an error
// when the lines it replaces are no longer there.
func (f *Fix) Apply(path string, src []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	// Later lines first, so earlier line numbers stay right.
	for i := len(f.Edits) - 1; i >= 0; i-- {
		e := f.Edits[i]
		if e.File != path {
			continue
		}
		if e.Line < 1 || e.Line-1+len(e.Old) > len(lines) {
			return nil, fmt.Errorf("%s:%d: the fix's lines are past the end of the file", path, e.Line)
		}
		for j, old := range e.Old {
			if strings.TrimRight(lines[e.Line-1+j], "\r\n") != old {
				return nil, fmt.Errorf("%s:%d: the file changed since the fix was made", path, e.Line+j)
			}
		}
		repl := make([]string, len(e.New))
		for j, l := range e.New {
			repl[j] = l + "\n"
		}
		lines = append(lines[:e.Line-1], append(repl, lines[e.Line-1+len(e.Old):]...)...)
	}
	return []byte(strings.Join(lines, "")), nil
}

// MapLine returns where line (1-based) of file is once the fix is
// applied: moved down or up by the edits above it, and within an edit to
// where its text went (the first line of the edit when its text is gone).
func (f *Fix) MapLine(file string, line int) int {
	shift := 0
	for _, e := range f.Edits {
		if e.File != file {
			continue
		}
		switch {
		case line < e.Line:
			return line + shift
		case line < e.Line+len(e.Old):
			old := e.Old[line-e.Line]
			for j, n := range e.New {
				if n == old {
					return e.Line + shift + j
				}
			}
			return e.Line + shift
		}
		shift += len(e.New) - len(e.Old)
	}
	return line + shift
}

// Files are the files the fix changes, in the order its edits name them.
func (f *Fix) Files() []string {
	var out []string
	for _, e := range f.Edits {
		if len(out) == 0 || out[len(out)-1] != e.File {
			out = append(out, e.File)
		}
	}
	return out
}

// Diff is the fix as a unified diff with the paths as they are named
// relative to dir (so that `patch -p0` applies it in dir), three lines of
// context around each edit.
func (f *Fix) Diff(dir string, read func(string) ([]byte, error)) (string, error) {
	var b strings.Builder
	for _, file := range f.Files() {
		src, err := read(file)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", file, err)
		}
		name := relative(dir, file)
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", name, name)
		lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
		var edits []Edit
		for _, e := range f.Edits {
			if e.File == file {
				edits = append(edits, e)
			}
		}
		writeHunks(&b, lines, edits)
	}
	return b.String(), nil
}

const context = 3

// writeHunks writes a file's edits (in line order) as hunks with three
// lines of context, one hunk for edits whose contexts touch, as patch
// requires.
func writeHunks(b *strings.Builder, lines []string, edits []Edit) {
	shift := 0 // lines the earlier hunks added
	for i := 0; i < len(edits); {
		start := max(1, edits[i].Line-context)
		j, end := i, 0
		for ; j < len(edits); j++ {
			e := edits[j]
			if j > i && e.Line-context > end+1 {
				break
			}
			end = min(len(lines), e.Line+len(e.Old)-1+context)
		}
		group := edits[i:j]
		oldN, newN := end-start+1, end-start+1
		for _, e := range group {
			newN += len(e.New) - len(e.Old)
		}
		fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", start, oldN, start+shift, newN)
		k := 0
		for l := start; l <= end; l++ {
			if k < len(group) && l == group[k].Line {
				for _, o := range group[k].Old {
					b.WriteString("-" + o + "\n")
				}
				for _, n := range group[k].New {
					b.WriteString("+" + n + "\n")
				}
				l += len(group[k].Old) - 1
				k++
				continue
			}
			b.WriteString(" " + lines[l-1] + "\n")
		}
		shift += newN - oldN
		i = j
	}
}

// relative names file from dir when it lies under it, else as given.
func relative(dir, file string) string {
	if dir == "" || !filepath.IsAbs(file) {
		return file
	}
	if r, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return file
}
