// Package srcexpr finds, in a line of C source, the expression an access
// at a column reads or writes (`p->next` for a store at the `=` of
// `p->next = q`), and tells whether text names memory: the name of racing
// memory in every report, the range a diagnostic underlines.
package srcexpr

import "strings"

// Span returns the byte span [start, end) of the expression accessed
// at 1-based byte column col of a source line. Debug locations point at an
// access's expression for reads (`x` in `y = x + 1`) and at the operator
// for writes (`=` in `x = 5`, `++` in `a[i]++`), so: from an identifier,
// the span is the postfix chain that starts there (`s.arr[2]`, `p->next`),
// from its base when the column is a member's (`p->next` for `next`);
// from an assignment or increment operator, it is the operand (the chain
// before it, or after a prefix `++`/`--`); otherwise the single character.
// A column outside the line gives the line's non-blank text.
func Span(line string, col int) (int, int) {
	i := col - 1
	if i < 0 || i >= len(line) {
		return Trimmed(line)
	}
	if IsIdent(line[i]) {
		// Start at the beginning of the identifier the column falls in.
		for i > 0 && IsIdent(line[i-1]) {
			i--
		}
		end := chainEnd(line, i)
		// A member's column (`id` in `j->id`): the chain from its base.
		if i >= 1 && line[i-1] == '.' || i >= 2 && line[i-2:i] == "->" {
			if s := chainStart(line, i+identLen(line[i:])); s >= 0 && line[s] != '*' {
				return s, end
			}
		}
		return i, end
	}
	if op := operatorAt(line, i); op > 0 {
		after := skipSpaces(line, i+op)
		if isIncDec(line, i) && after < len(line) && IsIdent(line[after]) && !operandBefore(line, i) {
			return after, chainEnd(line, after) // ++x
		}
		if s := chainStart(line, i); s >= 0 {
			return s, lastNonSpace(line, i) + 1
		}
	}
	if line[i] == '*' { // *p = ...: the dereference
		after := skipSpaces(line, i+1)
		if after < len(line) && IsIdent(line[after]) {
			return i, chainEnd(line, after)
		}
	}
	return i, i + 1
}

// identLen is the length of the identifier s starts with.
func identLen(s string) int {
	n := 0
	for n < len(s) && IsIdent(s[n]) {
		n++
	}
	return n
}

func IsIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// chainEnd extends an identifier at i over member accesses and subscripts.
func chainEnd(line string, i int) int {
	for i < len(line) && IsIdent(line[i]) {
		i++
	}
	for i < len(line) {
		switch {
		case line[i] == '.' && i+1 < len(line) && IsIdent(line[i+1]):
			i++
		case line[i] == '-' && i+2 < len(line) && line[i+1] == '>' && IsIdent(line[i+2]):
			i += 2
		case line[i] == '[':
			depth := 0
			j := i
			for ; j < len(line); j++ {
				if line[j] == '[' {
					depth++
				} else if line[j] == ']' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j == len(line) {
				return i
			}
			i = j + 1
			continue
		default:
			return i
		}
		for i < len(line) && IsIdent(line[i]) {
			i++
		}
	}
	return i
}

// chainStart finds the start of the postfix chain (possibly dereferenced)
// that ends just before position i, or -1.
func chainStart(line string, i int) int {
	j := lastNonSpace(line, i)
	if j < 0 {
		return -1
	}
	for j >= 0 {
		switch {
		case line[j] == ']':
			depth := 0
			for ; j >= 0; j-- {
				if line[j] == ']' {
					depth++
				} else if line[j] == '[' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j < 0 {
				return -1
			}
			j--
		case IsIdent(line[j]):
			for j > 0 && IsIdent(line[j-1]) {
				j--
			}
			switch {
			case j >= 1 && line[j-1] == '.':
				j -= 2
			case j >= 2 && line[j-1] == '>' && line[j-2] == '-':
				j -= 3
			case j >= 1 && line[j-1] == '*':
				return j - 1
			default:
				return j
			}
		default:
			return -1
		}
	}
	return -1
}

// operatorAt returns the length of an assignment or increment operator
// starting at i (=, op=, ++, --), or 0.
func operatorAt(line string, i int) int {
	rest := line[i:]
	for _, op := range []string{"<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="} {
		if len(rest) >= len(op) && rest[:len(op)] == op {
			return len(op)
		}
	}
	if rest[0] == '=' && (len(rest) == 1 || rest[1] != '=') {
		return 1
	}
	return 0
}

func isIncDec(line string, i int) bool {
	return i+1 < len(line) && (line[i:i+2] == "++" || line[i:i+2] == "--")
}

// operandBefore reports whether an expression ends just before i.
func operandBefore(line string, i int) bool {
	j := lastNonSpace(line, i)
	return j >= 0 && (IsIdent(line[j]) || line[j] == ']' || line[j] == ')')
}

func lastNonSpace(line string, i int) int {
	j := i - 1
	for j >= 0 && (line[j] == ' ' || line[j] == '\t') {
		j--
	}
	return j
}

func skipSpaces(line string, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// Trimmed is the span of a line without its leading and trailing blanks.
func Trimmed(line string) (int, int) {
	s, e := 0, len(line)
	for s < e && (line[s] == ' ' || line[s] == '\t') {
		s++
	}
	for e > s && (line[e-1] == ' ' || line[e-1] == '\t' || line[e-1] == '\r') {
		e--
	}
	return s, e
}

// Name returns the expression an access at 1-based byte column col of a
// source line reads or writes, when the text there names memory (IsName);
// "" otherwise.
func Name(line string, col int) string { return name(line, col, false) }

// Callee returns the name of the function called at 1-based byte column
// col of a source line, when the column is a call's (`pthread_mutex_lock`
// at the start of `pthread_mutex_lock(&m)`); "" otherwise.
func Callee(line string, col int) string {
	i := col - 1
	if i < 0 || i >= len(line) || !IsIdent(line[i]) || i > 0 && IsIdent(line[i-1]) {
		return ""
	}
	end := i + identLen(line[i:])
	if j := skipSpaces(line, end); j < len(line) && line[j] == '(' {
		return line[i:end]
	}
	return ""
}

// MacroName is Name for a place where a macro is used rather than a
// function called (`DONE(j)`, whose expansion's code all has the macro's
// place): an argument names the memory only when the text takes its
// address (`&q->lock`); a plain one (`j`) is a pointer the macro's body
// follows to memory the text does not name.
func MacroName(line string, col int) string { return name(line, col, true) }

// name is Name, or with addressed MacroName.
func name(line string, col int, addressed bool) string {
	if col <= 0 {
		return ""
	}
	s, e := Span(line, col)
	if i := skipSpaces(line, e); i < len(line) && line[i] == '(' {
		// A call's name: the access is the callee's (printf reading a
		// string, memcpy writing a buffer), made to one of its arguments.
		return onlyNamedArgument(line, i, addressed)
	}
	if e := strings.TrimSpace(line[s:e]); IsName(e) {
		return e
	}
	return ""
}

// IsName reports whether source text looks like the name of memory (an
// identifier chain: `p->next`, `s.arr[i + 1]`) rather than a statement,
// a call or an operator.
func IsName(e string) bool {
	if e == "" || len(e) > 60 || !IsIdent(e[0]) {
		return false
	}
	depth := 0
	for i := 0; i < len(e); i++ {
		c := e[i]
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == ';' || c == '{' || c == '}' || c == '=' && depth == 0:
			return false
		case depth == 0 && !IsIdent(c) && c != '.' && c != '-' && c != '>':
			return false
		}
	}
	return depth == 0
}

// onlyNamedArgument returns the argument of the call whose list opens at
// line[open] that names memory, when exactly one does (`q->name` in
// `printf("%s", q->name)`); "" when none does, or several (memcpy's
// destination and source: the text cannot say which one the access is).
// An argument that takes a name's address names that memory (`c->lock`
// in `pthread_mutex_lock(&c->lock)`: the call uses the mutex); with
// addressed, only such an argument names memory.
func onlyNamedArgument(line string, open int, addressed bool) string {
	var args []string
	depth, start := 0, open+1
	for i := open; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"' || c == '\'':
			for i++; i < len(line) && line[i] != c; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
			if depth == 0 {
				args = append(args, line[start:i])
				return only(args, addressed)
			}
		case c == ',' && depth == 1:
			args = append(args, line[start:i])
			start = i + 1
		}
	}
	return "" // the call goes on past the line
}

// only returns the one argument that is a name (with addressed, whose
// address is taken).
func only(args []string, addressed bool) string {
	found := ""
	for _, a := range args {
		a = strings.TrimSpace(a)
		rest, ok := strings.CutPrefix(a, "&")
		if ok {
			a = strings.TrimSpace(rest)
		} else if addressed {
			continue
		}
		if !IsName(a) || a[0] >= '0' && a[0] <= '9' {
			continue
		}
		if found != "" {
			return ""
		}
		found = a
	}
	return found
}
