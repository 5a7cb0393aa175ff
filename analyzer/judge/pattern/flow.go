package pattern

import (
	"encoding/binary"
	"fmt"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/category"
	"augur/analyzer/judge/classify"
)

// Patterns about where a value goes in the whole program.

// statsCounter: the race is on a global variable that the program only
// ever reads to write back into it (count++, total += n): no branch, no
// output, no pointer and no other memory depends on its value, and its
// address is taken nowhere else.
func statsCounter(prog *ir.Program, r *race.Race, _ *classify.Verdict) *Pattern {
	g := prog.GlobalByName(r.Object)
	if g == nil || r.Allocated != nil || r.ObjSize != g.Size {
		return nil
	}
	addr := ir.Addr(g.ID, 0)
	if addressStored(prog, addr) {
		return nil // a global's initializer points at it: read through that pointer, maybe
	}
	updates := 0
	for _, f := range prog.Funcs {
		for slot, c := range f.Consts {
			if c != addr {
				continue
			}
			n, ok := onlyUpdates(f, ir.Operand(f.NumSlots+slot))
			if !ok {
				return nil
			}
			updates += n
		}
	}
	if updates == 0 {
		return nil
	}
	return &Pattern{StatsCounter, fmt.Sprintf("%s is only ever read to be updated (%d read-modify-write%s in the program): "+
		"no branch, output or pointer depends on its value, so a lost update changes nothing the program does", r.Object, updates, plural(updates))}
}

// addressStored reports whether some global's initial contents hold addr.
func addressStored(prog *ir.Program, addr uint64) bool {
	for _, gl := range prog.Globals {
		for i := 0; i+8 <= len(gl.Init); i += 8 {
			if binary.LittleEndian.Uint64(gl.Init[i:]) == addr {
				return true
			}
		}
	}
	return false
}

// onlyUpdates checks every use in f of the address in slot: loads whose
// values flow, through arithmetic and casts, only into stores to the same
// address. It returns how many such loads there are.
func onlyUpdates(f *ir.Function, slot ir.Operand) (int, bool) {
	n := 0
	for _, u := range uses(f, slot) {
		if u.role != address {
			return 0, false // the address escapes: passed, stored, compared, indexed
		}
		if u.in.Op != ir.OpLoad {
			continue // a store to it
		}
		if !flowsOnlyInto(f, ir.Operand(u.in.Dst), slot, map[ir.Operand]bool{}) {
			return 0, false
		}
		n++
	}
	return n, true
}

// flowsOnlyInto reports whether the value in v reaches nothing but stores
// to the address in addr, through integer arithmetic and casts.
func flowsOnlyInto(f *ir.Function, v, addr ir.Operand, seen map[ir.Operand]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	for _, u := range uses(f, v) {
		switch {
		case u.in.Op == ir.OpStore && u.role == stored && u.in.B == addr:
		case (u.in.Op == ir.OpBin && u.role != other) || (u.in.Op == ir.OpCast && u.in.A == v):
			if u.in.Dst < 0 || !flowsOnlyInto(f, ir.Operand(u.in.Dst), addr, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// doubleChecked: the read is an unlocked check of a pointer against
// NULL, followed in the same function by taking a mutex and checking it
// again; the write happens holding a mutex.
func doubleChecked(prog *ir.Program, r *race.Race, _ *classify.Verdict) *Pattern {
	rd, w := r.First, r.Second
	if rd.Kind.IsWrite() {
		rd, w = w, rd
	}
	if len(rd.Locks) > 0 || len(w.Locks) == 0 || !w.Kind.IsWrite() {
		return nil
	}
	f, i := access(prog, rd)
	if f == nil || !checkedAgainstZero(f, &f.Insts[i]) {
		return nil
	}
	addr := f.Insts[i].A
	locked := false
	for j := i + 1; j < len(f.Insts); j++ {
		in := &f.Insts[j]
		switch {
		case in.Op == ir.OpCall && in.Callee != nil && in.Callee.Name == "pthread_mutex_lock":
			locked = true
		case locked && in.Op == ir.OpLoad && in.A == addr && checkedAgainstZero(f, in):
			return &Pattern{DoubleChecked, fmt.Sprintf("the unlocked check of %s at %s is repeated holding the mutex at %s:%d, "+
				"and the write at %s holds %s: a thread that sees NULL takes the mutex and checks again before it initializes, so the object is made once",
				r.Object, place(rd), short(rd.Loc.File), prog.Loc(in.Loc).Line, place(w), w.Locks[0])}
		}
	}
	return nil
}

// checkedAgainstZero reports whether the load's value is compared with 0
// (NULL).
func checkedAgainstZero(f *ir.Function, load *ir.Inst) bool {
	for _, u := range uses(f, ir.Operand(load.Dst)) {
		if c, ok := constant(f, u.operand); ok && c == 0 && u.in.Op == ir.OpICmp {
			return true
		}
	}
	return false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// allValuesValid: the value the racing read returns is only compared
// (through casts), and the classification saw both orders give the same
// outcome: whichever value the read gets, the comparisons decide alike.
func allValuesValid(prog *ir.Program, r *race.Race, v *classify.Verdict) *Pattern {
	if v.Category != category.Harmless || v.K == 0 {
		return nil
	}
	rd := r.First
	if rd.Kind.IsWrite() {
		rd = r.Second
	}
	f, i := access(prog, rd)
	if f == nil {
		return nil
	}
	var at []string
	if !onlyCompared(f, ir.Operand(f.Insts[i].Dst), prog, &at, map[ir.Operand]bool{}) || len(at) == 0 {
		return nil
	}
	return &Pattern{AllValuesValid, fmt.Sprintf("the value %s reads from %s is only compared (%s), and both orders of the race "+
		"gave the same outcome in %d pair%s of executions: every value it can read is one the program handles alike",
		rd.Function, r.Object, strings.Join(at, ", "), v.K, plural(v.K))}
}

// onlyCompared reports whether the value in v reaches nothing but integer
// comparisons, through casts, adding where each comparison is to at.
func onlyCompared(f *ir.Function, v ir.Operand, prog *ir.Program, at *[]string, seen map[ir.Operand]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	for _, u := range uses(f, v) {
		switch {
		case u.in.Op == ir.OpICmp && u.role != other:
			l := prog.Loc(u.in.Loc)
			*at = append(*at, fmt.Sprintf("%s:%d", short(l.File), l.Line))
		case u.in.Op == ir.OpCast && u.in.A == v && u.in.Dst >= 0:
			if !onlyCompared(f, ir.Operand(u.in.Dst), prog, at, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
