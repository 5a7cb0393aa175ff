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
// mutex cannot be named there, or the region would leave its block or
// block with it held.
func lockFixes(r Race, read func(string) ([]byte, error)) []Fix {
	var out []Fix
	seen := map[string]bool{}
	// The mutexes held at one access and not the other; then, when
	// neither held one (two unguarded calls of the same code), those held
	// at the other accesses to the same memory.
	pairs := [][2]Access{{r.A, r.B}, {r.B, r.A}}
	if len(r.A.Locks) == 0 && len(r.B.Locks) == 0 {
		for _, o := range r.Others {
			if len(o.Locks) > 0 {
				pairs = append(pairs, [2]Access{o, r.A}, [2]Access{o, r.B})
			}
		}
	}
	for _, p := range pairs {
		guarded, bare := p[0], p[1]
		for i, l := range guarded.Locks {
			key := fmt.Sprintf("%s:%d:%s", bare.File, bare.Line, l)
			if slices.Contains(bare.Locks, l) || seen[key] {
				continue
			}
			seen[key] = true
			lines, err := fileLines(read, bare.File)
			if err != nil {
				continue
			}
			// A guard object releases the mutex however its scope is left.
			scoped := styleOf(guarded, i, read) == guardLock
			first, last, blocked := region(lines, bare, r.Others, l, scoped)
			if blocked != "" && !strings.HasPrefix(blocked, "the region") {
				continue // not a statement a lock can go around: nothing to propose
			}
			if blocked != "" {
				first, last = bare.Line, bare.Line
			}
			key = fmt.Sprintf("%s:%d-%d:%s", bare.File, first, last, l)
			if !seen[key] {
				seen[key] = true
				out = append(out, lockFix(r, guarded, i, bare, lines, first, last, blocked, read))
			}
		}
	}
	return out
}

// lockFix is the fix that takes guarded's lock i around lines first to
// last of bare's file, or its refusal (blocked, when the region is not
// one a lock can be held across, says why).
func lockFix(r Race, guarded Access, i int, bare Access, lines []string, first, last int, blocked string,
	read func(string) ([]byte, error)) Fix {
	// The region's accesses, bare's first: any of them that the source
	// names can name the mutex.
	near := []Access{bare}
	for _, o := range r.Others {
		if o.File == bare.File && o.Function == bare.Function && o.Line >= first && o.Line <= last {
			near = append(near, o)
		}
	}
	obj := r.Object
	for _, a := range near {
		if e, ok := exprAt(read, a); ok {
			obj = e // as the code the fix changes names it
			break
		}
	}
	m, why := mutexFor(guarded, i, near, read)
	_, held := m.span(lines, first, last)
	where := fmt.Sprintf("the access to %s in %s (%s:%d)", obj, bare.Function, filepath.Base(bare.File), bare.Line)
	if held > first {
		where = fmt.Sprintf("the accesses to %s in %s (%s:%d-%d)", obj, bare.Function, filepath.Base(bare.File), first, held)
	}
	f := Fix{Kind: Lock, Title: fmt.Sprintf("Hold %s around %s, as %s does", m.expr, where, guarded.Function)}
	if m.expr == "" {
		f.Title = fmt.Sprintf("Hold the mutex %s holds around %s", guarded.Function, where)
	}
	for _, w := range []string{why, blocked, blockingCall(lines, first, held)} {
		if w != "" {
			f.Refused = w
			return f
		}
	}
	f.Edits = []Edit{m.wrap(lines, bare.File, first, last)}
	return f
}

// maxRegion bounds the lines a lock fix's region spans.
const maxRegion = 16

// region is the block a lock fix for bare holds mutex l across (block):
// the smallest that contains bare's access, widened to the other
// accesses of the same thread's function to the same object that lack l
// too (a read into a local, the computation and the check, the write
// back), while one block of at most maxRegion lines holds them. It
// returns the first and last line (1-based), or why there is none.
func region(lines []string, bare Access, others []Access, l string, scoped bool) (first, last int, why string) {
	first, last, why = block(lines, bare.Line, bare.Line, scoped)
	if why != "" {
		return 0, 0, why
	}
	for _, o := range others {
		if o.File != bare.File || o.Function != bare.Function || slices.Contains(o.Locks, l) || o.Line == bare.Line {
			continue
		}
		lo, hi, why := block(lines, min(first, o.Line), max(last, o.Line), scoped)
		if why != "" || hi-lo >= maxRegion {
			continue
		}
		first, last = lo, hi
	}
	return first, last, ""
}

