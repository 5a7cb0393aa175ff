package bitcode

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// fnLowerer lowers one function.
type fnLowerer struct {
	l        *loader
	fn       *ir.Function
	slots    map[unsafe.Pointer]int32
	consts   map[uint64]int32
	blockIdx map[unsafe.Pointer]int
	phis     [][]llvm.Value // per block
	loc      ir.LocID
	fail     error // first operand error of the current instruction
}

// skippedIntrinsic reports calls that have no effect on execution.
func skippedIntrinsic(name string) bool {
	for _, p := range []string{"llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
		"llvm.var.annotation", "llvm.donothing", "llvm.invariant.", "llvm.sideeffect"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (l *loader) lowerFunction(f llvm.Value, fn *ir.Function) error {
	fl := &fnLowerer{l: l, fn: fn, slots: map[unsafe.Pointer]int32{}, consts: map[uint64]int32{},
		blockIdx: map[unsafe.Pointer]int{}}
	if sp := f.Subprogram(); !sp.IsNil() {
		file := sp.ScopeFile()
		fn.Loc = ir.Loc{File: file.FileFilename(), Line: int(sp.SubprogramLine())}
		if dir := file.FileDirectory(); dir != "" && !strings.HasPrefix(fn.Loc.File, "/") {
			fn.Loc.File = dir + "/" + fn.Loc.File
		}
	}
	// Pass 1: slots for parameters and every value-producing instruction.
	next := int32(0)
	for _, p := range f.Params() {
		fl.slots[ptrKey(p)] = next
		fs, _ := l.fields(p.Type())
		next += int32(len(fs))
	}
	blocks := f.BasicBlocks()
	fl.phis = make([][]llvm.Value, len(blocks))
	for bi, bb := range blocks {
		fl.blockIdx[unsafe.Pointer(bb.C)] = bi
		for in := bb.FirstInstruction(); !in.IsNil(); in = llvm.NextInstruction(in) {
			if in.InstructionOpcode() == llvm.PHI {
				fl.phis[bi] = append(fl.phis[bi], in)
			}
			t := in.Type()
			if t.TypeKind() == llvm.VoidTypeKind {
				continue
			}
			fs, err := l.fields(t)
			if err != nil {
				fs = []ir.Field{{}} // reported when the instruction is lowered
			}
			fl.slots[ptrKey(in)] = next
			next += int32(len(fs))
		}
	}
	fn.NumSlots = int(next)
	fl.joinPhis(blocks)
	// Pass 2: instructions. Branch targets hold block indexes until the end.
	// Instructions without a debug location (allocas, the return slot) take
	// the previous instruction's, or the function's own line.
	fl.loc = l.intern(fn.Loc)
	blockPC := make([]int, len(blocks))
	for bi, bb := range blocks {
		blockPC[bi] = len(fn.Insts)
		for in := bb.FirstInstruction(); !in.IsNil(); in = llvm.NextInstruction(in) {
			if id := l.loc(in); id != 0 {
				fl.loc = id
			}
			fl.fail = nil
			if err := fl.lowerInst(in, bi); err != nil {
				fl.fail = nil
				fl.emitFail(fmt.Sprintf("%s: %v", opcodeName(in.InstructionOpcode()), err))
			}
		}
	}
	for i := range fn.Insts {
		for t := range fn.Insts[i].Targets {
			fn.Insts[i].Targets[t].PC = blockPC[fn.Insts[i].Targets[t].PC]
		}
	}
	placeConstants(fn)
	ir.Finish(fn)
	return nil
}

// placeConstants gives the constant pool slots of its own after the
// registers: the interpreter copies Consts into slots NumSlots.. on entry,
// so every operand is a plain slot index and reading one never branches.
func placeConstants(fn *ir.Function) {
	base := int32(fn.NumSlots)
	re := func(o *ir.Operand) {
		if *o < 0 {
			*o = ir.Operand(base + int32(^*o))
		}
	}
	for i := range fn.Insts {
		in := &fn.Insts[i]
		if in.Op == ir.OpFail || in.Op == ir.OpTLSAddr {
			continue
		}
		re(&in.A)
		re(&in.B)
		re(&in.C)
		for k := range in.Args {
			re(&in.Args[k])
		}
		for k := range in.Terms {
			re(&in.Terms[k].Index)
		}
		for t := range in.Targets {
			for k := range in.Targets[t].Moves {
				re(&in.Targets[t].Moves[k].Src)
			}
			sequenceMoves(&in.Targets[t])
		}
	}
	fn.FrameSize = fn.NumSlots + len(fn.Consts)
}

// sequenceMoves splits an edge's phi moves of aggregates into moves of
// one slot each, and orders them so that each runs before any move that
// overwrites what it reads: made one after another, they then give what
// the parallel assignment of phis means, and the interpreter needs no
// temporary copy. A cycle (phis that swap) has no such order and stays
// Parallel.
func sequenceMoves(e *ir.Edge) {
	var left []ir.Move
	for _, mv := range e.Moves {
		for k := int32(0); k < mv.N; k++ {
			left = append(left, ir.Move{Dst: mv.Dst + k, Src: mv.Src + ir.Operand(k), N: 1})
		}
	}
	e.Moves = left
	if len(left) < 2 {
		return
	}
	left = slices.Clone(left)
	out := make([]ir.Move, 0, len(left))
	for len(left) > 0 {
		next := -1
		for i, mv := range left {
			if !readByOthers(left, i, mv.Dst, mv.N) {
				next = i
				break
			}
		}
		if next < 0 {
			e.Parallel = true
			return
		}
		out = append(out, left[next])
		left = slices.Delete(left, next, next+1)
	}
	e.Moves = out
}

// readByOthers reports whether a move of moves other than the i-th reads
// a slot of [dst, dst+n).
func readByOthers(moves []ir.Move, i int, dst, n int32) bool {
	for j, mv := range moves {
		if j != i && int32(mv.Src) < dst+n && dst < int32(mv.Src)+mv.N {
			return true
		}
	}
	return false
}

// emit appends an instruction; if one of its operands could not be lowered,
// the instruction becomes a failure that reports why.
func (fl *fnLowerer) emit(in ir.Inst) {
	if fl.fail != nil && in.Op != ir.OpFail && in.Op != ir.OpTLSAddr {
		err := fl.fail
		fl.fail = nil
		fl.emitFail(fmt.Sprintf("%s: %v", in.Op, err))
		return
	}
	in.Loc = fl.loc
	switch in.Ty.Kind {
	case ir.KInt:
		in.Mask = ir.Mask(in.Ty.Bits)
	case ir.KPtr:
		in.Mask = ^uint64(0)
	}
	switch in.Op {
	case ir.OpLoad, ir.OpStore, ir.OpAtomicRMW, ir.OpCmpXchg:
		in.Yield = in.Ordering != ir.NotAtomic || in.Volatile
	}
	if (in.Op == ir.OpLoad || in.Op == ir.OpStore) && in.Layout == nil && !in.Yield {
		in.Raw = in.Ty.Kind != ir.KF80 && (in.Ty.Kind != ir.KInt || int(in.Ty.Bits) == 8*in.Ty.Size())
	}
	fl.fn.Insts = append(fl.fn.Insts, in)
}

func (fl *fnLowerer) emitFail(msg string) {
	p := fl.l.prog
	p.Messages = append(p.Messages, msg)
	fl.emit(ir.Inst{Op: ir.OpFail, Dst: -1, Imm: int64(len(p.Messages) - 1)})
}

// temp returns a fresh register of the function.
func (fl *fnLowerer) temp() int32 {
	s := int32(fl.fn.NumSlots)
	fl.fn.NumSlots++
	return s
}

// operand returns the operand for v, adding constants to the pool. Errors
// are remembered in fl.fail and reported by the caller.
func (fl *fnLowerer) operand(v llvm.Value) ir.Operand {
	switch kindOf(v) {
	case kindArgument, kindInstruction:
		return ir.Operand(fl.slots[ptrKey(v)])
	}
	fl.l.allowTLS, fl.l.sawTLS = true, 0
	flat, err := fl.l.constFlat(v)
	fl.l.allowTLS = false
	if gid := fl.l.sawTLS; err == nil && gid != 0 {
		// An address inside a thread-local global: this thread's instance
		// plus the constant offset.
		slot := fl.temp()
		off := int64(flat[0] - ir.Addr(gid, 0))
		fl.emit(ir.Inst{Op: ir.OpTLSAddr, Dst: slot, Imm: off<<32 | int64(gid), Ty: ir.Scalar{Kind: ir.KPtr, Bits: 64}})
		return ir.Operand(slot)
	}
	if err != nil {
		if fl.fail == nil {
			fl.fail = err
		}
		return ir.Operand(^fl.constSlot(0))
	}
	if len(flat) == 1 {
		return ir.Operand(^fl.constSlot(flat[0]))
	}
	base := int32(len(fl.fn.Consts))
	fl.fn.Consts = append(fl.fn.Consts, flat...)
	return ir.Operand(^base)
}

func (fl *fnLowerer) constSlot(x uint64) int32 {
	if i, ok := fl.consts[x]; ok {
		return i
	}
	i := int32(len(fl.fn.Consts))
	fl.fn.Consts = append(fl.fn.Consts, x)
	fl.consts[x] = i
	return i
}

// offsetOperand returns the operand k slots (or constants) after o.
func offsetOperand(o ir.Operand, k int) ir.Operand {
	if o >= 0 {
		return o + ir.Operand(k)
	}
	return ir.Operand(^(int32(^o) + int32(k)))
}

func (fl *fnLowerer) count(t llvm.Type) (int32, error) {
	fs, err := fl.l.fields(t)
	return int32(len(fs)), err
}

func (fl *fnLowerer) dst(in llvm.Value) int32 {
	if s, ok := fl.slots[ptrKey(in)]; ok {
		return s
	}
	return -1
}

// edge builds the branch target to block succ from block `from`, with the
// moves of succ's phis.
func (fl *fnLowerer) edge(from int, succ llvm.BasicBlock) ir.Edge {
	to := fl.blockIdx[unsafe.Pointer(succ.C)]
	e := ir.Edge{PC: to}
	for _, phi := range fl.phis[to] {
		for i := 0; i < phi.IncomingCount(); i++ {
			if fl.blockIdx[unsafe.Pointer(phi.IncomingBlock(i).C)] != from {
				continue
			}
			n, _ := fl.count(phi.Type())
			e.Moves = append(e.Moves, ir.Move{Dst: fl.slots[ptrKey(phi)], Src: fl.operand(phi.IncomingValue(i)), N: n})
			break
		}
	}
	return e
}

var orderings = map[llvm.AtomicOrdering]ir.Ordering{
	llvm.AtomicOrderingNotAtomic: ir.NotAtomic, llvm.AtomicOrderingUnordered: ir.Unordered,
	llvm.AtomicOrderingMonotonic: ir.Monotonic, llvm.AtomicOrderingAcquire: ir.Acquire,
	llvm.AtomicOrderingRelease: ir.Release, llvm.AtomicOrderingAcquireRelease: ir.AcqRel,
	llvm.AtomicOrderingSequentiallyConsistent: ir.SeqCst,
}

// gepOffsets splits a GEP's indices into a constant byte offset and variable
// terms. opnd is nil for constant expressions (every index is constant).
func (l *loader) gepOffsets(t llvm.Type, idx []llvm.Value, opnd func(llvm.Value) ir.Operand) (int64, []ir.GEPTerm, error) {
	var off int64
	var terms []ir.GEPTerm
	cur := t
	for i, x := range idx {
		var scale int64
		if i == 0 {
			scale = int64(l.td.TypeAllocSize(t))
		} else {
			switch cur.TypeKind() {
			case llvm.StructTypeKind:
				k := int(x.ZExtValue())
				off += int64(l.td.ElementOffset(cur, k))
				cur = cur.StructElementTypes()[k]
				continue
			case llvm.ArrayTypeKind, llvm.VectorTypeKind:
				cur = cur.ElementType()
				scale = int64(l.td.TypeAllocSize(cur))
			default:
				return 0, nil, fmt.Errorf("GEP into %s", typeText(cur))
			}
		}
		if x.Type().TypeKind() != llvm.IntegerTypeKind {
			return 0, nil, fmt.Errorf("vector GEP indices are not supported")
		}
		w := uint16(x.Type().IntTypeWidth())
		if x.IsConstant() && kindOf(x) == kindConstantInt {
			off += ir.SExt(x.ZExtValue()&ir.Mask(w), w) * scale
			continue
		}
		if opnd == nil {
			return 0, nil, fmt.Errorf("non-constant GEP index")
		}
		terms = append(terms, ir.GEPTerm{Index: opnd(x), Width: uint8(w), Scale: scale})
	}
	return off, terms, nil
}
