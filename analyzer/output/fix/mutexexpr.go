package fix

import (
	"regexp"
	"strings"

	"augur/analyzer/output/srcexpr"
)

// The ways a line takes a mutex that lockedIn reads.
var (
	pthreadCall = regexp.MustCompile(`\bpthread_mutex_lock\s*\(`)
	guardDecl   = regexp.MustCompile(`\b((?:std::)?(?:lock_guard|unique_lock|scoped_lock)\s*(?:<[^;()]*>)?)\s+[A-Za-z_]\w*\s*[({]`)
	lockMethod  = regexp.MustCompile(`([A-Za-z_][\w.\[\]>-]*?)\s*\.\s*lock\s*\(\s*\)`)
)

// lockedIn reads how a line of code takes a mutex: the lvalue it locks
// and the style. It reads pthread_mutex_lock(&m), a guard object
// (std::lock_guard<std::mutex> g(m), unique_lock, scoped_lock) and
// m.lock(), each with one argument; false for anything else.
func lockedIn(line string) (mutex, bool) {
	if loc := pthreadCall.FindStringIndex(line); loc != nil {
		arg, ok := onlyArgument(line, loc[1]-1)
		if !ok {
			return mutex{}, false
		}
		if lv, ok := strings.CutPrefix(arg, "&"); ok {
			return mutex{expr: strings.TrimSpace(lv), style: pthreadLock}, true
		}
		return mutex{expr: "*" + arg, style: pthreadLock}, true // through a pointer
	}
	if m := guardDecl.FindStringSubmatchIndex(line); m != nil {
		arg, ok := onlyArgument(line, m[1]-1)
		if !ok {
			return mutex{}, false
		}
		return mutex{expr: arg, style: guardLock, guard: strings.TrimSpace(line[m[2]:m[3]])}, true
	}
	if m := lockMethod.FindStringSubmatch(line); m != nil {
		return mutex{expr: m[1], style: methodLock}, true
	}
	return mutex{}, false
}

// onlyArgument is the one argument of the list line[open] opens with (
// or {, trimmed; false when there are several or the list goes on past
// the line.
func onlyArgument(line string, open int) (string, bool) {
	depth := 0
	for i := open; i < len(line); i++ {
		switch line[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				arg := strings.TrimSpace(line[open+1 : i])
				return arg, arg != ""
			}
		case ',':
			if depth == 1 {
				return "", false
			}
		}
	}
	return "", false
}

// translate names mutex m, an lvalue in the guarded code, in the racing
// code's terms: g is the guarded access's expression, b the racing
// one's (both to the same memory). When m and g share their base (`a`
// in `a->lock` and `a->balance`), or m reaches further from g's base
// (`a->bank->lock`), m is rebuilt on b's base (`acct->lock` for
// `acct->balance`, `acct.lock` for `acct.balance`). When the two accesses
// are in one function, m is its own name there. In C++ (cxx), names
// with no base are members of this object. False otherwise.
func translate(m, g, b string, sameFunction, cxx bool) (string, bool) {
	m, g, b = squeeze(m), squeeze(g), squeeze(b)
	if g == "" || b == "" {
		return m, sameFunction
	}
	bm, opm, nm := splitMember(m)
	bg, opg, _ := splitMember(g)
	bb, opb, _ := splitMember(b)
	am, im := splitIndex(m)
	ag, ig := splitIndex(g)
	ab, ib := splitIndex(b)
	switch {
	case im != "" && im == ig && ab == ag && ib != "" && am != ag:
		// Parallel arrays: locks[i] guards counts[i], so locks[j] counts[j].
		return am + "[" + ib + "]", true
	case bm == bg && opm == opg && (bm != "" || cxx):
		// The same base, or in C++ both members of this object.
		if bb == "" {
			return nm, true
		}
		return bb + opb + nm, true
	case bg != "" && bb != "" && len(m) > len(bg) && strings.HasPrefix(m, bg) && strings.ContainsRune(".-[", rune(m[len(bg)])):
		rest := m[len(bg):]
		if opg != opb && strings.HasPrefix(rest, opg) {
			rest = opb + rest[len(opg):]
		}
		return bb + rest, true
	case sameFunction:
		return m, true
	}
	return "", false
}

// squeeze is an expression without blanks and without an explicit
// `this->`, so that `this->mu_` and `mu_` compare equal.
func squeeze(e string) string {
	e = strings.Join(strings.Fields(e), "")
	for strings.HasPrefix(e, "this->") {
		e = e[len("this->"):]
	}
	return e
}

// splitMember cuts an expression at its last member access outside
// brackets: `p->q.lock` is `p->q`, `.`, `lock`; an expression with no
// member access is its own name with no base.
func splitMember(e string) (base, op, name string) {
	depth := 0
	for i := len(e) - 1; i >= 0; i-- {
		switch c := e[i]; {
		case c == ']' || c == ')':
			depth++
		case c == '[' || c == '(':
			depth--
		case depth != 0:
		case c == '.':
			return e[:i], ".", e[i+1:]
		case c == '>' && i > 0 && e[i-1] == '-':
			return e[:i-1], "->", e[i+1:]
		}
	}
	return "", "", e
}

// splitIndex cuts an expression's last subscript: `a.locks[i]` is
// `a.locks` and `i`; "" for an expression that does not end in one.
func splitIndex(e string) (array, index string) {
	if !strings.HasSuffix(e, "]") {
		return "", ""
	}
	depth := 0
	for i := len(e) - 1; i >= 0; i-- {
		switch e[i] {
		case ']':
			depth++
		case '[':
			depth--
			if depth == 0 {
				return e[:i], e[i+1 : len(e)-1]
			}
		}
	}
	return "", ""
}

// exprAt is the expression a's access reads or writes, as its source
// line spells it.
func exprAt(read func(string) ([]byte, error), a Access) (string, bool) {
	line, ok := lineAt(read, a.File, a.Line)
	if !ok || a.Col <= 0 {
		return "", false
	}
	e := srcexpr.Name(line, a.Col)
	return e, e != ""
}

// lineAt is line n (1-based) of file.
func lineAt(read func(string) ([]byte, error), file string, n int) (string, bool) {
	lines, err := fileLines(read, file)
	if err != nil || n < 1 || n > len(lines) {
		return "", false
	}
	return lines[n-1], true
}
