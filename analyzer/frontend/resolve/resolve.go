// Package resolve completes a program from the files around it, as a
// linker completes one from a library: a program whose main calls a
// function defined in another file of the project gets that file, and
// the files it needs in turn, without a configuration that lists them.
//
// The candidates are a project's sources (a compilation database's
// files, or the C/C++ files under the project's directory). A candidate
// is taken when it defines a symbol the program uses and defines nowhere;
// one that defines main (another program), conflicts with a definition
// the program has, or does not compile is left out, and the reason is
// kept so that the call the analysis cannot follow can name the file.
package resolve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
	"augur/internal/cachefile"
)

// Taken is a source the program was completed with, and why.
type Taken struct {
	File string `json:"file"`
	// Symbol is the first symbol it defines that the program needed, and
	// NeededBy the file that uses it.
	Symbol   string `json:"symbol"`
	NeededBy string `json:"needed_by"`
}

// Skipped is a source that defines a symbol the program needs but was
// not taken, and why.
type Skipped struct {
	File   string `json:"file"`
	Symbol string `json:"symbol"`
	Why    string `json:"why"`
}

// Result is what completing a program found.
type Result struct {
	Taken   []Taken
	Skipped []Skipped
}

// Sources returns files with the taken sources after them.
func (r *Result) Sources(files []string) []string {
	out := slices.Clone(files)
	for _, t := range r.Taken {
		out = append(out, t.File)
	}
	return out
}

// SkippedFor returns why the source that defines sym was left out, if one
// does.
func (r *Result) SkippedFor(sym string) (Skipped, bool) {
	if r == nil {
		return Skipped{}, false
	}
	for _, s := range r.Skipped {
		if s.Symbol == sym {
			return s, true
		}
	}
	return Skipped{}, false
}

// maxSourceBytes bounds the text of a candidate read to look for a name:
// a larger file is no candidate.
const maxSourceBytes = 16 << 20

// Complete finds, among candidates, the sources that define what the
// built program bc (from files) uses and defines nowhere, closed
// transitively. provided says which names are defined elsewhere (augur's
// models of the C library). Each candidate taken is compiled with opts,
// as the program's own files are; compiling what is already in the cache
// costs nothing.
func Complete(ctx context.Context, files []string, bc *build.Program, candidates []string, opts build.Options,
	provided func(string) bool) (*Result, error) {
	r := &Result{}
	c := &closure{defined: map[string]bool{}, needer: map[string]string{}, provided: provided, texts: map[string][]byte{}}
	for i, bcf := range bc.Bitcode {
		s, err := symbols(bcf)
		if err != nil {
			return nil, err
		}
		c.add(bc.Sources[i], s)
	}
	in := map[string]bool{}
	for _, f := range files {
		in[absPath(f)] = true
	}
	tried, runtimeRead := map[string]bool{}, false
	for {
		sym, ok := c.nextNeeded(tried)
		if ok && !runtimeRead {
			// The runtime's definitions are read only for a program
			// that needs more than augur models: most need nothing.
			runtimeRead = true
			for _, bcf := range bc.Runtime {
				s, err := symbols(bcf)
				if err != nil {
					return nil, err
				}
				c.define(s.Defined)
			}
			continue
		}
		if !ok {
			// What was left out for a name another file then defined
			// explains nothing.
			r.Skipped = slices.DeleteFunc(r.Skipped, func(s Skipped) bool { return c.defined[s.Symbol] })
			return r, nil
		}
		tried[sym] = true
		others, programs := c.mentioning(sym, candidates, in, c.needer[sym])
		taken, err := c.takeFirst(ctx, r, sym, others, opts)
		if err != nil {
			return nil, err
		}
		if taken != "" {
			in[taken] = true
			continue
		}
		// Only to say why the call stays unfollowed: another program's
		// file that defines the name.
		for _, p := range programs {
			if s, why := c.examine(ctx, p, opts); slices.Contains(s.Defined, sym) {
				r.Skipped = append(r.Skipped, Skipped{File: p, Symbol: sym, Why: why})
				break
			}
		}
	}
}

