package bitcode

import (
	"slices"
	"unsafe"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// This file joins a loop's phis with the values their back edges bring.
//
// After promoteLocals every loop variable is a phi, and the value it takes
// on the back edge (`i + 1`) is an instruction of its own: lowered
// naively, that instruction writes its own slot and the back edge moves it
// into the phi's, a 16-byte copy and the edge's move list read on every
// iteration. When the phi's current value is dead once the new one is
// computed, the two can share a slot: the instruction writes the phi's
// slot itself and the edge moves nothing, as an SSA deconstruction that
// coalesces phi operands does. The instruction count does not change (a
// branch that had moves is still emitted, with none), so budgets, time
// slices and schedules count as before; only the moves go.

// joinPhis gives each value a phi takes on an edge the phi's slot when
// that is safe (joinableValue, deadAfter, keptTo), after the slots of pass
// 1 are assigned. The edge's move then has the same source and
// destination, and dropJoinedMoves removes it.
func (fl *fnLowerer) joinPhis(blocks []llvm.BasicBlock) {
	var cfg *blockGraph
	var local, carried []llvm.Value
	for hi := range blocks {
		for _, phi := range fl.phis[hi] {
			if !oneSlotScalar(phi.Type()) {
				continue
			}
			local, carried = local[:0], carried[:0]
			for i := 0; i < phi.IncomingCount(); i++ {
				v := phi.IncomingValue(i)
				if !joinableValue(v) {
					continue
				}
				if cfg == nil {
					cfg = newBlockGraph(blocks, fl.blockIdx)
				}
				d := fl.blockIdx[unsafe.Pointer(v.InstructionParent().C)]
				p := fl.blockIdx[unsafe.Pointer(phi.IncomingBlock(i).C)]
				if !cfg.deadAfter(phi, v, d, hi) || !cfg.keptTo(d, p, hi) {
					continue
				}
				if d == p {
					local = append(local, v)
				} else {
					carried = append(carried, v)
				}
			}
			// Every value computed in the block of its own edge may
			// share the slot: each is the last write before its edge,
			// and the others are in other blocks. (A loop's start
			// value, `j = i + 1`, and its step, `j + 1`, both.) A value
			// carried from an earlier block may not share it with any
			// other: a second, written on its way to its own edge, could
			// overwrite the first on the way to its.
			if len(local) == 0 && len(carried) > 0 {
				local = carried[:1]
			}
			for _, v := range local {
				fl.slots[ptrKey(v)] = fl.slots[ptrKey(phi)]
			}
		}
	}
}

// oneSlotScalar reports whether values of type t take one slot and no
// wide lowering: integers of at most 64 bits, pointers, floats and
// doubles.
func oneSlotScalar(t llvm.Type) bool {
	switch t.TypeKind() {
	case llvm.IntegerTypeKind:
		return t.IntTypeWidth() <= 64
	case llvm.PointerTypeKind, llvm.FloatTypeKind, llvm.DoubleTypeKind:
		return true
	}
	return false
}

// joinableValue reports whether v, what a phi takes on an edge, may write
// the phi's slot: an instruction whose only use is the phi, of an
// operation the interpreter runs as one instruction that
// reads its operands before it writes its result (step and exec both do,
// for these), and that the lowering emits (a folded sign extension or
// address step has no result of its own).
func joinableValue(v llvm.Value) bool {
	if v.IsAInstruction().IsNil() || !oneSlotScalar(v.Type()) {
		return false
	}
	if u := v.FirstUse(); u.IsNil() || !u.NextUse().IsNil() {
		return false
	}
	for i := 0; i < v.OperandsCount(); i++ {
		if !oneSlotScalar(v.Operand(i).Type()) {
			return false // a wide or vector operand: lowered in several steps
		}
	}
	op := v.InstructionOpcode()
	if _, ok := binOps[op]; ok {
		return true
	}
	if _, ok := fbinOps[op]; ok {
		return true
	}
	if _, ok := castOps[op]; ok {
		return !indexExtension(v)
	}
	switch op {
	case llvm.GetElementPtr:
		return !addressStep(v)
	case llvm.ICmp, opFNeg:
		return true
	}
	return false
}

// A blockGraph is a function's blocks with their successors and
// predecessors, by block index.
type blockGraph struct {
	index      map[unsafe.Pointer]int
	succ, pred [][]int
	// seen and work are the searches' scratch space.
	seen []bool
	work []int
}

func newBlockGraph(blocks []llvm.BasicBlock, index map[unsafe.Pointer]int) *blockGraph {
	g := &blockGraph{index: index, succ: make([][]int, len(blocks)), pred: make([][]int, len(blocks)),
		seen: make([]bool, len(blocks))}
	for bi, bb := range blocks {
		term := bb.LastInstruction()
		if term.IsNil() {
			continue
		}
		for i := 0; i < numSuccessors(term); i++ {
			s := index[unsafe.Pointer(successor(term, i).C)]
			g.succ[bi] = append(g.succ[bi], s)
			g.pred[s] = append(g.pred[s], bi)
		}
	}
	return g
}

// A read is where the lowered code reads a value's slot: an instruction
// of block, or (edge) the phi moves at the end of block.
type read struct {
	inst  llvm.Value
	block int
	edge  bool
}

// reads lists where the lowered code reads v's slot. A use by an
// instruction the lowering folds into its users (an index extension, an
// address step) is a read by those users.
func (g *blockGraph) reads(v llvm.Value, out []read) []read {
	for u := v.FirstUse(); !u.IsNil(); u = u.NextUse() {
		user := u.User()
		switch {
		case !user.IsAPHINode().IsNil():
			for j := 0; j < user.IncomingCount(); j++ {
				if user.IncomingValue(j) == v {
					out = append(out, read{inst: user, block: g.index[unsafe.Pointer(user.IncomingBlock(j).C)], edge: true})
				}
			}
		case indexExtension(user) || addressStep(user):
			out = g.reads(user, out)
		default:
			out = append(out, read{inst: user, block: g.index[unsafe.Pointer(user.InstructionParent().C)]})
		}
	}
	return out
}

// deadAfter reports whether phi (of block h) is dead once v (of block d)
// is computed: nothing reads phi's slot after v in d, on the moves at d's
// end, or in a block d may go to without passing through h, which
// defines phi anew.
func (g *blockGraph) deadAfter(phi, v llvm.Value, d, h int) bool {
	rs := g.reads(phi, nil)
	after := map[unsafe.Pointer]bool{}
	for in := llvm.NextInstruction(v); !in.IsNil(); in = llvm.NextInstruction(in) {
		after[ptrKey(in)] = true
	}
	g.start()
	for _, r := range rs {
		if r.block == d && (r.edge || after[ptrKey(r.inst)]) {
			return false
		}
		// phi's slot is read in r.block (or at its end), so it is live
		// where that block starts, unless the block is h.
		g.reach(r.block, h)
	}
	for len(g.work) > 0 {
		b := g.pop()
		for _, q := range g.pred[b] {
			if q == d {
				return false // read after d, not through h
			}
			g.reach(q, h)
		}
	}
	return true
}

// keptTo reports whether v, computed in block d, is still in the phi's
// slot at the end of block p, where the edge to h takes it: every way
// from h's start (whose incoming moves write the slot) to p passes
// through d again. When d is p or h, that holds by itself; when v is
// computed before the loop (d outside it), it does not.
func (g *blockGraph) keptTo(d, p, h int) bool {
	if d == p || d == h {
		return true
	}
	g.start()
	g.reach(h, d)
	for len(g.work) > 0 {
		for _, s := range g.succ[g.pop()] {
			if s == p {
				return false
			}
			g.reach(s, d)
		}
	}
	return true
}

// start empties the scratch set and work list.
func (g *blockGraph) start() {
	clear(g.seen)
	g.work = g.work[:0]
}

// reach adds block b to the set and the work list, unless it is stop or
// already in it.
func (g *blockGraph) reach(b, stop int) {
	if b != stop && !g.seen[b] {
		g.seen[b] = true
		g.work = append(g.work, b)
	}
}

// pop takes a block from the work list.
func (g *blockGraph) pop() int {
	b := g.work[len(g.work)-1]
	g.work = g.work[:len(g.work)-1]
	return b
}

// dropJoinedMoves removes the moves joinPhis left with the same source
// and destination, and reports whether there were any. It runs once the
// whole program is lowered: a branch that had moves is still emitted
// (fallsThrough saw them), so the instruction count is the one without
// joined slots, and the spin-loop analyses (markSpinLoops,
// ir.MarkSpinCalls), which take what a loop carries from its edges' moves,
// see every phi's.
func dropJoinedMoves(fn *ir.Function) bool {
	dropped := false
	for i := range fn.Insts {
		for t := range fn.Insts[i].Targets {
			e := &fn.Insts[i].Targets[t]
			n := len(e.Moves)
			e.Moves = slices.DeleteFunc(e.Moves, func(mv ir.Move) bool { return mv.Src == ir.Operand(mv.Dst) })
			dropped = dropped || len(e.Moves) != n
		}
	}
	return dropped
}
