package fix

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"augur/analyzer/frontend/build"
	"augur/analyzer/output/srcexpr"
)

// FlagFixes proposes, for a race that a thread spinning on a flag orders
// (ad hoc synchronization: r.SpinAt is the spinning read), making the
// flag atomic, its stores releases and its loads acquires. The spin then
// synchronizes as it was meant to: what the other thread wrote before
// setting the flag happens before what the spinning thread reads after
// it sees the flag set, on any memory model and for any detector.
func FlagFixes(r Race, read func(string) ([]byte, error)) []Fix {
	if r.SpinAt.File == "" {
		return nil
	}
	line, ok := lineAt(read, r.SpinAt.File, r.SpinAt.Line)
	if !ok {
		return nil
	}
	flag := squeeze(srcexpr.Name(line, r.SpinAt.Col))
	_, op, name := splitMember(flag)
	if !ident.MatchString(name) {
		return nil
	}
	cxx := build.IsCXX(r.SpinAt.File)
	member := op != ""
	e, m, ok := scalarDeclaration(r.Sources, read, name, member)
	bare := !member // uses without a base name it
	if !ok && cxx && !member {
		member = true // a member of this object, named without this->
		e, m, ok = scalarDeclaration(r.Sources, read, name, true)
	}
	if !ok {
		return nil
	}
	edits := []Edit{flagDeclaration(e, m, name, cxx)}
	changed := map[string]bool{e.File: true}
	for _, file := range r.Sources {
		if build.IsCXX(file) != cxx {
			continue
		}
		lines, err := fileLines(read, file)
		if err != nil {
			continue
		}
		for i, l := range lines {
			if file == e.File && i+1 == e.Line {
				continue
			}
			if n, ok := flagUses(l, name, member, bare, cxx); ok {
				edits = append(edits, Edit{File: file, Line: i + 1, Old: []string{l}, New: []string{n}})
				changed[file] = true
			}
		}
	}
	header := "<stdatomic.h>"
	if cxx {
		header = "<atomic>"
	}
	files := make([]string, 0, len(changed))
	for f := range changed {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		inc, ok := includeOnce(read, f, header)
		if !ok {
			return nil
		}
		edits = append(edits, inc...)
	}
	return sorted([]Fix{{Kind: Atomic,
		Title: fmt.Sprintf("Make the flag %s atomic, set with a release store and read with an acquire load: the spin at %s:%d then orders what was written before the flag was set",
			name, filepath.Base(r.SpinAt.File), r.SpinAt.Line),
		Edits: edits}})
}

// flagDeclaration makes the flag's declaration e (matched as m) atomic:
// _Atomic in C; std::atomic<T> in C++, without volatile (which
// std::atomic does not take, and an atomic flag does not need).
func flagDeclaration(e Edit, m []string, name string, cxx bool) Edit {
	init := m[4]
	if m[5] != "" {
		init = " = " + m[5]
	}
	if !cxx {
		e.New = []string{m[1] + m[2] + "_Atomic " + m[3] + " " + name + init + ";" + m[6]}
		return e
	}
	storage := strings.Join(strings.FieldsFunc(m[2], func(r rune) bool { return r == ' ' || r == '\t' }), " ")
	storage = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(storage, "volatile", ""), "mutable", ""))
	if storage != "" {
		storage += " "
	}
	braces := "{}"
	if m[5] != "" {
		braces = "{" + m[5] + "}"
	}
	e.New = []string{m[1] + storage + "std::atomic<" + strings.TrimSpace(m[3]) + "> " + name + braces + ";" + m[6]}
	return e
}

var (
	// flagStore is a statement that only stores into the flag: `LV = V;`.
	flagStore = regexp.MustCompile(`^(\s*)(.+?)\s*=\s*([^=;][^;]*?)\s*;(.*)$`)
	// modifies is what follows an lvalue that an assignment or an
	// increment changes: `= v`, `+= v`, `++`.
	modifies = regexp.MustCompile(`^(?:[-+*/%&|^]?=[^=]|\+\+|--)`)
)

// flagUses rewrites a line's uses of the flag name (reached through ->
// or . when member is set, by the name alone when bare is: a C++ class's
// member is both): a statement that stores it becomes a release store,
// any other read an acquire load. Compound assignments and increments
// are left as they are (an atomic read-modify-write once the flag is
// atomic), and so is its address; comments and literals are not code.
func flagUses(line, name string, member, bare, cxx bool) (string, bool) {
	masked := maskLiterals(line)
	if c := code(line); c != "" {
		end := strings.Index(line, c) + len(c)
		masked = masked[:end] + strings.Repeat(" ", len(masked)-end)
	} else {
		return line, false
	}
	if !strings.Contains(masked, name) {
		return line, false // most lines: no regular expression to build
	}
	var spans [][2]int // lvalues of the flag, left to right
	for _, loc := range regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).FindAllStringIndex(masked, -1) {
		before := strings.TrimRight(masked[:loc[0]], " \t")
		isMember := strings.HasSuffix(before, "->") || strings.HasSuffix(before, ".")
		if isMember && !member || !isMember && !bare || strings.HasPrefix(strings.TrimLeft(masked[loc[1]:], " \t"), "(") {
			continue // another variable's member of that name, or a call
		}
		s, e := srcexpr.Span(masked, loc[0]+1)
		if e != loc[1] {
			continue // an element or a member of the flag: not a scalar use
		}
		spans = append(spans, [2]int{s, e})
	}
	if len(spans) == 0 {
		return line, false
	}
	if m := flagStore.FindStringSubmatch(line); len(spans) == 1 && m != nil && strings.TrimSpace(m[2]) == strings.TrimSpace(line[spans[0][0]:spans[0][1]]) {
		lv, v := strings.TrimSpace(m[2]), m[3]
		if cxx {
			return m[1] + lv + ".store(" + v + ", std::memory_order_release);" + m[4], true
		}
		return m[1] + "atomic_store_explicit(&" + lv + ", " + v + ", memory_order_release);" + m[4], true
	}
	out, changed := line, false
	for i := len(spans) - 1; i >= 0; i-- {
		s, e := spans[i][0], spans[i][1]
		rest := strings.TrimLeft(masked[e:], " \t")
		if strings.HasSuffix(strings.TrimRight(masked[:s], " \t"), "&") ||
			modifies.MatchString(rest) ||
			strings.HasSuffix(strings.TrimRight(masked[:s], " \t"), "++") || strings.HasSuffix(strings.TrimRight(masked[:s], " \t"), "--") {
			continue
		}
		lv := out[s:e]
		load := "atomic_load_explicit(&" + lv + ", memory_order_acquire)"
		if cxx {
			load = lv + ".load(std::memory_order_acquire)"
		}
		out, changed = out[:s]+load+out[e:], true
	}
	return out, changed
}

// maskLiterals is line with the insides of its string and character
// literals blanked, the same length: a search of it finds only code.
func maskLiterals(line string) string {
	return rewrite(line, func(sg segment) string { return sg.text }, func(sg segment) string {
		if len(sg.text) < 2 {
			return sg.text
		}
		end := len(sg.text)
		if sg.closed {
			end--
		}
		return sg.text[:1] + strings.Repeat(" ", end-1) + sg.text[end:]
	})
}
