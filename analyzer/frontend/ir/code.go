package ir

// This file holds the interpreter's compact form of a function's
// instructions (Function.Code). An Inst is about 230 bytes: every field
// any operation needs, slices included. The interpreter's hot loop reads a
// handful of them, and before this form it also dispatched twice on the
// common operations (on Op, then on Sub). A Code is 32 bytes, two to a
// cache line, and its operation is specialized once, here, by
// sub-operation and operand kind: an add of integers, a double multiply,
// a branch with no phi moves and its target. Code[i] stands for Insts[i],
// so program counters, branch targets and pairs (Inst.Pair) are the same
// in both, and anything without a specialized form (CodeStep) runs from
// the Inst. The form is derived from the Insts and never stored: lowering
// and the program cache both build it (BuildCode).

// CodeOp is a specialized operation of the compact form.
type CodeOp uint8

const (
	// CodeStep: no fast path; the interpreter runs Insts[i] in full.
	CodeStep CodeOp = iota
	// Integer arithmetic on concrete values: Dst = (A op B) & K, where K
	// is the result's mask. W is the operand width (for the shifts, a
	// shift by W or more gives 0).
	CodeAdd
	CodeSub
	CodeMul
	CodeAnd
	CodeOr
	CodeXor
	CodeShl
	CodeLShr
	CodeBin // another OpBin: Sub, W, K
	// Integer comparisons: Dst = A pred B, of W-bit operands.
	CodeEQ
	CodeNE
	CodeULT
	CodeSLT
	CodeSGT
	CodeICmp // another predicate: Sub, W
	// CodeLoad and CodeStore are raw accesses (Inst.Raw) of W bytes, 1,
	// 2, 4 or 8, and K is the mask of W bytes: Dst = *A, and *B = A. The
	// interpreter makes each as one 8-byte read or write, masked by K.
	CodeLoad
	CodeStore
	// Address arithmetic: CodeGEP0 is A + K (no index); CodeGEP1 is
	// A + K + sext_W(B) * C (one index whose scale fits an int32);
	// CodeGEP is any other, from the Inst's terms.
	CodeGEP0
	CodeGEP1
	CodeGEP
	// Branches. CodeJump goes to K (no phi moves); CodeBr has moves (the
	// Inst's edge). CodeIf goes to K>>32 when A is true and to K&0xffffffff
	// when it is false (no moves on either edge); CodeCondBr has moves.
	CodeJump
	CodeBr
	CodeIf
	CodeCondBr
	// Casts: CodeMask is Dst = A & K (zext, trunc, ptrtoint, inttoptr);
	// CodeSExt sign-extends from W bits, then masks with K; CodeCast is
	// any other cast, from the Inst.
	CodeMask
	CodeSExt
	CodeCast
	// CodeMove1 copies one slot, A to Dst; CodeMove copies the Inst's N.
	CodeMove1
	CodeMove
	// Double arithmetic: Dst = A op B; CodeFMulAddD is A*B+C rounded
	// after the multiplication. CodeFBin is any other OpFBin.
	CodeFAddD
	CodeFSubD
	CodeFMulD
	CodeFDivD
	CodeFMulAddD
	CodeFBin
	CodeFNeg
	CodeFCmp
	// CodeCall is a direct call of a function with a body; CodeRet a
	// return. Both run from the Inst.
	CodeCall
	CodeRet
	// Division and remainder of W-bit integers, signed and unsigned, and
	// the arithmetic shift right (a shift by W or more shifts by W-1, as
	// ir.EvalBin): Dst = (A op B) & K. A division by zero or a signed
	// overflow runs from the Inst, which reports it.
	CodeSDiv
	CodeSRem
	CodeUDiv
	CodeURem
	CodeAShr
	// CodeFNegD negates a double; CodeSIToFPD converts a signed W-bit
	// integer to a double; CodeFPToSID truncates a double to a signed
	// W-bit integer as x86-64 code does (vm's fpToInt), masked with K.
	CodeFNegD
	CodeSIToFPD
	CodeFPToSID
	// CodeGEP2 is A + int32(K) + sext_Sub(B) * X + sext_W(C) * int32(K>>32):
	// two indexes (a[i][j], sys[i].pos[k]), whose offset and scales fit
	// an int32.
	CodeGEP2
	// CodeBr1 and CodeBr2 are unconditional branches to K with one or two
	// phi moves, made in order: register B to register A, then (CodeBr2)
	// register X to register C. A loop's latch that carries a value the
	// lowering could not join (bitcode.joinPhis) is one. CodeBr is any other
	// (more moves, or moves that must be made in parallel).
	CodeBr1
	CodeBr2
	// CodeCallFD is a call of a declared function (a library's or an
	// intrinsic) of one or two doubles that returns a double, sqrt or
	// pow: Dst = f(A) or f(A, B), W the number of arguments, B = A for
	// one, K the callee's ID. The interpreter runs it without step when
	// the callee's model is a pure function of doubles (vm.RegisterFloat1,
	// RegisterFloat2); any other runs from the Inst.
	CodeCallFD
)

