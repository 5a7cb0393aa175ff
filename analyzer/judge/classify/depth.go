package classify

import (
	"fmt"

	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
)

// A race whose value decides an access elsewhere (it is compared, as in a
// bounds check, or indexes memory, or is a pointer that is followed) is the
// kind whose harm hides in one narrow interleaving: `if (next < N)
// use[next]++` racing with `next++` writes out of bounds only when the
// increment falls between the check and the use. Such races get more
// post-race schedules than Options.Ma (unless Ma is 1, which asks for
// the round-robin post-race schedule alone).

// deepMa is the post-race schedules a race whose value steers an access
// gets at least.
const deepMa = 8

// steering returns where the value a racing load reads is compared, used
// as an index or followed as a pointer, or "" when it is not.
func steering(prog *ir.Program, r *race.Race) string {
	for _, e := range []race.Endpoint{r.First, r.Second} {
		if e.Kind.IsWrite() {
			continue
		}
		if f := prog.Func(e.Function); f != nil {
			if where := steeringIn(prog, f, e.Loc); where != "" {
				return where
			}
		}
	}
	return ""
}

// steeringIn looks in f for a load at loc whose result (or a cast of it)
// reaches a comparison, a GEP index or a memory address.
func steeringIn(prog *ir.Program, f *ir.Function, loc ir.Loc) string {
	for i := range prog.InstsAt(f, ir.OpLoad, loc) {
		in := &f.Insts[i]
		if in.Dst < 0 {
			continue
		}
		slots := map[ir.Operand]bool{ir.Operand(in.Dst): true}
		for j := i + 1; j < len(f.Insts) && j < i+64; j++ {
			u := &f.Insts[j]
			switch {
			case u.Op == ir.OpCast && slots[u.A] && u.Dst >= 0:
				slots[ir.Operand(u.Dst)] = true
			case u.Op == ir.OpICmp && (slots[u.A] || slots[u.B]):
				return fmt.Sprintf("compared at %s", prog.Loc(u.Loc))
			case u.Op == ir.OpGEP && (slots[u.A] || usesIndex(u, slots)):
				return fmt.Sprintf("used as an index at %s", prog.Loc(u.Loc))
			case (u.Op == ir.OpLoad && slots[u.A]) || (u.Op == ir.OpStore && slots[u.B]):
				return fmt.Sprintf("followed as a pointer at %s", prog.Loc(u.Loc))
			}
		}
	}
	return ""
}

func usesIndex(in *ir.Inst, slots map[ir.Operand]bool) bool {
	for _, t := range in.Terms {
		if slots[t.Index] {
			return true
		}
	}
	return false
}
