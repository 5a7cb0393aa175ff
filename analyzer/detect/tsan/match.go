package tsan

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"augur/analyzer/frontend/ir"
)

// Site is where one of a warning's accesses is in the program augur
// analyzes: the location of the access instruction as the scheduler
// names it (file:line:col, sched.Point.Loc), and its source line.
type Site struct {
	Loc  string
	File string
	Line int
	// Moved is set when the warning's line has no access in the program
	// now and the nearest one in the same function was taken: the source
	// was edited after the ThreadSanitizer run.
	Moved bool
	// Frame is the warning's frame the site comes from.
	Frame Frame
	// Alloc is set when the access is ThreadSanitizer's record of an
	// allocation (its innermost frame is malloc, calloc, realloc or
	// operator new): no access augur reports stands for it; the race is
	// the other access's, against the initialization of the memory.
	Alloc bool
}

// allocators are the functions whose frame, innermost, marks an
// allocation's pseudo-write.
var allocators = map[string]bool{"malloc": true, "calloc": true, "realloc": true, "aligned_alloc": true,
	"posix_memalign": true, "operator new": true, "operator new[]": true, "_Znwm": true, "_Znam": true}

// isAllocation reports whether an access's stack starts in an allocator.
func isAllocation(a Access) bool {
	if len(a.Frames) == 0 {
		return false
	}
	name := a.Frames[0].Func
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	return allocators[name]
}

// maxMove is how many lines from the warning's line an access in the
// same function may be and still be taken for it.
const maxMove = 12

// Matcher finds warnings' accesses in one program.
type Matcher struct {
	prog *ir.Program
	// byFile holds the access instructions of each source file of the
	// program's own (not the runtime's, not system headers'), by line.
	byFile map[string]map[int][]access
	files  []string
}

// access is one instruction that touches memory.
type access struct {
	loc   ir.LocID
	col   int
	fn    *ir.Function
	write bool
	call  bool // a call, whose model may read or write
}

// NewMatcher indexes prog's memory accesses by source line.
func NewMatcher(prog *ir.Program) *Matcher {
	mt := &Matcher{prog: prog, byFile: map[string]map[int][]access{}}
	for _, fn := range prog.Funcs {
		for i := range fn.Insts {
			in := &fn.Insts[i]
			write := false
			switch in.Op {
			case ir.OpStore, ir.OpAtomicRMW, ir.OpCmpXchg:
				write = true
			case ir.OpLoad, ir.OpCall:
			default:
				continue
			}
			l := prog.Loc(in.Loc)
			if l.File == "" || l.Line == 0 || !ownSource(l.File) {
				continue
			}
			lines := mt.byFile[l.File]
			if lines == nil {
				lines = map[int][]access{}
				mt.byFile[l.File] = lines
				mt.files = append(mt.files, l.File)
			}
			lines[l.Line] = append(lines[l.Line], access{loc: in.Loc, col: l.Col, fn: fn, write: write, call: in.Op == ir.OpCall})
		}
	}
	sort.Strings(mt.files)
	return mt
}

// ownSource reports whether a file is the program's own rather than
// augur's runtime's or a system header's (libc, libstdc++).
func ownSource(f string) bool {
	return !strings.HasPrefix(f, "augur-runtime/") && !strings.Contains(f, "/runtime-") &&
		!strings.HasPrefix(f, "/usr/") && !strings.HasPrefix(f, "/lib/")
}

// file returns the program's own file that path names: the same path, or
// the one sharing the longest tail of path components with it (the
// ThreadSanitizer build may have run in another directory); "" when none
// shares even the base name.
func (mt *Matcher) file(path string) string {
	if _, ok := mt.byFile[path]; ok {
		return path
	}
	want := strings.Split(filepath.ToSlash(path), "/")
	best, bestN := "", 0
	for _, f := range mt.files {
		have := strings.Split(filepath.ToSlash(f), "/")
		n := 0
		for n < len(want) && n < len(have) && want[len(want)-1-n] == have[len(have)-1-n] {
			n++
		}
		if n > bestN {
			best, bestN = f, n
		}
	}
	return best
}

