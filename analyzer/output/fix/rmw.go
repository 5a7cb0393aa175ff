package fix

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// rmwFixes proposes, where the racing code reads the variable into a
// local, computes, and writes the result back (`long seen = X; ...; X =
// seen - fee;`), making the variable atomic and the region one atomic
// update: a fetch_add or fetch_sub when the new value is the old one
// plus or minus a value computed without it, else a compare-exchange
// loop that computes again from the value it saw until no other thread
// wrote in between. Making the variable atomic alone leaves the window
// between the read and the write open (testdata/fix/split_update.c).
func rmwFixes(r Race, read func(string) ([]byte, error)) []Fix {
	c, ok := atomicChange(r, read)
	if !ok {
		return nil
	}
	accesses := append([]Access{r.A, r.B}, r.Others...)
	var out []Fix
	seen := map[[2]int]bool{}
	for _, rd := range accesses {
		for _, wr := range accesses {
			span := [2]int{rd.Line, wr.Line}
			if rd.Kind != "read" || wr.Kind != "write" || wr.File != rd.File || wr.Function != rd.Function ||
				wr.Line <= rd.Line || wr.Line-rd.Line >= maxRegion || seen[span] {
				continue
			}
			seen[span] = true
			e, how, ok := rmwRegion(rd, wr, c.cxx, read)
			if !ok || overlaps(c.edits, e) {
				continue
			}
			edits := append(slices.Clone(c.edits), e)
			if !c.cxx {
				inc, ok := includeOnce(read, rd.File, "<stdatomic.h>")
				if !ok {
					continue
				}
				edits = append(edits, inc...)
			}
			out = append(out, Fix{Kind: Atomic,
				Title: fmt.Sprintf("Make %s atomic and update it in one step in %s (%s:%d-%d): %s", c.name, rd.Function,
					filepath.Base(rd.File), rd.Line, wr.Line, how),
				Edits: edits})
		}
	}
	return out
}

var (
	// readInto is a declaration that reads a value into a local: `long
	// seen = X;`.
	readInto = regexp.MustCompile(`^((?:const\s+)?[A-Za-z_][\w \t]*?)\s+([A-Za-z_]\w*)\s*=\s*([^=;][^;]*);$`)
	// writeBack is a plain assignment: `X = value;`.
	writeBack = regexp.MustCompile(`^([^=;]+?)\s*=\s*([^=;][^;]*);$`)
)

// rmwRegion rewrites lines rd.Line to wr.Line, which read the variable
// into a local and write it back, as one atomic update (rmwFixes); how
// says which, in words. False when the lines are not of that shape.
func rmwRegion(rd, wr Access, cxx bool, read func(string) ([]byte, error)) (e Edit, how string, ok bool) {
	lines, err := fileLines(read, rd.File)
	if err != nil || wr.Line > len(lines) {
		return Edit{}, "", false
	}
	x, ok1 := exprAt(read, rd)
	xw, ok2 := exprAt(read, wr)
	indent := indentOf(lines[rd.Line-1])
	if !ok1 || !ok2 || squeeze(x) != squeeze(xw) || !straight(lines, rd.Line, wr.Line, indent) {
		return Edit{}, "", false
	}
	r := readInto.FindStringSubmatch(code(lines[rd.Line-1]))
	w := writeBack.FindStringSubmatch(code(lines[wr.Line-1]))
	if r == nil || w == nil || squeeze(r[3]) != squeeze(x) || squeeze(w[1]) != squeeze(x) ||
		notStatement.MatchString(r[1]) || declaresUsedAfter(lines, rd.Line+1, wr.Line-1, wr.Line) {
		return Edit{}, "", false
	}
	typ, v, next := r[1], r[2], strings.TrimSpace(w[2])
	old := slices.Clone(lines[rd.Line-1 : wr.Line])
	middle := lines[rd.Line : wr.Line-1]
	if op, delta, ok := addend(next, v); ok && onlyBlank(middle) {
		fn := map[string]string{"+": "fetch_add", "-": "fetch_sub"}[op]
		call := "atomic_" + fn + "(&" + x + ", " + delta + ")"
		if cxx {
			call = x + "." + fn + "(" + delta + ")"
		}
		return Edit{File: rd.File, Line: rd.Line, Old: old, New: []string{indent + typ + " " + v + " = " + call + ";" +
			trailing(lines[rd.Line-1]) + trailing(lines[wr.Line-1])}}, fn, true
	}
	unit := "\t"
	if !strings.HasPrefix(indent, "\t") {
		unit = "    "
	}
	cas := "atomic_compare_exchange_weak(&" + x + ", &" + v + ", " + next + ")"
	if cxx {
		cas = x + ".compare_exchange_weak(" + v + ", " + next + ")"
	}
	out := []string{lines[rd.Line-1], indent + "for (;;) {"}
	for _, l := range middle {
		if strings.TrimSpace(l) != "" {
			l = unit + l
		}
		out = append(out, l)
	}
	out = append(out, indent+unit+"if ("+cas+")"+trailing(lines[wr.Line-1]), indent+unit+unit+"break;", indent+"}")
	return Edit{File: rd.File, Line: rd.Line, Old: old, New: out},
		"a compare-exchange loop that computes the new value again from the value it saw", true
}

// addend reads next as v + delta, delta + v or v - delta, with delta
// computed without v.
func addend(next, v string) (op, delta string, ok bool) {
	mentions := regexp.MustCompile(`\b` + regexp.QuoteMeta(v) + `\b`)
	if m := regexp.MustCompile(`^` + regexp.QuoteMeta(v) + `\s*([+-])\s*(.+)$`).FindStringSubmatch(next); m != nil &&
		!mentions.MatchString(m[2]) && !strings.ContainsAny(m[2], "+-*/%<>&|^?") {
		return m[1], m[2], true
	}
	if m := regexp.MustCompile(`^(.+?)\s*\+\s*` + regexp.QuoteMeta(v) + `$`).FindStringSubmatch(next); m != nil &&
		!mentions.MatchString(m[1]) && !strings.ContainsAny(m[1], "+-*/%<>&|^?") {
		return "+", m[1], true
	}
	return "", "", false
}

// trailing is a line's comment after its code, with the blank before
// it: " // race: x"; "" when it has none.
func trailing(line string) string {
	c := code(line)
	i := strings.Index(line, c)
	if c == "" || i < 0 {
		return ""
	}
	rest := strings.TrimSpace(line[i+len(c):])
	if rest == "" {
		return ""
	}
	return " " + rest
}

// onlyBlank reports whether lines hold no code.
func onlyBlank(lines []string) bool {
	for _, l := range lines {
		if code(l) != "" {
			return false
		}
	}
	return true
}

// overlaps reports whether e changes a line one of edits changes.
func overlaps(edits []Edit, e Edit) bool {
	for _, o := range edits {
		if o.File == e.File && o.Line < e.Line+len(e.Old) && e.Line < o.Line+max(len(o.Old), 1) {
			return true
		}
	}
	return false
}

// includeOnce is the insertion of `#include header` after file's last
// include, none when it includes it already; false when the file
// includes nothing (no safe place to put it).
func includeOnce(read func(string) ([]byte, error), file, header string) ([]Edit, bool) {
	lines, err := fileLines(read, file)
	if err != nil {
		return nil, false
	}
	last := 0
	for i, l := range lines {
		c := code(l)
		if strings.HasPrefix(c, "#include") {
			if strings.Contains(c, header) {
				return nil, true
			}
			last = i + 1
		}
	}
	if last == 0 {
		return nil, false
	}
	return []Edit{{File: file, Line: last + 1, New: []string{"#include " + header}}}, true
}
