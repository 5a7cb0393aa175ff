package fix

import (
	"regexp"
	"slices"
	"strings"
)

// Access is one of a race's two accesses, as the proposals need it.
type Access struct {
	File     string
	Line     int
	Col      int // of the access's expression, 0 when unknown
	Function string
	Kind     string   // "read", "write", ...
	Locks    []string // the mutexes its thread held, by name
	// LockedAt are where the thread took each of Locks, in the program's
	// sources (the zero Place when the detector did not see it there).
	LockedAt []Place
}

// Place is a position in a source file.
type Place struct {
	File      string
	Line, Col int
}

// Race is what the proposals need of a race.
type Race struct {
	// Object names the memory; Global is set when it is the whole of
	// the global variable of that name, declared in one of Sources.
	Object  string
	Global  bool
	Sources []string
	A, B    Access
	// SpinAt is where a thread spun on a flag until the other thread went
	// first, when one did (ad hoc synchronization; FlagFixes).
	SpinAt Place
	// Others are the accesses of the analysis's other races on the same
	// object: a thread that reads it, computes and writes it back races
	// at each of those statements, and a lock must hold across them all.
	Others []Access
}

// Propose returns the fixes that could remove r, unverified: joining the
// thread before the use and publishing after initializing first (an
// access was simply too early), then the lock (which keeps the
// program's design), then the atomic (which changes every access to the
// variable), then the atomic with a read-modify-write region rewritten
// as one atomic update (which changes the code too).
func Propose(r Race, read func(string) ([]byte, error)) []Fix {
	out := joinFixes(r, read)
	out = append(out, publishFixes(r, read)...)
	out = append(out, lockFixes(r, read)...)
	out = append(out, atomicFixes(r, read)...)
	out = append(out, rmwFixes(r, read)...)
	return sorted(out)
}

// sorted puts each fix's edits in order: Apply, Diff and MapLine take a
// file's edits in line order.
func sorted(fs []Fix) []Fix {
	for i := range fs {
		slices.SortStableFunc(fs[i].Edits, func(a, b Edit) int {
			if c := strings.Compare(a.File, b.File); c != 0 {
				return c
			}
			return a.Line - b.Line
		})
	}
	return fs
}

// indentOf is the leading blanks of line.
func indentOf(line string) string { return line[:len(line)-len(strings.TrimLeft(line, " \t"))] }

var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func fileLines(read func(string) ([]byte, error), path string) ([]string, error) {
	src, err := read(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n"), nil
}

// notStatement are the words a line that cannot be wrapped in a lock
// starts with: control flow (a return would leave the lock held) and
// lines that are part of a larger statement.
var notStatement = regexp.MustCompile(`^(return|break|continue|goto|case|default|else|if|for|while|do|switch|#)\b`)

// wrappable reports whether line n (1-based) is a whole statement on its
// own line that a lock and an unlock can be put around: it ends with a
// semicolon, opens or closes no block, is no control flow, and does not
// continue a statement or the body of an if or a loop without braces.
func wrappable(lines []string, n int) bool {
	if n < 1 || n > len(lines) {
		return false
	}
	t := code(lines[n-1])
	if !strings.HasSuffix(t, ";") || strings.ContainsAny(t, "{}") || notStatement.MatchString(t) ||
		strings.Count(t, "(") != strings.Count(t, ")") {
		return false
	}
	for i := n - 2; i >= 0; i-- {
		p := code(lines[i])
		if p == "" {
			continue
		}
		return strings.HasSuffix(p, ";") || strings.HasSuffix(p, "{") || strings.HasSuffix(p, "}") ||
			strings.HasPrefix(p, "#") || strings.HasSuffix(lines[i], "*/")
	}
	return true
}

// code is a line without its indentation and a trailing comment: // to
// the end of the line, or /* that closes at the end of the line or does
// not close on it (a // or /* inside a string or character literal is no
// comment).
func code(line string) string {
	at := 0
	for _, sg := range segments(line) {
		if sg.literal {
			at += len(sg.text)
			continue
		}
		i, j := strings.Index(sg.text, "//"), strings.Index(sg.text, "/*")
		if i >= 0 && (j < 0 || i < j) {
			return strings.TrimSpace(line[:at+i])
		}
		if j >= 0 {
			rest := line[at+j+2:]
			if k := strings.Index(rest, "*/"); k < 0 || strings.TrimSpace(rest[k+2:]) == "" {
				return strings.TrimSpace(line[:at+j])
			}
		}
		at += len(sg.text)
	}
	return strings.TrimSpace(line)
}

// segment is a run of a line: a string or character literal (quotes
// included) or the code between literals.
type segment struct {
	text    string
	literal bool
	closed  bool // a literal's closing quote is in text
}

// segments cuts line into code and literals; an unterminated literal
// runs to the end of the line.
func segments(line string) []segment {
	var out []segment
	start := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0 && c == '\\':
			i++ // an escaped character
		case quote != 0 && c == quote:
			out = append(out, segment{line[start : i+1], true, true})
			quote, start = 0, i+1
		case quote == 0 && (c == '"' || c == '\''):
			out = append(out, segment{line[start:i], false, false})
			quote, start = c, i
		}
	}
	return append(out, segment{line[start:], quote != 0, false})
}

// rewrite returns line with its code runs passed through code and its
// literals through literal.
func rewrite(line string, code, literal func(segment) string) string {
	var b strings.Builder
	for _, sg := range segments(line) {
		if sg.literal {
			b.WriteString(literal(sg))
		} else {
			b.WriteString(code(sg))
		}
	}
	return b.String()
}

// outsideLiterals applies f to the parts of line outside string and
// character literals and returns the line with them replaced.
func outsideLiterals(line string, f func(string) string) string {
	return rewrite(line, func(sg segment) string { return f(sg.text) }, func(sg segment) string { return sg.text })
}

// stripLiterals is line with its string and character literals emptied
// (their quotes kept).
func stripLiterals(line string) string {
	return rewrite(line, func(sg segment) string { return sg.text }, func(sg segment) string {
		if sg.closed {
			return sg.text[:1] + sg.text[len(sg.text)-1:]
		}
		return sg.text[:1]
	})
}
