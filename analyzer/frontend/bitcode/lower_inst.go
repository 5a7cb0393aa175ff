package bitcode

import (
	"fmt"
	"strings"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

var binOps = map[llvm.Opcode]uint8{
	llvm.Add: ir.BinAdd, llvm.Sub: ir.BinSub, llvm.Mul: ir.BinMul, llvm.UDiv: ir.BinUDiv, llvm.SDiv: ir.BinSDiv,
	llvm.URem: ir.BinURem, llvm.SRem: ir.BinSRem, llvm.Shl: ir.BinShl, llvm.LShr: ir.BinLShr, llvm.AShr: ir.BinAShr,
	llvm.And: ir.BinAnd, llvm.Or: ir.BinOr, llvm.Xor: ir.BinXor,
}

var fbinOps = map[llvm.Opcode]uint8{llvm.FAdd: ir.FAdd, llvm.FSub: ir.FSub, llvm.FMul: ir.FMul, llvm.FDiv: ir.FDiv, llvm.FRem: ir.FRem}

var castOps = map[llvm.Opcode]uint8{
	llvm.Trunc: ir.CastTrunc, llvm.ZExt: ir.CastZExt, llvm.SExt: ir.CastSExt, llvm.FPTrunc: ir.CastFPTrunc,
	llvm.FPExt: ir.CastFPExt, llvm.FPToUI: ir.CastFPToUI, llvm.FPToSI: ir.CastFPToSI, llvm.UIToFP: ir.CastUIToFP,
	llvm.SIToFP: ir.CastSIToFP, llvm.PtrToInt: ir.CastPtrToInt, llvm.IntToPtr: ir.CastIntToPtr,
	llvm.BitCast: ir.CastBitcast, opAddrSpaceCast: ir.CastBitcast,
}

// lowerInst appends the lowered form of in (block bi) to the function.
func (fl *fnLowerer) lowerInst(in llvm.Value, bi int) error {
	op := in.InstructionOpcode()
	if vectorOperation(in) {
		return fl.lowerVector(in, op)
	}
	out := ir.Inst{Dst: fl.dst(in), N: 1}
	var err error
	if t := in.Type(); t.TypeKind() != llvm.VoidTypeKind {
		if out.N, err = fl.count(t); err != nil {
			return err
		}
	}
	if in.OperandsCount() > 0 {
		if done, err := fl.lowerWide(in, op, out); done || err != nil {
			return err
		}
	}
	if t := in.Type(); t.TypeKind() != llvm.VoidTypeKind {
		if out.N, err = fl.count(t); err != nil {
			return err
		}
		if !isAggregate(t) {
			if out.Ty, err = scalarOf(t); err != nil {
				return err
			}
		}
	}
	if b, ok := binOps[op]; ok {
		out.Op, out.Sub = ir.OpBin, b
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
		fl.emit(out)
		return nil
	}
	if b, ok := fbinOps[op]; ok {
		out.Op, out.Sub = ir.OpFBin, b
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
		fl.emit(out)
		return nil
	}
	if c, ok := castOps[op]; ok {
		if op == llvm.SExt && indexExtension(in) {
			return nil // its GEPs extend the index themselves
		}
		if out.Src, err = scalarOf(in.Operand(0).Type()); err != nil {
			return err
		}
		out.Op, out.Sub = ir.OpCast, c
		out.A = fl.operand(in.Operand(0))
		if out.Src.Kind == ir.KInt {
			out.Imm = int64(64 - out.Src.Bits) // sign-extension shift for sext
		}
		fl.emit(out)
		return nil
	}
	switch op {
	case llvm.PHI:
		return nil // lowered into edge moves
	case llvm.Ret:
		out.Op, out.Dst, out.N = ir.OpRet, -1, 0
		if in.OperandsCount() > 0 {
			out.A = fl.operand(in.Operand(0))
			out.N, _ = fl.count(in.Operand(0).Type())
		}
	case llvm.Br:
		out.Op, out.Dst = ir.OpBr, -1
		if numSuccessors(in) == 1 {
			e := fl.edge(bi, successor(in, 0))
			if fallsThrough(e, bi) {
				return nil
			}
			out.Targets = []ir.Edge{e}
		} else {
			out.Op = ir.OpCondBr
			out.A = fl.operand(in.Operand(0))
			out.Targets = []ir.Edge{fl.edge(bi, successor(in, 0)), fl.edge(bi, successor(in, 1))}
		}
	case llvm.Switch:
		out.Op, out.Dst = ir.OpSwitch, -1
		out.A = fl.operand(in.Operand(0))
		if out.Ty, err = scalarOf(in.Operand(0).Type()); err != nil {
			return err
		}
		n := numSuccessors(in)
		out.Targets = []ir.Edge{fl.edge(bi, successor(in, 0))}
		for i := 1; i < n; i++ {
			v, err := fl.l.constScalar(in.Operand(2 * i))
			if err != nil {
				return err
			}
			out.Cases = append(out.Cases, ir.Case{Value: v, Target: len(out.Targets)})
			out.Targets = append(out.Targets, fl.edge(bi, successor(in, i)))
		}
	case llvm.IndirectBr:
		return fl.lowerIndirectBr(in, bi, out)
	case llvm.Unreachable:
		out.Op, out.Dst = ir.OpUnreachable, -1
	case opFNeg:
		out.Op = ir.OpFNeg
		out.A = fl.operand(in.Operand(0))
	case llvm.ICmp:
		out.Op, out.Sub = ir.OpICmp, uint8(in.IntPredicate()-llvm.IntEQ)
		if out.Src, err = scalarOf(in.Operand(0).Type()); err != nil {
			return err
		}
		out.Imm = int64(64 - out.Src.Bits) // sign-extension shift for signed predicates
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
	case llvm.FCmp:
		out.Op, out.Sub = ir.OpFCmp, uint8(in.FloatPredicate())
		if out.Src, err = scalarOf(in.Operand(0).Type()); err != nil {
			return err
		}
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
	case llvm.Select:
		if in.Operand(0).Type().TypeKind() != llvm.IntegerTypeKind {
			return fmt.Errorf("vector select is not supported")
		}
		out.Op = ir.OpSelect
		out.A, out.B, out.C = fl.operand(in.Operand(0)), fl.operand(in.Operand(1)), fl.operand(in.Operand(2))
	case opFreeze:
		out.Op = ir.OpMove
		out.A = fl.operand(in.Operand(0))
	case llvm.ExtractValue:
		k, mt, err := fl.l.fieldIndex(in.Operand(0).Type(), in.Indices())
		if err != nil {
			return err
		}
		out.Op = ir.OpMove
		out.A = offsetOperand(fl.operand(in.Operand(0)), k)
		out.N, _ = fl.count(mt)
	case llvm.InsertValue:
		k, mt, err := fl.l.fieldIndex(in.Operand(0).Type(), in.Indices())
		if err != nil {
			return err
		}
		n, _ := fl.count(mt)
		agg, elem := fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst, N: out.N, A: agg})
		out = ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(k), N: n, A: elem}
	case llvm.Alloca:
		out.Op = ir.OpAlloca
		out.Imm = int64(fl.l.td.TypeAllocSize(in.AllocatedType()))
		out.A = fl.operand(in.Operand(0))
		if out.Src, err = scalarOf(in.Operand(0).Type()); err != nil {
			return err
		}
	case llvm.Load:
		if packedBits(in.Type()) {
			return fmt.Errorf("a load of %s (bits packed in memory) is not supported", typeText(in.Type()))
		}
		out.Op = ir.OpLoad
		out.A = fl.operand(in.Operand(0))
		out.Ordering, out.Volatile = orderings[in.Ordering()], in.IsVolatile()
		if isAggregate(in.Type()) {
			out.Layout, _ = fl.l.fields(in.Type())
			out.Imm = int64(fl.l.td.TypeStoreSize(in.Type()))
		} else {
			out.Imm = int64(out.Ty.Size())
		}
	case llvm.Store:
		vt := in.Operand(0).Type()
		if packedBits(vt) {
			return fmt.Errorf("a store of %s (bits packed in memory) is not supported", typeText(vt))
		}
		out.Op, out.Dst = ir.OpStore, -1
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
		out.Ordering, out.Volatile = orderings[in.Ordering()], in.IsVolatile()
		if isAggregate(vt) {
			out.Layout, _ = fl.l.fields(vt)
			out.N = int32(len(out.Layout))
			out.Imm = int64(fl.l.td.TypeStoreSize(vt))
		} else {
			if out.Ty, err = scalarOf(vt); err != nil {
				return err
			}
			out.Imm = int64(out.Ty.Size())
		}
	case llvm.GetElementPtr:
		if in.Type().TypeKind() != llvm.PointerTypeKind {
			return fmt.Errorf("vector GEP is not supported")
		}
		if addressStep(in) {
			return nil // folded into the GEPs built on it
		}
		out.Op = ir.OpGEP
		if out.A, out.Imm, out.Terms, err = fl.address(in); err != nil {
			return err
		}
	case llvm.Call:
		return fl.lowerCall(in, out)
	case llvm.Invoke:
		// A call whose unwind edge is Targets[0], then the branch to its
		// normal destination.
		out.Targets = []ir.Edge{fl.edge(bi, successor(in, 1))}
		if err := fl.lowerCall(in, out); err != nil {
			return err
		}
		fl.emit(ir.Inst{Op: ir.OpBr, Dst: -1, Targets: []ir.Edge{fl.edge(bi, successor(in, 0))}})
		return nil
	case llvm.LandingPad:
		out.Op = ir.OpLandingPad
		if isCleanup(in) {
			out.Imm |= ir.LandingCleanup
		}
		for i := 0; i < in.OperandsCount(); i++ {
			c := in.Operand(i)
			if c.Type().TypeKind() == llvm.ArrayTypeKind {
				out.Imm |= ir.LandingFilter
				continue
			}
			out.Args = append(out.Args, fl.operand(c))
		}
	case llvm.Resume:
		out.Op, out.Dst, out.N = ir.OpResume, -1, 2
		out.A = fl.operand(in.Operand(0))
	case opAtomicRMW:
		out.Op, out.Sub = ir.OpAtomicRMW, uint8(atomicRMWOp(in))
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
		if out.Ty, err = atomicScalar(in.Operand(1).Type()); err != nil {
			return err
		}
		out.Ordering = orderings[in.Ordering()]
		out.Imm = int64(out.Ty.Size())
	case opAtomicCmpXchg:
		out.Op = ir.OpCmpXchg
		out.A, out.B, out.C = fl.operand(in.Operand(0)), fl.operand(in.Operand(1)), fl.operand(in.Operand(2))
		if out.Ty, err = atomicScalar(in.Operand(1).Type()); err != nil {
			return err
		}
		out.Ordering, out.Ordering2 = orderings[in.CmpXchgSuccessOrdering()], orderings[in.CmpXchgFailureOrdering()]
		out.Imm = int64(out.Ty.Size())
	case opFence:
		out.Op, out.Dst = ir.OpFence, -1
		out.Ordering = fenceOrdering(in)
	default:
		return fmt.Errorf("instruction %s is not supported", opcodeName(op))
	}
	fl.emit(out)
	return nil
}