// Locate finds access a in the program: its innermost frame in the
// program's own sources (frames in the C library, libstdc++ or
// ThreadSanitizer's runtime are skipped), then the access instruction at
// that line, nearest the frame's column. A line with no access (an edit
// moved the code) takes the nearest access of the same kind in the same
// function within maxMove lines.
func (mt *Matcher) Locate(a Access) (Site, error) {
	tried := ""
	for _, fr := range a.Frames {
		if fr.File != "" && fr.Line == 0 && ownSource(fr.File) && mt.file(fr.File) != "" {
			return Site{}, fmt.Errorf("the stack's frame in the program (%s in %s) has no line number: was the ThreadSanitizer build made with -g?", fr.Func, fr.File)
		}
		if fr.File == "" || fr.Line == 0 || !ownSource(fr.File) {
			continue
		}
		file := mt.file(fr.File)
		if file == "" {
			if tried == "" {
				tried = fmt.Sprintf("%s:%d", fr.File, fr.Line)
			}
			continue
		}
		lines := mt.byFile[file]
		// The frame's own line, when an access there has its column (or
		// the frame has none); else the code moved, if an access with
		// its column and kind is near in the same function; else the
		// line's nearest access after all.
		cands := lines[fr.Line]
		if acc, ok := exact(cands, fr.Col, a.Write); ok || len(cands) > 0 && fr.Col == 0 {
			if !ok {
				acc = nearestCol(cands, fr.Col, a.Write)
			}
			s := mt.site(acc, file, fr, false)
			s.Alloc = isAllocation(a)
			return s, nil
		}
		if acc, ok := mt.moved(lines, fr, a.Write); ok {
			s := mt.site(acc, file, fr, true)
			s.Alloc = isAllocation(a)
			return s, nil
		}
		if len(cands) > 0 {
			s := mt.site(nearestCol(cands, fr.Col, a.Write), file, fr, false)
			s.Alloc = isAllocation(a)
			return s, nil
		}
		return Site{}, fmt.Errorf("no memory access at %s:%d (%s) in the program", file, fr.Line, fr.Func)
	}
	if tried != "" {
		return Site{}, fmt.Errorf("%s is not in the program", tried)
	}
	return Site{}, fmt.Errorf("no frame of the stack is in the program's sources")
}

func (mt *Matcher) site(acc access, file string, fr Frame, moved bool) Site {
	l := mt.prog.Loc(acc.loc)
	return Site{Loc: mt.prog.LocString(acc.loc), File: file, Line: l.Line, Moved: moved, Frame: fr}
}

// nearestCol picks the access nearest col (any when the frame has none),
// preferring one of the warning's kind (a write for a write).
func nearestCol(cands []access, col int, write bool) access {
	best := cands[0]
	score := func(c access) int {
		d := c.col - col
		if d < 0 {
			d = -d
		}
		if col == 0 {
			d = 0
		}
		if c.write != write {
			d += 1000
		}
		return d
	}
	for _, c := range cands[1:] {
		if score(c) < score(best) {
			best = c
		}
	}
	return best
}

// exact finds the access at col (any column when col is 0) of the
// warning's kind (a read may be a call's: memcpy reads and writes).
func exact(cands []access, col int, write bool) (access, bool) {
	for _, c := range cands {
		if (c.col == col || col == 0) && (c.write == write || c.call) {
			return c, true
		}
	}
	return access{}, false
}

// moved finds the access an edit moved: on the nearest line within
// maxMove of the frame's, in the function the frame names, the access at
// the frame's column of the warning's kind (without a column, the first
// of its kind).
func (mt *Matcher) moved(lines map[int][]access, fr Frame, write bool) (access, bool) {
	for d := 1; d <= maxMove; d++ {
		for _, line := range []int{fr.Line - d, fr.Line + d} {
			var here []access
			for _, c := range lines[line] {
				if sameFunction(c.fn, fr.Func) {
					here = append(here, c)
				}
			}
			if c, ok := exact(here, fr.Col, write); ok {
				return c, true
			}
		}
	}
	return access{}, false
}

// sameFunction reports whether fn is the function a frame names: by its
// name, or by a demangled C++ name's identifier.
func sameFunction(fn *ir.Function, name string) bool {
	if fn.Name == name {
		return true
	}
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return name != "" && strings.Contains(fn.Name, name)
}
