package pattern

import (
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// What the patterns read of the lowered program: the instruction of a
// racing access, constants, and where a value goes.

// access finds the load (read) or store (write) of endpoint e: the first
// instruction of that kind at e's location in e's function.
func access(prog *ir.Program, e race.Endpoint) (*ir.Function, int) {
	f := prog.Func(e.Function)
	if f == nil {
		return nil, -1
	}
	op := ir.OpLoad
	if e.Kind == vm.Write {
		op = ir.OpStore
	} else if e.Kind != vm.Read {
		return nil, -1 // atomics and frees are no plain access
	}
	for i := range prog.InstsAt(f, op, e.Loc) {
		return f, i
	}
	return nil, -1
}

// constant returns the value of operand o when it is one of f's constants.
func constant(f *ir.Function, o ir.Operand) (uint64, bool) {
	if k := int(o) - f.NumSlots; o >= 0 && k >= 0 && k < len(f.Consts) {
		return f.Consts[k], true
	}
	return 0, false
}

// use is one instruction's reading of a slot: the instruction, and
// whether the slot is its address (load A, store B), stored value
// (store A), or something else.
type use struct {
	in      *ir.Inst
	role    role
	operand ir.Operand // the other operand of a binary operation
}

type role int

const (
	other role = iota
	address
	stored
	operandA
	operandB
)

// uses lists every reading of slot in f: by instructions, arguments,
// GEP indexes and phi moves on edges.
func uses(f *ir.Function, slot ir.Operand) []use {
	var out []use
	for i := range f.Insts {
		in := &f.Insts[i]
		switch {
		case in.Op == ir.OpLoad && in.A == slot:
			out = append(out, use{in: in, role: address})
		case in.Op == ir.OpStore && in.B == slot:
			out = append(out, use{in: in, role: address})
		case in.Op == ir.OpStore && in.A == slot:
			out = append(out, use{in: in, role: stored})
		case (in.Op == ir.OpBin || in.Op == ir.OpICmp) && in.A == slot:
			out = append(out, use{in: in, role: operandA, operand: in.B})
		case (in.Op == ir.OpBin || in.Op == ir.OpICmp) && in.B == slot:
			out = append(out, use{in: in, role: operandB, operand: in.A})
		case readsOperand(in, slot):
			out = append(out, use{in: in, role: other})
		}
		for _, t := range in.Targets {
			for _, m := range t.Moves {
				if m.Src == slot {
					out = append(out, use{in: in, role: other})
				}
			}
		}
	}
	return out
}

// readsOperand reports whether in may read slot anywhere besides the
// cases uses tells apart (a call argument, a GEP index, a select's
// operand...). An operand field an instruction does not use holds 0, so
// slot 0 may be reported read where it is not: the patterns then claim
// less, never more.
func readsOperand(in *ir.Inst, slot ir.Operand) bool {
	if in.A == slot || in.B == slot || in.C == slot {
		return true
	}
	for _, a := range in.Args {
		if a == slot {
			return true
		}
	}
	for _, t := range in.Terms {
		if t.Index == slot {
			return true
		}
	}
	return false
}