func (fl *fnLowerer) lowerCall(in llvm.Value, out ir.Inst) error {
	callee := in.CalledValue()
	for kindOf(callee) == kindConstantExpr && (callee.Opcode() == llvm.BitCast || callee.Opcode() == opAddrSpaceCast) {
		callee = callee.Operand(0)
	}
	if kindOf(callee) == kindGlobalAlias {
		callee = aliasee(callee)
	}
	switch kindOf(callee) {
	case kindFunction:
		out.Callee = fl.l.prog.FuncOf[fl.l.ids[ptrKey(callee)]]
		if skippedIntrinsic(out.Callee.Name) && len(out.Targets) == 0 {
			return nil
		}
		if strings.HasPrefix(out.Callee.Name, "llvm.fmuladd.f") && len(out.Targets) == 0 && (out.Ty.Kind == ir.KF32 || out.Ty.Kind == ir.KF64) {
			// An arithmetic instruction rather than a call: float code
			// at -O0 has one in most expressions.
			out.Op, out.Sub, out.Callee = ir.OpFBin, ir.FMulAdd, nil
			out.A, out.B, out.C = fl.operand(in.Operand(0)), fl.operand(in.Operand(1)), fl.operand(in.Operand(2))
			fl.emit(out)
			return nil
		}
		if base, ok := laneIntrinsic(out.Callee.Name); ok && len(out.Targets) == 0 {
			return fl.lowerLaneCall(in, out, base)
		}
		if unsupportedVectorIntrinsic(in, out.Callee.Name) {
			return fmt.Errorf("the vector form of %s is not supported", out.Callee.Name)
		}
		if mn, ok := x86Fences[out.Callee.Name]; ok && len(out.Targets) == 0 {
			fl.emit(ir.Inst{Op: ir.OpFence, Dst: -1, Ordering: fenceOrderings[mn]})
			return nil
		}
	case kindInlineAsm:
		return fl.lowerAsm(in, callee, out)
	default:
		out.A = fl.operand(callee)
	}
	out.Op = ir.OpCall
	if out.Dst < 0 {
		out.N = 0
	}
	ft := in.CalledFunctionType()
	fixed := 0
	for _, pt := range ft.ParamTypes() {
		n, err := fl.count(pt)
		if err != nil {
			return err
		}
		fixed += int(n)
	}
	out.Imm = int64(fixed)
	nargs := in.OperandsCount() - 1
	if in.InstructionOpcode() == llvm.Invoke {
		nargs -= 2 // the normal and unwind destinations
	}
	for i := 0; i < nargs; i++ {
		a := in.Operand(i)
		fs, err := fl.l.fields(a.Type())
		if err != nil {
			return err
		}
		o := fl.operand(a)
		for k, f := range fs {
			out.Args = append(out.Args, offsetOperand(o, k))
			out.ArgTys = append(out.ArgTys, f.Scalar)
		}
	}
	fl.emit(out)
	return nil
}

