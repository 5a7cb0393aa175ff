// Package pattern names the benign pattern a race the classification
// found no harm in follows, with the evidence that shows it: the patterns
// developers recognize (the Record/Replay Analyzer paper's benign races),
// so that "harmless in k tries" becomes "a redundant write: both store 1".
//
// A pattern is claimed only on a race classified k-witness-harmless or
// single-ordering, and only when the program shows it: the lowered code
// of the racing accesses (what they store, which bits they touch, where
// the value read goes) or the classification's own finding (a thread
// spinning until the other goes first). Where nothing shows a pattern,
// none is claimed.
package pattern

import (
	"fmt"
	"path/filepath"
	"regexp"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/category"
	"augur/analyzer/judge/classify"
)

// The patterns.
const (
	RedundantWrite = "redundant-write"
	DisjointBits   = "disjoint-bits"
	StatsCounter   = "statistics-counter"
	DoubleChecked  = "double-checked-initialization"
	AdHocSync      = "ad-hoc-synchronization"
	AllValuesValid = "all-values-valid"
)

// Pattern is a benign pattern and the evidence for it, in a sentence.
type Pattern struct {
	Name     string
	Evidence string `loc:"text"` // names lines, which move with the source
}

// Recognize returns the pattern race r follows, or nil.
func Recognize(prog *ir.Program, r *race.Race, v *classify.Verdict) *Pattern {
	if v == nil || (v.Category != category.Harmless && v.Category != category.SingleOrdering) {
		return nil
	}
	for _, p := range []func(*ir.Program, *race.Race, *classify.Verdict) *Pattern{
		adHoc, doubleChecked, redundantWrite, disjointBits, statsCounter, allValuesValid,
	} {
		if x := p(prog, r, v); x != nil {
			return x
		}
	}
	return nil
}

var spins = regexp.MustCompile(`thread (\d+) spins at (\S+) waiting for thread (\d+) to go first`)

// adHoc: the classification could not enforce the other order because a
// thread spun on a flag until the other went first.
func adHoc(_ *ir.Program, r *race.Race, v *classify.Verdict) *Pattern {
	m := spins.FindStringSubmatch(v.Reason)
	if v.Category != category.SingleOrdering || m == nil {
		return nil
	}
	return &Pattern{AdHocSync, fmt.Sprintf("thread %s spins at %s until thread %s goes first: a flag orders these accesses to %s, "+
		"so only one order can happen", m[1], short(m[2]), m[3], r.Object)}
}

// SpinAt is where, by verdict v, a thread spun on a flag until the other
// went first: the spinning access's location, "" when no thread did.
func SpinAt(v *classify.Verdict) string {
	if v == nil || v.Category != category.SingleOrdering {
		return ""
	}
	if m := spins.FindStringSubmatch(v.Reason); m != nil {
		return m[2]
	}
	return ""
}

// redundantWrite: both accesses store the same constant.
func redundantWrite(prog *ir.Program, r *race.Race, _ *classify.Verdict) *Pattern {
	fa, ia := access(prog, r.First)
	fb, ib := access(prog, r.Second)
	if fa == nil || fb == nil || r.First.Kind != vm.Write || r.Second.Kind != vm.Write {
		return nil
	}
	sa, sb := &fa.Insts[ia], &fb.Insts[ib]
	x, okA := constant(fa, sa.A)
	y, okB := constant(fb, sb.A)
	if !okA || !okB || x != y || sa.Imm != sb.Imm {
		return nil
	}
	where := fmt.Sprintf("%s and %s", place(r.First), place(r.Second))
	if r.First.Loc == r.Second.Loc {
		where = place(r.First) + ", in two threads"
	}
	return &Pattern{RedundantWrite, fmt.Sprintf("both accesses store %d into %s (%s): either order leaves the same value",
		signed(x, sa.Imm), r.Object, where)}
}

// disjointBits: one access sets or clears bits of a word with a constant
// mask (x |= m, x &= ~m), and the other reads the word only to test bits
// that mask leaves alone.
func disjointBits(prog *ir.Program, r *race.Race, _ *classify.Verdict) *Pattern {
	w, rd := r.First, r.Second
	if !w.Kind.IsWrite() {
		w, rd = rd, w
	}
	if w.Kind != vm.Write || rd.Kind != vm.Read {
		return nil
	}
	fw, iw := access(prog, w)
	fr, ir_ := access(prog, rd)
	if fw == nil || fr == nil {
		return nil
	}
	changed, how, ok := maskWrite(fw, &fw.Insts[iw])
	if !ok {
		return nil
	}
	load := &fr.Insts[ir_]
	us := uses(fr, ir.Operand(load.Dst))
	if len(us) == 0 {
		return nil
	}
	tested := uint64(0)
	for _, u := range us {
		m, isConst := constant(fr, u.operand)
		if u.in.Op != ir.OpBin || u.in.Sub != ir.BinAnd || !isConst {
			return nil // the value is used whole somewhere
		}
		tested |= m
	}
	if tested&changed != 0 {
		return nil
	}
	return &Pattern{DisjointBits, fmt.Sprintf("the write in %s changes only bits %#x of %s (%s), and the read in %s tests only bits %#x (& %#x): "+
		"neither order changes what the read sees", w.Function, changed, r.Object, how, rd.Function, tested, tested)}
}

// maskWrite recognizes the store of x |= m or x &= m: it returns the bits
// the store can change and how, in C.
func maskWrite(f *ir.Function, st *ir.Inst) (uint64, string, bool) {
	def := definition(f, st.A)
	if def == nil || def.Op != ir.OpBin || (def.Sub != ir.BinOr && def.Sub != ir.BinAnd) {
		return 0, "", false
	}
	m, ok := constant(f, def.B)
	src := definition(f, def.A)
	if !ok {
		m, ok = constant(f, def.A)
		src = definition(f, def.B)
	}
	// The other operand is a load of the same address the store writes.
	if !ok || src == nil || src.Op != ir.OpLoad || src.A != st.B {
		return 0, "", false
	}
	if def.Sub == ir.BinOr {
		return m, fmt.Sprintf("|= %#x", m), true
	}
	return ^m & def.Mask, fmt.Sprintf("&= %#x", m), true
}

// definition is the instruction whose result is slot, or nil.
func definition(f *ir.Function, slot ir.Operand) *ir.Inst {
	for i := range f.Insts {
		if in := &f.Insts[i]; in.Dst >= 0 && ir.Operand(in.Dst) == slot {
			return in
		}
	}
	return nil
}

// place is an endpoint's file:line, the file without its directory.
func place(e race.Endpoint) string {
	return fmt.Sprintf("%s:%d", filepath.Base(e.Loc.File), e.Loc.Line)
}

// short is a file:line:col location with the file's directory left out.
func short(loc string) string { return filepath.Base(loc) }

// signed reads a constant of size bytes as a C int would print it.
func signed(x uint64, size int64) int64 {
	if size <= 0 || size >= 8 {
		return int64(x)
	}
	shift := 64 - 8*size
	return int64(x<<shift) >> shift
}