// MaxCodeOp bounds the operations: the interpreter's dispatch switches on
// Op&MaxCodeOp with MaxCodeOp listed, so that its jump table covers every
// value the mask leaves and needs no range check (a compare and a branch
// less on every instruction). An operation past it does not compile.
const MaxCodeOp CodeOp = 63

var _ [MaxCodeOp - CodeCallFD]struct{} // CodeCallFD, the last operation, is below MaxCodeOp

// SlotBytes is the size of one slot of the interpreter's registers (vm's
// Value: its bits and its expression pointer). The compact form's
// register operands (Dst, A, B, and C but for CodeGEP1's, a scale) are
// byte offsets, the slot times SlotBytes: the interpreter adds one to its
// registers' address as it is, a shift fewer for every operand it reads.
const SlotBytes = 16

// slotOffset is slot o (an operand or a result) as a byte offset
// (SlotBytes).
func slotOffset[O ~int32](o O) O { return o * SlotBytes }

// Code is one instruction of the compact form (see CodeOp for what each
// field holds per operation; its register operands are byte offsets,
// SlotBytes).
type Code struct {
	Op      CodeOp
	Sub     uint8 // the Inst's Sub, for the generic operations
	W       uint8 // operand width in bits, where the operation needs it
	Pair    bool  // Inst.Pair
	Dst     int32
	A, B, C Operand
	X       int32 // CodeGEP2: the first index's scale
	K       uint64
}

// Code returns the function's compact form, one Code per instruction.
func (f *Function) Code() []Code { return f.code }

// markPairs sets Pair on the instructions the interpreter may run together
// with the next one (see Inst.Pair). The pair is only a shortcut: a branch into the second
// instruction runs it alone, and the first instruction's result is still
// written, so a pair needs no other condition than adjacency.
func markPairs(fn *Function) {
	for i := 0; i+1 < len(fn.Insts); i++ {
		in, next := &fn.Insts[i], &fn.Insts[i+1]
		d := Operand(in.Dst)
		switch in.Op {
		case OpICmp:
			in.Pair = next.Op == OpCondBr && next.A == d
		case OpGEP:
			in.Pair = next.Raw && !next.Yield && (next.Op == OpLoad && next.A == d || next.Op == OpStore && next.B == d && next.A != d)
		case OpBin, OpCast, OpFBin, OpStore:
			// An increment and a loop's back edge, for instance.
			in.Pair = next.Op == OpBr
		}
	}
}

// Finish readies a function its loader has lowered for the interpreter:
// it marks the loads of its spin loops as preemption points, the
// instructions that run in pairs, and makes its compact form.
func Finish(fn *Function) {
	markSpinLoops(fn)
	markPairs(fn)
	BuildCode(fn)
}

// BuildCode makes fn's compact form from its instructions, again after a
// loader changed them.
func BuildCode(fn *Function) {
	fn.code = make([]Code, len(fn.Insts))
	fn.locs = make([]LocID, len(fn.Insts))
	for i := range fn.Insts {
		fn.code[i] = codeOf(&fn.Insts[i])
		fn.locs[i] = fn.Insts[i].Loc
	}
}

// LocAt is the location of the instruction at pc, as Insts[pc].Loc.
func (f *Function) LocAt(pc int) LocID { return f.locs[pc] }