func opcodeName(op llvm.Opcode) string {
	names := map[llvm.Opcode]string{llvm.Ret: "ret", llvm.Br: "br", llvm.Switch: "switch", llvm.Call: "call",
		llvm.Load: "load", llvm.Store: "store", llvm.Alloca: "alloca", llvm.GetElementPtr: "getelementptr",
		llvm.ICmp: "icmp", llvm.FCmp: "fcmp", llvm.Select: "select", opAtomicRMW: "atomicrmw",
		opAtomicCmpXchg: "cmpxchg", opFence: "fence", llvm.ExtractValue: "extractvalue",
		llvm.InsertValue: "insertvalue", llvm.VAArg: "va_arg", llvm.ExtractElement: "extractelement",
		llvm.InsertElement: "insertelement", llvm.ShuffleVector: "shufflevector", llvm.Invoke: "invoke",
		llvm.LandingPad: "landingpad", llvm.Resume: "resume", llvm.IndirectBr: "indirectbr",
		opCallBr: "callbr", llvm.CleanupPad: "cleanuppad", llvm.CatchPad: "catchpad", llvm.CatchSwitch: "catchswitch",
		llvm.Add: "add", llvm.FAdd: "fadd", llvm.Sub: "sub", llvm.FSub: "fsub", llvm.Mul: "mul", llvm.FMul: "fmul",
		llvm.UDiv: "udiv", llvm.SDiv: "sdiv", llvm.FDiv: "fdiv", llvm.URem: "urem", llvm.SRem: "srem",
		llvm.FRem: "frem", llvm.Shl: "shl", llvm.LShr: "lshr", llvm.AShr: "ashr", llvm.And: "and", llvm.Or: "or",
		llvm.Xor: "xor", llvm.Trunc: "trunc", llvm.ZExt: "zext", llvm.SExt: "sext", llvm.FPToUI: "fptoui",
		llvm.FPToSI: "fptosi", llvm.UIToFP: "uitofp", llvm.SIToFP: "sitofp", llvm.FPTrunc: "fptrunc",
		llvm.FPExt: "fpext", llvm.PtrToInt: "ptrtoint", llvm.IntToPtr: "inttoptr", llvm.BitCast: "bitcast"}
	if n, ok := names[op]; ok {
		return n
	}
	return fmt.Sprintf("(opcode %d)", op)
}