// jump is a statement that leaves a block other than at its end: a lock
// held across it stays held.
var jump = regexp.MustCompile(`(?:^|[;{}]\s*|\)\s*)(?:return|break|continue|goto)\b`)

// bracelessHeader is a line that opens a statement whose body is the
// next line: `if (x)`, `for (...)`, `while (...)`, `else`.
var bracelessHeader = regexp.MustCompile(`^(?:\}\s*)?(?:if|for|while|else|else\s+if|switch)\b.*[^;{]$`)

// block is the smallest run of whole statements of one block that holds
// lines lo to hi (1-based): widened up to the header of a braceless if
// or loop whose body it starts in, and down to the end of the statement
// it ends in (the rest of an if's else, a loop's closing brace). A lock
// before its first line and an unlock after its last hold across it. It
// says why there is none: a line leaves the block (a return, a break)
// unless scoped (a guard object, which releases the mutex however the
// scope is left), or the lines are not whole statements of one block.
func block(lines []string, lo, hi int, scoped bool) (first, last int, why string) {
	if lo < 1 || hi > len(lines) || lo > hi {
		return 0, 0, "the lines are not in the file"
	}
	for {
		p := prevCode(lines, lo)
		if p == 0 || !bracelessHeader.MatchString(code(lines[p-1])) {
			break
		}
		lo = p
	}
	base := len(indentOf(lines[lo-1]))
	if c := code(lines[lo-1]); c == "" || strings.HasPrefix(c, "}") || strings.HasPrefix(c, "else") ||
		strings.HasPrefix(c, "case") || strings.HasPrefix(c, "default") || strings.HasPrefix(c, "#") {
		return 0, 0, "the lines are not whole statements of one block"
	}
	if p := prevCode(lines, lo); p > 0 {
		// The line before ends a statement or opens the block: lo starts one.
		pc := code(lines[p-1])
		if !strings.HasSuffix(pc, ";") && !strings.HasSuffix(pc, "{") && !strings.HasSuffix(pc, "}") &&
			!strings.HasPrefix(pc, "#") && !strings.HasSuffix(pc, ":") {
			return 0, 0, "the lines are not whole statements of one block"
		}
	}
	depth := 0
	for n := lo; n <= len(lines); n++ {
		c := stripLiterals(code(lines[n-1]))
		if c == "" {
			continue
		}
		if len(indentOf(lines[n-1])) < base {
			return 0, 0, "the lines are not whole statements of one block"
		}
		if jump.MatchString(c) && !scoped {
			return 0, 0, fmt.Sprintf("the region would leave its block with the mutex held (%s at line %d)",
				jump.FindString(c), n)
		}
		depth += strings.Count(c, "{") - strings.Count(c, "}")
		if depth < 0 {
			return 0, 0, "the lines are not whole statements of one block"
		}
		if n < hi || depth != 0 || !(strings.HasSuffix(c, ";") || strings.HasSuffix(c, "}")) {
			continue
		}
		next := nextCode(lines, n)
		if next == 0 {
			return lo, n, ""
		}
		nc := code(lines[next-1])
		if len(indentOf(lines[next-1])) > base && !strings.HasPrefix(nc, "}") || strings.HasPrefix(nc, "else") ||
			strings.HasPrefix(nc, "while") && strings.HasSuffix(c, "}") && strings.HasSuffix(nc, ";") {
			continue // the statement goes on: a continuation, an else, a do's while
		}
		return lo, n, ""
	}
	return 0, 0, "the lines are not whole statements of one block"
}

// prevCode is the last line before n (1-based) with code on it, 0 when
// none.
func prevCode(lines []string, n int) int {
	for p := n - 1; p >= 1; p-- {
		if code(lines[p-1]) != "" {
			return p
		}
	}
	return 0
}

// nextCode is the first line after n (1-based) with code on it, 0 when
// none.
func nextCode(lines []string, n int) int {
	for k := n + 1; k <= len(lines); k++ {
		if code(lines[k-1]) != "" {
			return k
		}
	}
	return 0
}

