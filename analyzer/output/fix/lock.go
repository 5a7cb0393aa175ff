package fix

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"augur/analyzer/frontend/build"
)

// lockFixes proposes, for each mutex one access held and the other did
// not, taking it around the other's unguarded region, named the way the
// other's code reaches it (mutexFor); or says why it will not: the
// mutex cannot be named there, or the region would block with it held.
func lockFixes(r Race, read func(string) ([]byte, error)) []Fix {
	var out []Fix
	seen := map[string]bool{}
	for _, p := range [][2]Access{{r.A, r.B}, {r.B, r.A}} {
		guarded, bare := p[0], p[1]
		for i, l := range guarded.Locks {
			key := fmt.Sprintf("%s:%d:%s", bare.File, bare.Line, l)
			if slices.Contains(bare.Locks, l) || seen[key] {
				continue
			}
			seen[key] = true
			lines, err := fileLines(read, bare.File)
			if err != nil || !wrappable(lines, bare.Line) {
				continue
			}
			first, last := region(lines, bare, r.Others, l)
			key = fmt.Sprintf("%s:%d-%d:%s", bare.File, first, last, l)
			if seen[key] {
				continue
			}
			seen[key] = true
			obj := r.Object
			if e, ok := exprAt(read, bare); ok {
				obj = e // as the code the fix changes names it
			}
			where := fmt.Sprintf("the access to %s in %s (%s:%d)", obj, bare.Function, filepath.Base(bare.File), bare.Line)
			if last > first {
				where = fmt.Sprintf("the accesses to %s in %s (%s:%d-%d)", obj, bare.Function, filepath.Base(bare.File), first, last)
			}
			m, why := mutexFor(guarded, i, bare, read)
			if why == "" {
				why = blockingCall(lines, first, last)
			}
			f := Fix{Kind: Lock, Title: fmt.Sprintf("Hold %s around %s, as %s does", m.expr, where, guarded.Function)}
			if m.expr == "" {
				f.Title = fmt.Sprintf("Hold the mutex %s holds around %s", guarded.Function, where)
			}
			if why != "" {
				f.Refused = why
			} else {
				f.Edits = []Edit{m.wrap(lines, bare.File, first, last)}
			}
			out = append(out, f)
		}
	}
	return out
}

// maxRegion bounds the lines a lock fix's region spans.
const maxRegion = 12

// region is the run of lines a lock fix for bare holds mutex l around:
// bare's statement, widened to the other accesses of the same thread's
// function to the same object that lack l too (a read into a local, the
// computation, the write back), when every line from one to the other is
// a statement a lock can wrap, a blank line or a comment, at the same
// indentation. It returns the first and last line (1-based).
func region(lines []string, bare Access, others []Access, l string) (first, last int) {
	first, last = bare.Line, bare.Line
	for _, o := range others {
		if o.File != bare.File || o.Function != bare.Function || slices.Contains(o.Locks, l) || o.Line == bare.Line {
			continue
		}
		lo, hi := min(first, o.Line), max(last, o.Line)
		if hi-lo >= maxRegion || !straight(lines, lo, hi, indentOf(lines[bare.Line-1])) {
			continue
		}
		first, last = lo, hi
	}
	return first, last
}

// straight reports whether lines lo to hi (1-based) are statements a lock
// can wrap, blank lines or comments, the statements at indentation indent:
// one block's straight-line code, which a lock before the first and an
// unlock after the last hold across.
func straight(lines []string, lo, hi int, indent string) bool {
	if lo < 1 || hi > len(lines) {
		return false
	}
	for n := lo; n <= hi; n++ {
		t := code(lines[n-1])
		if t == "" || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
			continue
		}
		if !wrappable(lines, n) || indentOf(lines[n-1]) != indent {
			return false
		}
	}
	return true
}

// blocking are the calls that wait for another thread or for the outside
// world: holding a mutex across one stalls every thread that needs it,
// and waiting for a thread that needs it deadlocks.
var blocking = regexp.MustCompile(`\b(?:sleep|usleep|nanosleep|pthread_join|pthread_cond_wait|pthread_cond_timedwait|` +
	`sem_wait|pthread_barrier_wait|read|recv|recvfrom|accept|connect|poll|select|epoll_wait|wait|waitpid|` +
	`fgets|getline|getchar|scanf|fscanf|fread|join|wait_for|sleep_for)\s*\(`)

// blockingCall says why a lock cannot be held across lines first to last
// when one of them blocks; "" when none does.
func blockingCall(lines []string, first, last int) string {
	for n := first; n <= last; n++ {
		if m := blocking.FindString(stripLiterals(code(lines[n-1]))); m != "" {
			call := strings.TrimSpace(strings.TrimSuffix(m, "("))
			return fmt.Sprintf("the region would hold the mutex across a blocking call (%s at line %d)", call, n)
		}
	}
	return ""
}