// takeFirst takes into the program the first of candidates that defines
// sym and can be taken, and returns it ("" for none); those that define
// it or do not compile but cannot be taken are recorded in r, with why.
func (c *closure) takeFirst(ctx context.Context, r *Result, sym string, candidates []string, opts build.Options) (string, error) {
	for _, cand := range candidates {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		s, why := c.examine(ctx, cand, opts)
		if why == "" && !slices.Contains(s.Defined, sym) {
			continue
		}
		if why == "" {
			why = c.conflict(s)
		}
		if why != "" {
			r.Skipped = append(r.Skipped, Skipped{File: cand, Symbol: sym, Why: why})
			continue
		}
		r.Taken = append(r.Taken, Taken{File: cand, Symbol: sym, NeededBy: c.needer[sym]})
		c.add(cand, s)
		return cand, nil
	}
	return "", nil
}

// closure is the program's symbols as files are added to it.
type closure struct {
	defined  map[string]bool
	needer   map[string]string // a symbol used and not defined -> the first file that uses it
	order    []string          // the symbols of needer, in the order they were met
	provided func(string) bool
	texts    map[string][]byte
}

func (c *closure) define(names []string) {
	for _, n := range names {
		c.defined[n] = true
	}
}

// add counts a file of the program: what it defines, and what it uses.
func (c *closure) add(file string, s bitcode.Symbols) {
	c.define(s.Defined)
	for _, u := range s.Undefined {
		if _, ok := c.needer[u]; !ok {
			c.needer[u] = file
			c.order = append(c.order, u)
		}
	}
}

// nextNeeded returns the first symbol used, defined nowhere and not looked
// for yet.
func (c *closure) nextNeeded(tried map[string]bool) (string, bool) {
	for _, u := range c.order {
		if !tried[u] && !c.defined[u] && (c.provided == nil || !c.provided(u)) {
			return u, true
		}
	}
	return "", false
}

// mentioning returns the candidates not in the program whose text names
// sym, those in the directory of the file that needs it first: others,
// and programs, those whose text defines main (another program, never
// taken, compiled only to explain a name no other file defines).
func (c *closure) mentioning(sym string, candidates []string, in map[string]bool, needer string) (others, programs []string) {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(sym) + `\b`)
	for _, cand := range candidates {
		cand = absPath(cand)
		if in[cand] || !build.IsSource(cand) {
			continue
		}
		text, ok := c.texts[cand]
		if !ok {
			text = readSmall(cand)
			c.texts[cand] = text
		}
		switch {
		case !word.Match(text):
		case DefinesMain(text):
			programs = append(programs, cand)
		default:
			others = append(others, cand)
		}
	}
	// The likeliest definers are compiled first, so a name many files
	// use costs one compile: a line at the left margin that names it
	// before a parenthesis and does not end in a semicolon (a function's
	// definition, as C is usually written), then the files beside the
	// one that needs it.
	def := regexp.MustCompile(`(?m)^[A-Za-z_][^;\n]*\b` + regexp.QuoteMeta(sym) + `\s*\([^;\n]*$`)
	dir := filepath.Dir(needer)
	rank := func(f string) int {
		r := 0
		if !def.Match(c.texts[f]) {
			r += 2
		}
		if filepath.Dir(f) != dir {
			r++
		}
		return r
	}
	near := func(list []string) {
		sort.SliceStable(list, func(i, j int) bool { return rank(list[i]) < rank(list[j]) })
	}
	near(others)
	near(programs)
	return others, programs
}

// mainDef matches a definition of main at the start of a line.
var mainDef = regexp.MustCompile(`(?m)^\s*(?:(?:static|extern)\s+)?(?:int|auto|void)\s+main\s*\(`)

// DefinesMain reports whether C/C++ source text defines main: the file
// is a program of its own.
func DefinesMain(src []byte) bool { return mainDef.Match(src) }

// examine compiles a candidate and reads its symbols; why says what keeps
// it out of the program whatever it defines.
func (c *closure) examine(ctx context.Context, file string, opts build.Options) (bitcode.Symbols, string) {
	opts.Clients = nil
	bc, err := build.Build(ctx, []string{file}, opts)
	if err != nil {
		return bitcode.Symbols{}, "it does not compile on its own"
	}
	s, err := symbols(bc.Bitcode[0])
	if err != nil {
		return bitcode.Symbols{}, fmt.Sprintf("its bitcode could not be read: %v", err)
	}
	if slices.Contains(s.Defined, "main") {
		return s, "it defines main: it is another program"
	}
	return s, ""
}

