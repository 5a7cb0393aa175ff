package ir

// A spin loop waits for another thread by reading memory until it changes:
// `while (turn != me) ;` or `while (!p->ready) ;` on a plain flag. It
// reaches no preemption point, so a thread spinning that way held the
// processor for a whole time slice (a million instructions) at every
// hand-over, and a correct program that hands over a few hundred times
// ran out of the instruction budget: a hang that was the schedule's, not
// the program's. markSpinLoops makes the loads of such a loop preemption
// points (Yield), as an atomic or volatile load is, so the thread it waits
// for runs at once; the accesses stay plain (Raw), so the race detector and
// the weak memory model see them as before.
//
// A loop is a spin loop when it can only end by another thread's write:
// nothing in it changes memory (no store, call, atomic operation,
// allocation or fence), it walks no memory (every load's address is the
// same in every iteration), and whether it leaves depends on nothing it
// carries from one iteration to the next. The program is in SSA form with
// its locals promoted to registers (promoteLocals), so what a loop carries
// is what the phi moves on its edges write, and what is computed from
// that. `while (!ready) spins++;` carries a count that no exit reads, and
// is one; `for (i = 0; i < n; i++) s += a[i];`, `while (a[i] != key) i++;`
// and `while (!ready && spins < 100) spins++;` can end on their own (or
// walk an array) and keep their loads plain and fast. A spin loop ends
// only when another thread writes what it reads (or never: the budget
// then stops it, as before).

// maxSpinLoop bounds the instructions of a loop taken for a spin loop:
// following two or three pointers to a flag and comparing it takes a
// dozen.
const maxSpinLoop = 32

// markSpinLoops marks the loads of fn's spin loops as preemption points.
// A loop is found by its back edge, a branch to an instruction at or
// before it; its body is taken as the instructions between, which holds
// the loop whenever the code between belongs to it (always so for the
// short loops of this kind clang emits), and is otherwise only stricter.
func markSpinLoops(fn *Function) {
	for i := range fn.Insts {
		in := &fn.Insts[i]
		if in.Op != OpBr && in.Op != OpCondBr {
			continue
		}
		for _, e := range in.Targets {
			if e.PC > i || i-e.PC >= maxSpinLoop || !spinLoop(fn.Insts[e.PC:i+1], e.PC) {
				continue
			}
			for k := e.PC; k <= i; k++ {
				if fn.Insts[k].Op == OpLoad {
					fn.Insts[k].Yield = true
				}
			}
		}
	}
}

// spinLoop reports whether body, the instructions from pc start on, reads
// memory, writes none, and can only end through what it reads.
func spinLoop(body []Inst, start int) bool {
	loads := false
	end := start + len(body)
	inside := func(e Edge) bool { return e.PC >= start && e.PC < end }
	for k := range body {
		in := &body[k]
		switch in.Op {
		case OpLoad:
			if in.Yield || in.Layout != nil {
				return false // already a point each iteration, or an aggregate
			}
			loads = true
		case OpBr, OpCondBr, OpBin, OpFBin, OpFNeg, OpICmp, OpFCmp, OpCast, OpSelect, OpMove, OpGEP, OpWide, OpWideCmp, OpWideCast:
		default: // stores, calls, atomics, fences, allocas, switches, returns...
			return false
		}
	}
	if !loads {
		return false
	}
	carried := carriedSlots(body, inside)
	for k := range body {
		in := &body[k]
		switch {
		case in.Op == OpLoad && carried.reads(in):
			return false // walks memory: an array, a list
		case in.Op == OpCondBr && carried.reads(in) && (!inside(in.Targets[0]) || !inside(in.Targets[1])):
			return false // may leave on what it counts
		}
	}
	return true
}

// slotSet is a set of frame slots.
type slotSet map[Operand]bool

// carriedSlots returns the slots of body whose values depend on what the
// loop carries round: those the phi moves of its edges back into it write,
// and those computed from them, to a fixed point.
func carriedSlots(body []Inst, inside func(Edge) bool) slotSet {
	carried := slotSet{}
	for k := range body {
		for _, e := range body[k].Targets {
			if !inside(e) {
				continue
			}
			for _, mv := range e.Moves {
				for s := int32(0); s < max(mv.N, 1); s++ {
					carried[Operand(mv.Dst+s)] = true
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for k := range body {
			in := &body[k]
			if in.Dst < 0 || !carried.reads(in) {
				continue
			}
			for s := int32(0); s < resultSlots(in); s++ {
				if !carried[Operand(in.Dst+s)] {
					carried[Operand(in.Dst+s)], changed = true, true
				}
			}
		}
	}
	return carried
}

// reads reports whether in reads a slot of the set: its operands (an
// unused operand field is 0, a real slot, so each operation names its
// own), its GEP indexes, and every slot of a move's or a wide value.
func (c slotSet) reads(in *Inst) bool {
	var ops []Operand
	width := int32(1)
	switch in.Op {
	case OpLoad, OpCondBr, OpFNeg, OpCast, OpGEP:
		ops = []Operand{in.A}
	case OpMove:
		ops, width = []Operand{in.A}, max(in.N, 1)
	case OpWideCast:
		ops, width = []Operand{in.A}, 2
	case OpWide, OpWideCmp:
		ops, width = []Operand{in.A, in.B}, 2
	case OpBin, OpICmp, OpFCmp:
		ops = []Operand{in.A, in.B}
	case OpFBin:
		ops = []Operand{in.A, in.B}
		if in.Sub == FMulAdd {
			ops = append(ops, in.C)
		}
	case OpSelect:
		ops = []Operand{in.A, in.B, in.C}
	}
	for _, o := range ops {
		for s := int32(0); s < width; s++ {
			if c[o+Operand(s)] {
				return true
			}
		}
	}
	for _, t := range in.Terms {
		if c[t.Index] {
			return true
		}
	}
	return false
}

// resultSlots is how many slots in's result takes.
func resultSlots(in *Inst) int32 {
	switch in.Op {
	case OpWide, OpWideCast:
		return 2
	}
	return max(in.N, 1)
}
