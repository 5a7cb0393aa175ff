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
// its locals promoted to registers (bitcode.promoteLocals), so what a loop carries
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
	for _, l := range loops(fn) {
		if spinLoop(fn.Insts[l.start:l.end], l.start, nil) {
			markLoads(fn.Insts[l.start:l.end])
		}
	}
}

// A loopSpan is the instructions of a short loop, from its back edge's
// target to the back edge: [start, end).
type loopSpan struct{ start, end int }

// loops lists fn's loops of at most maxSpinLoop instructions.
func loops(fn *Function) []loopSpan {
	var out []loopSpan
	for i := range fn.Insts {
		in := &fn.Insts[i]
		if in.Op != OpBr && in.Op != OpCondBr {
			continue
		}
		for _, e := range in.Targets {
			if e.PC <= i && i-e.PC < maxSpinLoop {
				out = append(out, loopSpan{e.PC, i + 1})
			}
		}
	}
	return out
}

// markLoads makes the loads of body preemption points.
func markLoads(body []Inst) {
	for k := range body {
		if body[k].Op == OpLoad {
			body[k].Yield = true
		}
	}
}

// spinLoop reports whether body, the instructions from pc start on, reads
// memory, writes none, and can only end through what it reads. It may call
// the functions readers holds (see MarkSpinCalls), whose results are
// carried when an argument is; nil allows no call.
func spinLoop(body []Inst, start int, readers map[*Function]bool) bool {
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
		case OpCall:
			if in.Callee == nil || !readers[in.Callee] {
				return false
			}
			loads = true // a reader reads, or computes from its arguments alone
		case OpBr, OpCondBr, OpWide, OpWideCmp, OpWideCast:
		default: // stores, calls, atomics, fences, allocas, switches, returns...
			if !pureOp(in.Op) {
				return false
			}
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
	case OpCall:
		ops = in.Args
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

// A spin loop often reads its flag through a function of its own, which
// clang -O0 does not inline: `while (!ready(q)) ;` with `static int
// ready(struct q *q) { return q->ready; }`. The loop calls, so
// markSpinLoops passes it by, and the reader has no loop of its own.
// MarkSpinCalls takes such a loop for a spin loop when every function it
// calls is a reader (short, straight-line, and changing nothing: loads,
// arithmetic and branches forward), and makes the loads of the loop and
// of its readers preemption points. A reader's loads are points wherever
// it runs, so it is marked only when every call of it in the program is
// in such a loop: a getter that compute code calls keeps its loads fast,
// and its waiting loops wait out their slices, as before.

// maxReader bounds the instructions of a reader.
const maxReader = 32

// MarkSpinCalls marks the spin loops of the program that call readers
// (see above), after every function is lowered, and rebuilds the compact
// form of the functions it changed.
func MarkSpinCalls(p *Program) {
	readers := map[*Function]bool{}
	for _, fn := range p.Funcs {
		if reader(fn) {
			readers[fn] = true
		}
	}
	if len(readers) == 0 {
		return
	}
	calls := map[*Function]int{} // each reader's calls in the program
	type spin struct {
		fn   *Function
		loop loopSpan
	}
	var spins []spin
	sites := map[*Inst]bool{} // the calls of readers in spin loops
	for _, fn := range p.Funcs {
		for i := range fn.Insts {
			if in := &fn.Insts[i]; in.Op == OpCall && readers[in.Callee] {
				calls[in.Callee]++
			}
		}
		for _, l := range loops(fn) {
			body := fn.Insts[l.start:l.end]
			if !callsReader(body, readers) || !spinLoop(body, l.start, readers) {
				continue
			}
			spins = append(spins, spin{fn, l})
			for k := range body {
				if body[k].Op == OpCall {
					sites[&body[k]] = true
				}
			}
		}
	}
	inSpins := map[*Function]int{} // each reader's calls in spin loops
	for in := range sites {
		inSpins[in.Callee]++
	}
	changed := map[*Function]bool{}
	for _, s := range spins {
		body := s.fn.Insts[s.loop.start:s.loop.end]
		ok := true
		for k := range body {
			if c := body[k].Callee; body[k].Op == OpCall && inSpins[c] != calls[c] {
				ok = false // a reader called elsewhere too
			}
		}
		if !ok {
			continue
		}
		markLoads(body)
		changed[s.fn] = true
		for k := range body {
			if c := body[k].Callee; body[k].Op == OpCall {
				markLoads(c.Insts)
				changed[c] = true
			}
		}
	}
	for fn := range changed {
		markPairs(fn)
		BuildCode(fn)
	}
}

// callsReader reports whether body calls a reader.
func callsReader(body []Inst, readers map[*Function]bool) bool {
	for k := range body {
		if body[k].Op == OpCall && readers[body[k].Callee] {
			return true
		}
	}
	return false
}

// reader reports whether fn is a function a spin loop may call: defined,
// at most maxReader instructions, with branches only forward, and nothing
// but plain loads, arithmetic and returns.
func reader(fn *Function) bool {
	if fn.Decl || len(fn.Insts) == 0 || len(fn.Insts) > maxReader {
		return false
	}
	for i := range fn.Insts {
		in := &fn.Insts[i]
		switch in.Op {
		case OpLoad:
			if in.Yield || in.Layout != nil {
				return false
			}
		case OpBr, OpCondBr:
			for _, e := range in.Targets {
				if e.PC <= i {
					return false // a loop
				}
			}
		case OpRet:
		default:
			if !pureOp(in.Op) {
				return false
			}
		}
	}
	return true
}

// pureOp reports whether op computes its result from its operands alone
// (the wide operations aside): what both a spin loop and a reader may do
// besides reading memory and branching.
func pureOp(op Op) bool {
	switch op {
	case OpBin, OpFBin, OpFNeg, OpICmp, OpFCmp, OpCast, OpSelect, OpMove, OpGEP:
		return true
	}
	return false
}
