package fix

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// joinCall is a statement that joins a thread, alone on its line:
// pthread_join, or a std::thread's join().
var joinCall = regexp.MustCompile(`^\s*(?:pthread_join\s*\(.*\)|[A-Za-z_][\w.\[\]>-]*\s*(?:\.|->)\s*join\s*\(\s*\))\s*;\s*(//.*)?$`)

// joins finds a join in a line of code.
var joins = regexp.MustCompile(`\bpthread_join\s*\(|(?:\.|->)\s*join\s*\(\s*\)`)

// callStatement is a statement that only calls a function: `finish(&c);`.
var callStatement = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*\(.*\)\s*;\s*(//.*)?$`)

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
		j := joinAfter(lines, use.Line, func(line string) bool {
			if joinCall.MatchString(line) {
				return true
			}
			// A call of a function of the program that joins: the join
			// happens where the handle is, in the callee.
			m := callStatement.FindStringSubmatch(line)
			return m != nil && joinsIn(r.Sources, read, m[1])
		})
		if j == 0 {
			continue
		}
		join := indentOf(lines[use.Line-1]) + strings.TrimSpace(lines[j-1])
		moved := append([]string{join}, lines[use.Line-1:j-1]...)
		out = append(out, Fix{Kind: Join,
			Title: fmt.Sprintf("Join before the access to %s in %s (%s:%d): move %s up from line %d%s", r.Object, use.Function,
				filepath.Base(use.File), use.Line, code(lines[j-1]), j, via(lines[j-1])),
			Edits: []Edit{{File: use.File, Line: use.Line, Old: append([]string(nil), lines[use.Line-1:j]...), New: moved}}})
	}
	return out
}

// joinAfter finds the first statement after line n (1-based) in n's
// block that joins (isJoin), before the block closes; 0 when there is
// none or a nested block or a jump comes between (the join would then
// not always run where it stood).
func joinAfter(lines []string, n int, isJoin func(string) bool) int {
	depth := 0
	for i := n; i < len(lines); i++ {
		c := code(lines[i])
		if depth == 0 && isJoin(lines[i]) {
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

// via says how a moved statement that is not a join itself joins.
func via(line string) string {
	if joinCall.MatchString(line) {
		return ""
	}
	return " (the function it calls joins the thread)"
}

// joinsIn reports whether the function name, defined once among the
// sources, joins a thread in its body.
func joinsIn(sources []string, read func(string) ([]byte, error), name string) bool {
	def := regexp.MustCompile(`^[A-Za-z_][\w\s*:<>,&]*\b` + regexp.QuoteMeta(name) + `\s*\([^)]*\)\s*(?:const\s*)?(?:\{.*)?$`)
	found := 0
	joined := false
	for _, file := range sources {
		lines, err := fileLines(read, file)
		if err != nil {
			continue
		}
		for i := 0; i < len(lines); i++ {
			if !def.MatchString(code(lines[i])) {
				continue
			}
			found++
			depth, opened := 0, false
			for k := i; k < len(lines) && (!opened || depth > 0); k++ {
				c := stripLiterals(code(lines[k]))
				if opened || strings.Contains(c, "{") {
					joined = joined || joins.MatchString(c)
				}
				depth += strings.Count(c, "{") - strings.Count(c, "}")
				opened = opened || strings.Contains(c, "{")
			}
		}
	}
	return found == 1 && joined
}