// conflict says which definition of the program a candidate would
// duplicate, if any.
func (c *closure) conflict(s bitcode.Symbols) string {
	for _, d := range s.Defined {
		if c.defined[d] {
			return fmt.Sprintf("it also defines '%s', which the program already has", d)
		}
	}
	return ""
}

// readSmall returns a file's text, or nothing when it cannot be read or
// is too large to be a candidate.
func readSmall(path string) []byte {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxSourceBytes {
		return nil
	}
	b, _ := os.ReadFile(path)
	return b
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// symbolMemo keeps the symbols of bitcode files already read, by path,
// size and modification time: the language server completes a program
// at every save, and its files seldom change. It is emptied when it
// holds maxMemo files, so a long session keeps what it uses now.
var (
	memoMu     sync.Mutex
	symbolMemo = map[memoKey]bitcode.Symbols{}
)

const maxMemo = 4096

type memoKey struct {
	path  string
	size  int64
	mtime int64
}

func symbols(path string) (bitcode.Symbols, error) {
	st, err := os.Stat(path)
	if err != nil {
		return bitcode.Symbols{}, fmt.Errorf("read symbols: %w", err)
	}
	key := memoKey{path, st.Size(), st.ModTime().UnixNano()}
	memoMu.Lock()
	s, ok := symbolMemo[key]
	memoMu.Unlock()
	if ok {
		return s, nil
	}
	if s, ok = readStored(key); !ok {
		if s, err = bitcode.ReadSymbols(path); err != nil {
			return s, err
		}
		store(key, s)
	}
	memoMu.Lock()
	if len(symbolMemo) >= maxMemo {
		clear(symbolMemo)
	}
	symbolMemo[key] = s
	memoMu.Unlock()
	return s, nil
}

// A compiled file in the build cache keeps its symbols beside it
// (KEY.syms by KEY.bc, pruned with it): reading the runtime's 22 files'
// took 47 ms, which every command paid. They hold for the file whose
// contents hash to Sum. Neither its time nor its size says that: the
// cache marks a file used by setting its modification time
// (cachefile.Touch), so symbols kept by time were stale after every
// command that used them, and each read all the files again (50 to 80 ms
// of a warm run's start-up); and a header's change compiles the file
// again under the same name, perhaps to the same size.
type stored struct {
	// Format is symbolsFormat when the symbols were read as now: older
	// ones left out aliases (a class's C1 constructor and D1 destructor).
	Format    int      `json:"format"`
	Sum       string   `json:"sum"`
	Defined   []string `json:"defined"`
	Undefined []string `json:"undefined"`
}

// contentSum is the hash stored symbols are kept under: hashing the
// runtime's files (600 KB) takes about a millisecond.
func contentSum(path string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16]), true
}

// storedPath is where the symbols of a cached bitcode file are kept, or
// "" for a file outside the build cache (the user's own bitcode).
func storedPath(bc string) string {
	base, ok := strings.CutSuffix(bc, ".bc")
	if !ok {
		return ""
	}
	if _, err := os.Stat(base + build.DepsExt); err != nil {
		return ""
	}
	return base + SymbolsExt
}

// symbolsFormat is the form of stored symbols ReadSymbols makes now.
const symbolsFormat = 2

// SymbolsExt is the extension of the symbols kept beside a cached
// bitcode file.
const SymbolsExt = ".syms"

func readStored(key memoKey) (bitcode.Symbols, bool) {
	p := storedPath(key.path)
	if p == "" {
		return bitcode.Symbols{}, false
	}
	data, err := os.ReadFile(p)
	var st stored
	if err != nil || json.Unmarshal(data, &st) != nil || st.Sum == "" || st.Format != symbolsFormat {
		return bitcode.Symbols{}, false
	}
	if sum, ok := contentSum(key.path); !ok || sum != st.Sum {
		return bitcode.Symbols{}, false
	}
	return bitcode.Symbols{Defined: st.Defined, Undefined: st.Undefined}, true
}

func store(key memoKey, s bitcode.Symbols) {
	p := storedPath(key.path)
	if p == "" {
		return
	}
	if sum, ok := contentSum(key.path); ok {
		data, _ := json.Marshal(stored{Format: symbolsFormat, Sum: sum, Defined: s.Defined, Undefined: s.Undefined})
		cachefile.WriteAtomic(p, data) // a cache: a failed write costs a parse next time
	}
}
