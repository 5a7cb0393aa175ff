package fix

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// throughPointer is a statement that stores through a local pointer:
// p->f = ..., p[i] = ..., *p = ...; it names the pointer.
var throughPointer = regexp.MustCompile(`^\s*(?:\*\s*)?([A-Za-z_]\w*)\s*(?:->|\[|\)|\s*=)`)

// publishFixes proposes, for a write through a local pointer (p->f = v)
// that races with a reader, moving the statement that published the
// pointer (shared = p;), earlier in the same block, below the last of
// the stores through p that follow it: the object is filled before any
// other thread can reach it.
func publishFixes(r Race, read func(string) ([]byte, error)) []Fix {
	var out []Fix
	for _, w := range []Access{r.A, r.B} {
		if !strings.Contains(w.Kind, "write") {
			continue
		}
		lines, err := fileLines(read, w.File)
		if err != nil || w.Line < 1 || w.Line > len(lines) {
			continue
		}
		m := throughPointer.FindStringSubmatch(lines[w.Line-1])
		if m == nil || !strings.ContainsAny(code(lines[w.Line-1]), ">[*") {
			continue
		}
		ptr := m[1]
		pub := publication(lines, w.Line, ptr)
		if pub == 0 {
			continue
		}
		last := pub
		for i := pub + 1; i <= len(lines); i++ {
			if i > w.Line && !storesThrough(lines[i-1], ptr) {
				break
			}
			if !wrappable(lines, i) {
				last = 0
				break
			}
			last = i
		}
		if last < w.Line {
			continue
		}
		// Moving the store is not enough: without synchronization the
		// reader's loads are still not ordered after the filling stores.
		// The pointer variable becomes _Atomic, so its store releases and
		// the reader's load acquires.
		target := strings.TrimSpace(strings.SplitN(code(lines[pub-1]), "=", 2)[0])
		decl, ok := atomicPointer(r.Sources, read, target)
		if !ok {
			continue
		}
		moved := append(append([]string(nil), lines[pub:last]...), lines[pub-1])
		move := Edit{File: w.File, Line: pub, Old: append([]string(nil), lines[pub-1:last]...), New: moved}
		out = append(out, Fix{Kind: Publish,
			Title: fmt.Sprintf("Publish %s after filling it: move %s (%s:%d) below line %d, and make %s _Atomic so the store releases and the reader's load acquires",
				ptr, code(lines[pub-1]), filepath.Base(w.File), pub, last, target),
			Edits: []Edit{decl, move}})
	}
	return out
}

// publication finds, before line n in its block, the statement that
// stores the pointer ptr into other memory (x = ptr;); 0 when there is
// none, or a block opens or closes between.
func publication(lines []string, n int, ptr string) int {
	store := regexp.MustCompile(`^[A-Za-z_][\w.>-]*\s*=\s*` + regexp.QuoteMeta(ptr) + `\s*;$`)
	for i := n - 1; i >= 1; i-- {
		c := code(lines[i-1])
		if strings.ContainsAny(c, "{}") {
			return 0
		}
		if store.MatchString(c) && !strings.HasPrefix(c, ptr) {
			return i
		}
	}
	return 0
}

// storesThrough reports whether line is a statement that stores
// through ptr.
func storesThrough(line, ptr string) bool {
	m := throughPointer.FindStringSubmatch(line)
	return m != nil && m[1] == ptr && strings.Contains(code(line), "=")
}

// atomicPointer finds the declaration of the global pointer name, alone
// on its line once among the C sources (T *name; T *volatile name;), and
// returns the edit that makes the pointer itself _Atomic.
func atomicPointer(sources []string, read func(string) ([]byte, error), name string) (Edit, bool) {
	if !ident.MatchString(name) {
		return Edit{}, false
	}
	decl := regexp.MustCompile(`^(\s*(?:static\s+)?[A-Za-z_][\w \t]*\*\s*)((?:volatile\s+)?)` + regexp.QuoteMeta(name) + `(\s*(?:=[^;,]*)?;.*)$`)
	e, m, ok := declaration(sources, read, decl, func(file string) bool { return strings.HasSuffix(file, ".c") }, atTop)
	if !ok {
		return Edit{}, false
	}
	e.New = []string{m[1] + m[2] + "_Atomic " + name + m[3]}
	return e, true
}
