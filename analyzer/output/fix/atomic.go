package fix

import (
	"fmt"
	"regexp"
	"strings"

	"augur/analyzer/frontend/build"
)

// scalarWords are the words a type that _Atomic can qualify is made of,
// for the declarations atomicFixes changes.
var scalarWords = map[string]bool{"char": true, "short": true, "int": true, "long": true, "unsigned": true,
	"signed": true, "_Bool": true, "bool": true, "size_t": true, "ssize_t": true, "int8_t": true, "int16_t": true,
	"int32_t": true, "int64_t": true, "uint8_t": true, "uint16_t": true, "uint32_t": true, "uint64_t": true,
	"intptr_t": true, "uintptr_t": true, "double": true, "float": true}

// atomicFixes proposes making a scalar variable atomic where it is
// declared alone on its line, once in the program's sources: a global,
// or a member of a struct or class that both accesses name the same
// (`balance` in `a->balance` and `acct.balance`). _Atomic in C;
// std::atomic in C++, where a use passed to printf-like functions
// becomes an explicit load (an atomic object cannot pass through ...).
func atomicFixes(r Race, read func(string) ([]byte, error)) []Fix {
	c, ok := atomicChange(r, read)
	if !ok {
		return nil
	}
	title := fmt.Sprintf("Make %s _Atomic: each of its reads and writes becomes atomic, and ++ or += an atomic read-modify-write", c.name)
	if c.cxx {
		title = fmt.Sprintf("Make %s a std::atomic<%s>: each of its reads and writes becomes atomic, and ++ or += an atomic read-modify-write", c.name, c.typ)
	}
	return []Fix{{Kind: Atomic, Title: title, Edits: c.edits}}
}

// atomic is the change that makes a variable atomic: its declaration,
// and in C++ <atomic> included and the explicit loads.
type atomic struct {
	name, typ string
	cxx       bool
	edits     []Edit
}

// atomicChange finds r's variable's declaration and makes it atomic
// (atomicFixes).
func atomicChange(r Race, read func(string) ([]byte, error)) (atomic, bool) {
	name, member := r.Object, false
	if !r.Global {
		var ok bool
		if name, ok = memberOf(r, read); !ok {
			return atomic{}, false
		}
		member = true
	}
	e, m, ok := scalarDeclaration(r.Sources, read, name, member)
	if !ok {
		return atomic{}, false
	}
	if build.IsCXX(e.File) {
		return cxxAtomic(name, r.Sources, read, e, m)
	}
	if strings.Contains(m[2], "mutable") {
		return atomic{}, false
	}
	init := m[4] // the spacing before the semicolon
	if m[5] != "" {
		init = " = " + m[5]
	}
	e.New = []string{m[1] + m[2] + "_Atomic " + m[3] + " " + name + init + ";" + m[6]}
	return atomic{name: name, typ: strings.TrimSpace(m[3]), edits: []Edit{e}}, true
}

// scalarDeclaration finds the one declaration of the scalar variable
// name among the sources, alone on its line: a global, or a member of a
// struct, union or class body (member). It returns it as an edit without
// its new text, and the submatches of the indentation, the storage words
// (static, volatile, mutable), the type, the blank before the semicolon,
// the initializer and what follows the semicolon.
func scalarDeclaration(sources []string, read func(string) ([]byte, error), name string, member bool) (Edit, []string, bool) {
	decl := regexp.MustCompile(`^(\s*)((?:(?:static|volatile|mutable)\s+)*)([A-Za-z_][A-Za-z0-9_ \t]*?)\s+` +
		regexp.QuoteMeta(name) + `(\s*)(?:=\s*([^;,]*?)\s*)?;(.*)$`)
	where := atTop
	if member {
		where = inRecord
	}
	e, m, ok := declaration(sources, read, decl, nil, where)
	if !ok {
		return Edit{}, nil, false
	}
	for _, w := range strings.Fields(m[3]) {
		if !scalarWords[w] {
			return Edit{}, nil, false // a struct, a pointer, _Atomic already, or a type we do not know is scalar
		}
	}
	return e, m, true
}

// memberOf is the member both of r's accesses name, when they name one
// and the same (`a->balance` and `acct.balance`; in C++ also `balance_`
// with no base, a member of this object).
func memberOf(r Race, read func(string) ([]byte, error)) (string, bool) {
	var name string
	for _, a := range []Access{r.A, r.B} {
		e, ok := exprAt(read, a)
		if !ok {
			return "", false
		}
		_, op, n := splitMember(squeeze(e))
		if op == "" && !build.IsCXX(a.File) || !ident.MatchString(n) || name != "" && n != name {
			return "", false
		}
		name = n
	}
	return name, true
}