// lockStyle is how the guarded code takes its mutex, and so how the fix
// takes it.
type lockStyle int

const (
	pthreadLock lockStyle = iota // pthread_mutex_lock(&m)
	guardLock                    // std::lock_guard<std::mutex> g(m), or another RAII class
	methodLock                   // m.lock()
)

// mutex is a mutex as the racing code can name it, and the way the code
// that guards the other access takes it.
type mutex struct {
	expr  string // an lvalue of the mutex in the racing code's terms
	style lockStyle
	guard string // guardLock's class as the guarded code spells it
}

// wrap is the edit that holds m across lines first to last of file: a
// lock before and an unlock after, or in C++ a guard in a new scope
// (explicit lock and unlock calls instead when the region declares a
// name that is used after it, which a scope would hide).
func (m mutex) wrap(lines []string, file string, first, last int) Edit {
	old := slices.Clone(lines[first-1 : last])
	indent := indentOf(old[0])
	style := m.style
	if style == guardLock && declaresUsedAfter(lines, first, last, last) {
		style = methodLock
	}
	var out []string
	switch style {
	case guardLock:
		unit := "\t"
		if !strings.HasPrefix(indent, "\t") {
			unit = "    "
		}
		out = append(out, indent+"{", indent+unit+m.guard+" guard("+m.expr+");")
		for _, l := range old {
			if strings.TrimSpace(l) != "" {
				l = unit + l
			}
			out = append(out, l)
		}
		out = append(out, indent+"}")
	case methodLock:
		out = append(append([]string{indent + m.expr + ".lock();"}, old...), indent+m.expr+".unlock();")
	default:
		out = append(append([]string{indent + "pthread_mutex_lock(&" + m.expr + ");"}, old...),
			indent+"pthread_mutex_unlock(&"+m.expr+");")
	}
	return Edit{File: file, Line: first, Old: old, New: out}
}

// declares is a line that declares a variable: type words, then its
// name, then an initializer or the end of the statement.
var declares = regexp.MustCompile(`^(?:const\s+|static\s+|unsigned\s+|signed\s+|struct\s+)*[A-Za-z_][\w:<>,]*[\s*&]+([A-Za-z_]\w*)\s*(?:=|;|\{|\[|\()`)

// declaresUsedAfter reports whether a line from first to last declares a
// name that a line of the same block after line end uses.
func declaresUsedAfter(lines []string, first, last, end int) bool {
	for n := first; n <= last; n++ {
		m := declares.FindStringSubmatch(code(lines[n-1]))
		if m == nil || notStatement.MatchString(code(lines[n-1])) {
			continue
		}
		use := regexp.MustCompile(`\b` + m[1] + `\b`)
		depth := 0
		for k := end; k < len(lines) && depth >= 0; k++ {
			c := stripLiterals(code(lines[k]))
			if use.MatchString(c) {
				return true
			}
			depth += strings.Count(c, "{") - strings.Count(c, "}")
		}
	}
	return false
}

// mutexFor names, in bare's code, the mutex guarded held as its lock i,
// and says how guarded took it; or says why it cannot. A global mutex
// is its name. Another is the expression the guarded code locked, read
// at the place it took it, with the base it shares with the guarded
// access replaced by bare's: `&a->lock` where the guarded access is
// `a->balance` and the racing one `acct->balance` gives `acct->lock`.
func mutexFor(guarded Access, i int, bare Access, read func(string) ([]byte, error)) (mutex, string) {
	l := guarded.Locks[i]
	call, found := mutex{expr: l}, false
	if i < len(guarded.LockedAt) && guarded.LockedAt[i].File != "" {
		at := guarded.LockedAt[i]
		if line, ok := lineAt(read, at.File, at.Line); ok {
			call, found = lockedIn(code(line))
		}
	}
	if ident.MatchString(l) {
		// A global mutex, named: its name serves everywhere.
		call.expr = l
		if !found && build.IsCXX(bare.File) {
			return mutex{}, fmt.Sprintf("augur did not see how %s takes %s", guarded.Function, l)
		}
		return call, ""
	}
	if !found {
		return mutex{}, fmt.Sprintf("augur did not see where %s takes the mutex (%s)", guarded.Function, l)
	}
	g, _ := exprAt(read, guarded)
	b, _ := exprAt(read, bare)
	expr, ok := translate(call.expr, g, b, guarded.Function == bare.Function, build.IsCXX(bare.File))
	if !ok {
		return mutex{}, fmt.Sprintf("the mutex is not reachable from %s: %s takes it as %s, and %s's access%s shares no base with %s's%s",
			bare.Function, guarded.Function, call.expr, bare.Function, spelled(b), guarded.Function, spelled(g))
	}
	call.expr = expr
	return call, ""
}

// spelled is " (e)", or "" when the source does not name the access.
func spelled(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}
