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
// A loop is a spin loop when nothing in it can change what it reads: no
// store, call, atomic operation, allocation or fence, and no value carried
// from one iteration to the next (no phi moves on an edge inside it). The
// program is in SSA form with its locals promoted to registers
// (promoteLocals), so a loop that counts, walks an array or accumulates
// carries its variables in phis and is not one: `for (i = 0; i < n; i++)
// s += a[i];` keeps its loads plain and fast. Such a loop can only end
// when another thread writes what it reads (or never: the budget then
// stops it, as before).

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
// memory and can change nothing it reads.
func spinLoop(body []Inst, start int) bool {
	loads := false
	end := start + len(body)
	for k := range body {
		in := &body[k]
		switch in.Op {
		case OpLoad:
			if in.Yield || in.Layout != nil {
				return false // already a point each iteration, or an aggregate
			}
			loads = true
		case OpBr, OpCondBr:
			for _, e := range in.Targets {
				if e.PC >= start && e.PC < end && len(e.Moves) > 0 {
					return false // a value carried round the loop
				}
			}
		case OpBin, OpFBin, OpFNeg, OpICmp, OpFCmp, OpCast, OpSelect, OpMove, OpGEP, OpWide, OpWideCmp, OpWideCast:
		default: // stores, calls, atomics, fences, allocas, switches, returns...
			return false
		}
	}
	return loads
}