// straight reports whether lines lo to hi (1-based) are statements a lock
// can wrap, blank lines or comments, the statements at indentation indent:
// one block's straight-line code.
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
	guardToEnd                   // a guard that holds the mutex to its block's end (span)
)

// mutex is a mutex as the racing code can name it, and the way the code
// that guards the other access takes it.
type mutex struct {
	expr  string // an lvalue of the mutex in the racing code's terms
	style lockStyle
	guard string // guardLock's class as the guarded code spells it
}

// span is how wrap holds m across lines first to last, and the last line
// it holds it on: a guard's scope ends where the region does, unless the
// region declares a name used after it, which a new scope would hide;
// then the guard is declared before the region without a scope of its
// own and holds the mutex to the end of the enclosing block (explicit
// lock and unlock calls instead would leave it held at a return the
// region may hold, as a guard's region may).
func (m mutex) span(lines []string, first, last int) (lockStyle, int) {
	if m.style == guardLock && declaresUsedAfter(lines, first, last, last) {
		return guardToEnd, blockEnd(lines, last)
	}
	return m.style, last
}

// blockEnd is the last line (1-based) of the block that line n is in,
// before its closing brace: the end of the file when none closes it.
func blockEnd(lines []string, n int) int {
	depth := 0
	for k := n + 1; k <= len(lines); k++ {
		c := stripLiterals(code(lines[k-1]))
		for _, r := range c {
			switch r {
			case '{':
				depth++
			case '}':
				if depth--; depth < 0 {
					return k - 1
				}
			}
		}
	}
	return len(lines)
}

// wrap is the edit that holds m across lines first to last of file: a
// lock before and an unlock after, or in C++ a guard in a new scope, or
// a guard to the end of the block (span).
func (m mutex) wrap(lines []string, file string, first, last int) Edit {
	old := slices.Clone(lines[first-1 : last])
	indent := indentOf(old[0])
	style, _ := m.span(lines, first, last)
	var out []string
	switch style {
	case guardToEnd:
		out = append([]string{indent + m.guard + " guard(" + m.expr + ");"}, old...)
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

// styleOf is how guarded took its lock i (pthreadLock when augur did
// not see it).
func styleOf(guarded Access, i int, read func(string) ([]byte, error)) lockStyle {
	m, _ := lockSite(guarded, i, read)
	return m.style
}

// lockSite reads how guarded took its lock i, at the place detection saw
// it take it (lockedIn); false when augur did not see that place or
// cannot read the call there.
func lockSite(guarded Access, i int, read func(string) ([]byte, error)) (mutex, bool) {
	if i >= len(guarded.LockedAt) || guarded.LockedAt[i].File == "" {
		return mutex{}, false
	}
	at := guarded.LockedAt[i]
	line, ok := lineAt(read, at.File, at.Line)
	if !ok {
		return mutex{}, false
	}
	return lockedIn(code(line))
}

// mutexFor names, in the racing code (near: the unguarded access, then
// the region's others), the mutex guarded held as its lock i, and says
// how guarded took it; or says why it cannot. A global mutex
// is its name. Another is the expression the guarded code locked, read
// at the place it took it, with the base it shares with the guarded
// access replaced by bare's: `&a->lock` where the guarded access is
// `a->balance` and the racing one `acct->balance` gives `acct->lock`.
func mutexFor(guarded Access, i int, near []Access, read func(string) ([]byte, error)) (mutex, string) {
	bare := near[0]
	l := guarded.Locks[i]
	call, found := lockSite(guarded, i, read)
	if ident.MatchString(l) && (!found || squeeze(call.expr) == l) {
		// A global mutex, named: its name serves everywhere. (A global
		// struct's first member has the struct's name: `lb` for the
		// `lb.mu` the guarded code locks, named below.)
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
	var b, expr string
	ok := false
	for _, a := range near {
		if b, _ = exprAt(read, a); b != "" || a.Function == guarded.Function {
			if expr, ok = translate(call.expr, g, b, guarded.Function == bare.Function, build.IsCXX(bare.File)); ok {
				break
			}
		}
	}
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
