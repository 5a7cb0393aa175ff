package fix

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// joinCall is a statement that joins a thread, alone on its line.
var joinCall = regexp.MustCompile(`^\s*pthread_join\s*\(.*\)\s*;\s*(//.*)?$`)

// joinFixes proposes, for each access that is a statement of its own,
// moving the first pthread_join after it in the same block up to just
// before it: a thread's result read (or its memory freed) before the
// join that orders it. Which thread the join waits for is for the
// verification to tell: a join of another thread leaves the race.
func joinFixes(r Race, read func(string) ([]byte, error)) []Fix {
	var out []Fix
	for _, p := range [][2]Access{{r.A, r.B}, {r.B, r.A}} {
		use, other := p[0], p[1]
		if use.File == other.File && use.Line == other.Line {
			continue
		}
		lines, err := fileLines(read, use.File)
		if err != nil || !wrappable(lines, use.Line) {
			continue
		}
		j := joinAfter(lines, use.Line)
		if j == 0 {
			continue
		}
		join := indentOf(lines[use.Line-1]) + strings.TrimSpace(lines[j-1])
		moved := append([]string{join}, lines[use.Line-1:j-1]...)
		out = append(out, Fix{Kind: Join,
			Title: fmt.Sprintf("Join before the access to %s in %s (%s:%d): move %s up from line %d", r.Object, use.Function,
				filepath.Base(use.File), use.Line, code(lines[j-1]), j),
			Edits: []Edit{{File: use.File, Line: use.Line, Old: append([]string(nil), lines[use.Line-1:j]...), New: moved}}})
	}
	return out
}

// joinAfter finds the first pthread_join statement after line n (1-based)
// in n's block, before the block closes; 0 when there is none or a
// nested block or a jump comes between (the join would then not always
// run where it stood).
func joinAfter(lines []string, n int) int {
	depth := 0
	for i := n; i < len(lines); i++ {
		c := code(lines[i])
		if depth == 0 && joinCall.MatchString(lines[i]) {
			return i + 1
		}
		if notStatement.MatchString(c) {
			return 0
		}
		depth += strings.Count(c, "{") - strings.Count(c, "}")
		if depth != 0 {
			return 0
		}
	}
	return 0
}