// codeOf specializes one instruction.
func codeOf(in *Inst) Code {
	c := Code{Op: CodeStep, Sub: in.Sub, Pair: in.Pair, Dst: slotOffset(in.Dst), A: slotOffset(in.A), B: slotOffset(in.B),
		C: slotOffset(in.C), K: in.Mask}
	switch in.Op {
	case OpBin:
		if in.Ty.Kind != KInt || in.Ty.Bits > 64 {
			return c
		}
		c.W = uint8(in.Ty.Bits)
		c.Op = binCode[in.Sub]
	case OpICmp:
		if in.Src.Bits > 64 || in.Src.Bits == 0 {
			return c
		}
		c.W = uint8(in.Src.Bits)
		c.Op = icmpCode(in.Sub)
	case OpLoad:
		if in.Raw && !in.Yield && wordSized(in.Imm) { // a spin loop's load is a preemption point (spin.go)
			c.Op, c.W, c.K = CodeLoad, uint8(in.Imm), Mask(8*uint16(in.Imm))
		}
	case OpStore:
		if in.Raw && wordSized(in.Imm) {
			c.Op, c.W, c.K = CodeStore, uint8(in.Imm), Mask(8*uint16(in.Imm))
		}
	case OpGEP:
		c.Op, c.K = gepCode(in, &c), uint64(in.Imm)
		if c.Op == CodeGEP2 {
			c.K = uint64(uint32(in.Imm)) | uint64(in.Terms[1].Scale)<<32
		}
	case OpBr:
		c.Op = brCode(in.Targets[0], &c)
	case OpCondBr:
		c.Op = CodeCondBr
		if t, f := in.Targets[0], in.Targets[1]; len(t.Moves) == 0 && len(f.Moves) == 0 {
			c.Op, c.K = CodeIf, uint64(t.PC)<<32|uint64(uint32(f.PC))
		}
	case OpCast:
		c.Op = castCode(in, &c)
	case OpMove:
		c.Op = CodeMove
		if in.N == 1 {
			c.Op = CodeMove1
		}
	case OpFBin:
		c.Op = CodeFBin
		if in.Ty.Kind == KF64 {
			c.Op = fbinDouble[in.Sub]
		}
	case OpFNeg:
		c.Op = CodeFNeg
		if in.Ty.Kind == KF64 {
			c.Op = CodeFNegD
		}
	case OpFCmp:
		c.Op = CodeFCmp
	case OpCall:
		if in.Callee != nil && !in.Callee.Decl {
			c.Op = CodeCall
		} else if doubleCall(in) {
			c.Op, c.W, c.A, c.B, c.K = CodeCallFD, uint8(len(in.Args)), slotOffset(in.Args[0]), slotOffset(in.Args[len(in.Args)-1]), uint64(in.Callee.ID)
		}
	case OpRet:
		c.Op = CodeRet
	}
	return c
}

// doubleCall reports whether in is a direct call of a declared function
// with one or two double arguments and a double result (CodeCallFD).
// An invoke (Targets: where it returns, where it unwinds) is not one: it
// goes on at its normal destination, not at the next instruction.
func doubleCall(in *Inst) bool {
	f := in.Callee
	if f == nil || !f.Decl || f.Variadic || in.Yield || len(in.Targets) != 0 || in.Dst < 0 || in.N != 1 ||
		len(f.Ret) != 1 || f.Ret[0].Kind != KF64 {
		return false
	}
	if n := len(in.Args); n < 1 || n > 2 || len(in.ArgTys) != n || len(f.Params) != n {
		return false
	}
	for i, t := range in.ArgTys {
		if t.Kind != KF64 || f.Params[i].Kind != KF64 {
			return false
		}
	}
	return true
}

// brCode specializes an unconditional branch by its edge's moves, setting
// c's target and move operands.
func brCode(e Edge, c *Code) CodeOp {
	if len(e.Moves) == 0 {
		c.K = uint64(e.PC)
		return CodeJump
	}
	if e.Parallel || len(e.Moves) > 2 || e.Moves[0].N != 1 || e.Moves[len(e.Moves)-1].N != 1 {
		return CodeBr
	}
	c.K = uint64(e.PC)
	c.A, c.B = slotOffset(Operand(e.Moves[0].Dst)), slotOffset(e.Moves[0].Src)
	if len(e.Moves) == 1 {
		return CodeBr1
	}
	c.C, c.X = slotOffset(Operand(e.Moves[1].Dst)), int32(slotOffset(e.Moves[1].Src))
	return CodeBr2
}