// printfLike are the variadic functions whose arguments a std::atomic
// cannot be passed to as it is.
var printfLike = regexp.MustCompile(`\b(?:std::)?(?:printf|fprintf|sprintf|snprintf|dprintf)\s*\(`)

// scope says where a declaration may be: at, the depth of blocks the
// line is in, and whether the innermost is a struct, union or class body.
type scope func(depth int, record bool) bool

func atTop(depth int, _ bool) bool         { return depth == 0 }
func inRecord(depth int, record bool) bool { return depth > 0 && record }

// record opens a struct, union or class body: `struct account {`,
// `class Account : public Base {`, `typedef struct {`.
var record = regexp.MustCompile(`^(?:typedef\s+)?(?:struct|union|class)\b[^()=;]*$`)

// declaration finds the one line, among the sources keep accepts (nil:
// all), that decl matches where scope allows: a global or a member
// declared alone on its line. It returns that line as an edit without its
// new text, and decl's submatches; false when no line matches or several
// do (statics of the same name in two files, members of the same name
// in two structs).
func declaration(sources []string, read func(string) ([]byte, error), decl *regexp.Regexp,
	keep func(string) bool, where scope) (Edit, []string, bool) {
	var found []Edit
	var m []string
	for _, file := range sources {
		if keep != nil && !keep(file) {
			continue
		}
		lines, err := fileLines(read, file)
		if err != nil {
			continue
		}
		var blocks []bool // whether each open block is a record's body
		prev := ""        // the last line of code, for a brace on a line of its own
		for i, line := range lines {
			if where(len(blocks), len(blocks) > 0 && blocks[len(blocks)-1]) {
				if mm := decl.FindStringSubmatch(line); mm != nil {
					m = mm
					found = append(found, Edit{File: file, Line: i + 1, Old: []string{line}})
				}
			}
			c := code(line)
			for k := 0; k < len(c); k++ {
				switch c[k] {
				case '{':
					head := strings.TrimSpace(c[:k])
					if head == "" {
						head = prev
					}
					blocks = append(blocks, record.MatchString(strings.TrimSpace(head)))
				case '}':
					if len(blocks) > 0 {
						blocks = blocks[:len(blocks)-1]
					}
				}
			}
			if c != "" {
				prev = c
			}
		}
	}
	if len(found) != 1 {
		return Edit{}, nil, false
	}
	return found[0], m, true
}

// cxxAtomic makes the C++ variable name of declaration e (matched as
// m) std::atomic<T>, includes <atomic> where it is declared, and loads
// it explicitly where printf-like calls take it.
func cxxAtomic(name string, sources []string, read func(string) ([]byte, error), e Edit, m []string) (atomic, bool) {
	volatile := strings.Contains(m[2], "volatile")
	storage := strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(m[2], "volatile", ""), "mutable", ""))
	if storage != "" {
		storage += " "
	}
	typ := strings.TrimSpace(m[3])
	if volatile {
		return atomic{}, false // std::atomic<volatile T> is not allowed, and dropping volatile is the developer's call
	}
	init := "{}"
	if m[5] != "" {
		init = "{" + m[5] + "}"
	}
	e.New = []string{m[1] + storage + "std::atomic<" + typ + "> " + name + init + ";" + m[6]}
	edits := []Edit{e}
	use := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b([^.(\[\w]|$)`)
	includes := map[string]int{} // last #include line by file
	hasAtomic := map[string]bool{}
	for _, file := range sources {
		if !build.IsCXX(file) {
			continue
		}
		lines, err := fileLines(read, file)
		if err != nil {
			continue
		}
		for i, line := range lines {
			c := code(line)
			if strings.HasPrefix(c, "#include") {
				includes[file] = i + 1
				hasAtomic[file] = hasAtomic[file] || strings.Contains(c, "<atomic>")
			}
			if printfLike.MatchString(c) && use.MatchString(stripLiterals(c)) && !(file == e.File && i+1 == e.Line) {
				loaded := outsideLiterals(line, func(part string) string { return use.ReplaceAllString(part, name+".load()$1") })
				edits = append(edits, Edit{File: file, Line: i + 1, Old: []string{line}, New: []string{loaded}})
			}
		}
	}
	if !hasAtomic[e.File] {
		at := includes[e.File]
		if at == 0 || at >= e.Line {
			return atomic{}, false // nowhere safe to include <atomic> before the declaration
		}
		edits = append(edits, Edit{File: e.File, Line: at + 1, New: []string{"#include <atomic>"}}) // an insertion
	}
	return atomic{name: name, typ: typ, cxx: true, edits: edits}, true
}