// binCode is the operation of each OpBin Sub (CodeBin by default).
var binCode = func() (t [256]CodeOp) {
	for i := range t {
		t[i] = CodeBin
	}
	t[BinAdd], t[BinSub], t[BinMul] = CodeAdd, CodeSub, CodeMul
	t[BinAnd], t[BinOr], t[BinXor] = CodeAnd, CodeOr, CodeXor
	t[BinShl], t[BinLShr], t[BinAShr] = CodeShl, CodeLShr, CodeAShr
	t[BinSDiv], t[BinSRem], t[BinUDiv], t[BinURem] = CodeSDiv, CodeSRem, CodeUDiv, CodeURem
	return t
}()

// fbinDouble is the operation of each OpFBin Sub on doubles.
var fbinDouble = func() (t [256]CodeOp) {
	for i := range t {
		t[i] = CodeFBin
	}
	t[FAdd], t[FSub], t[FMul], t[FDiv], t[FMulAdd] = CodeFAddD, CodeFSubD, CodeFMulD, CodeFDivD, CodeFMulAddD
	return t
}()

func icmpCode(pred uint8) CodeOp {
	switch pred {
	case ICmpEQ:
		return CodeEQ
	case ICmpNE:
		return CodeNE
	case ICmpULT:
		return CodeULT
	case ICmpSLT:
		return CodeSLT
	case ICmpSGT:
		return CodeSGT
	}
	return CodeICmp
}

// gepCode specializes a GEP by its number of index terms, setting c's
// index operands, widths and scales for CodeGEP1 and CodeGEP2.
func gepCode(in *Inst, c *Code) CodeOp {
	switch {
	case len(in.Terms) == 0:
		return CodeGEP0
	case len(in.Terms) == 1 && in.Terms[0].Scale == int64(int32(in.Terms[0].Scale)):
		t := in.Terms[0]
		c.B, c.C, c.W = slotOffset(t.Index), Operand(t.Scale), min(t.Width, 64)
		return CodeGEP1
	case len(in.Terms) == 2 && fitsInt32(in.Imm) && fitsInt32(in.Terms[0].Scale) && fitsInt32(in.Terms[1].Scale):
		t, u := in.Terms[0], in.Terms[1]
		c.B, c.Sub, c.X = slotOffset(t.Index), min(t.Width, 64), int32(t.Scale)
		c.C, c.W = slotOffset(u.Index), min(u.Width, 64)
		return CodeGEP2
	}
	return CodeGEP
}

// castCode specializes a cast: the ones that only mask, and sign
// extension from an integer of at most 64 bits.
func castCode(in *Inst, c *Code) CodeOp {
	switch in.Sub {
	case CastPtrToInt:
		if in.Ty.Bits < 64 {
			// A pointer made an integer of fewer bits loses its upper
			// half: the interpreter's slow path notes where, to explain
			// an access through what is left (vm.truncation).
			return CodeStep
		}
		return CodeMask
	case CastZExt, CastTrunc, CastIntToPtr:
		return CodeMask
	case CastSExt:
		if in.Src.Bits > 0 && in.Src.Bits <= 64 {
			c.W = uint8(in.Src.Bits)
			return CodeSExt
		}
	case CastSIToFP:
		if in.Src.Bits > 0 && in.Src.Bits <= 64 && in.Ty.Kind == KF64 {
			c.W = uint8(in.Src.Bits)
			return CodeSIToFPD
		}
	case CastFPToSI:
		if in.Src.Kind == KF64 && in.Ty.Kind == KInt && in.Ty.Bits <= 64 {
			c.W = uint8(in.Ty.Bits)
			return CodeFPToSID
		}
	}
	return CodeCast
}

// wordSized reports whether an access of size bytes fits a register
// word as a power of two: the sizes CodeLoad and CodeStore make (a wider
// raw access runs from the Inst).
func wordSized(size int64) bool { return size == 1 || size == 2 || size == 4 || size == 8 }

// fitsInt32 reports whether v is an int32.
func fitsInt32(v int64) bool { return v == int64(int32(v)) }
