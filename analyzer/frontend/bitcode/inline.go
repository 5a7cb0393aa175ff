package bitcode

import (
	"fmt"
	"strings"

	"tinygo.org/x/go-llvm"
)

// This file inlines pure leaf functions before lowering. A call costs the
// interpreter a frame: pushing it, copying the arguments, popping it and
// copying the result back, about 250 x86 instructions, where a small
// function's body is a tenth of that (spectral-norm's matrix entry, a
// min, a hash step). A function that computes only on its arguments, with
// no memory access, no call and no operation that can fault, has nothing
// in it a user sees through a frame: no race can be reported inside it,
// no access or failure carries its stack, no synchronization happens in
// it. Inlining such a function changes what the program computes in no
// way, and its instructions keep their source lines (their debug
// locations are the callee's).
//
// What does change, and is accepted: the execution counts two
// instructions fewer per call (the call and the return), so preemption
// points that fall by instruction count (the time slice) move with them;
// an execution stopped inside such a body (by the instruction budget)
// shows the caller's frame, at the body's line; and the body no longer
// counts as a frame towards the stack-overflow bound.

// maxInlined bounds the size of a function inlined (instructions, debug
// intrinsics not counted): past a few dozen, the call's cost is small
// against the body's, and every call site would copy it.
const maxInlined = 40

// inlinePureLeaves inlines every call of a pure leaf function (pureLeaf)
// into its callers with LLVM's always-inline pass. It runs after mem2reg,
// which is what leaves a small function without loads and stores of its
// own locals. The functions stay in the module, called through pointers
// or not at all, so the program's functions and their ids are the same.
func inlinePureLeaves(mod llvm.Module) error {
	noinline, always := llvm.AttributeKindID("noinline"), llvm.AttributeKindID("alwaysinline")
	attr := mod.Context().CreateEnumAttribute(always, 0)
	type marked struct {
		f        llvm.Value
		linkage  llvm.Linkage
		noinline bool
	}
	var fns []marked
	for f := mod.FirstFunction(); !f.IsNil(); f = llvm.NextFunction(f) {
		if !pureLeaf(f) {
			continue
		}
		// clang -O0 marks every function noinline; the pass would delete
		// a discardable function it has inlined everywhere, so the
		// function is made external for the pass, as it keeps its id.
		fns = append(fns, marked{f, f.Linkage(), !f.GetEnumFunctionAttribute(noinline).IsNil()})
		f.RemoveEnumFunctionAttribute(noinline)
		f.AddFunctionAttr(attr)
		f.SetLinkage(llvm.ExternalLinkage)
	}
	if len(fns) == 0 {
		return nil
	}
	opts := llvm.NewPassBuilderOptions()
	defer opts.Dispose()
	err := mod.RunPasses("always-inline", llvm.TargetMachine{}, opts)
	for _, m := range fns {
		m.f.RemoveEnumFunctionAttribute(always)
		if m.noinline {
			m.f.AddFunctionAttr(mod.Context().CreateEnumAttribute(noinline, 0))
		}
		m.f.SetLinkage(m.linkage)
	}
	if err != nil {
		return fmt.Errorf("load: inlining: %w", err)
	}
	return nil
}

// pureLeaf reports whether f is a function of one block that computes only
// on its scalar arguments: arithmetic, comparisons, selects and casts of
// integers up to 64 bits, floats and doubles, and its return. An integer
// division or remainder is left out unless by a constant that cannot fault
// (one by zero is a failure the program reports with its stack), as is
// any call but of an intrinsic lowering drops (skippedIntrinsic).
func pureLeaf(f llvm.Value) bool {
	if f.IsDeclaration() || f.BasicBlocksCount() != 1 || strings.HasPrefix(f.Name(), "__VERIFIER_atomic_") || f.Name() == "main" {
		return false
	}
	ft := f.GlobalValueType()
	if ft.IsFunctionVarArg() || !pureScalar(ft.ReturnType(), true) {
		return false
	}
	for _, pt := range ft.ParamTypes() {
		if !pureScalar(pt, false) {
			return false
		}
	}
	n := 0
	for in := f.FirstBasicBlock().FirstInstruction(); !in.IsNil(); in = llvm.NextInstruction(in) {
		op := in.InstructionOpcode()
		if op == llvm.Call {
			if c := in.CalledValue(); kindOf(c) == kindFunction && skippedIntrinsic(c.Name()) {
				continue // lowering drops it
			}
			return false
		}
		if !(pureOps[op] || safeDivision(in)) || (op != llvm.Ret && !pureScalar(in.Type(), false)) {
			return false
		}
		for i := 0; i < in.OperandsCount(); i++ {
			if !pureScalar(in.Operand(i).Type(), false) {
				return false
			}
		}
		if n++; n > maxInlined {
			return false
		}
	}
	return true
}

// safeDivision reports whether in is an integer division or remainder
// that cannot fault: by a constant other than 0 (and, signed, than -1, whose
// quotient of the least integer overflows).
func safeDivision(in llvm.Value) bool {
	op := in.InstructionOpcode()
	if op != llvm.SDiv && op != llvm.SRem && op != llvm.UDiv && op != llvm.URem {
		return false
	}
	d := in.Operand(1)
	if kindOf(d) != kindConstantInt || d.Type().IntTypeWidth() > 64 {
		return false
	}
	if op == llvm.UDiv || op == llvm.URem {
		return d.ZExtValue() != 0
	}
	return d.SExtValue() != 0 && d.SExtValue() != -1
}

// pureOps are the operations a pure leaf may hold (pureLeaf).
var pureOps = map[llvm.Opcode]bool{
	llvm.Ret: true, llvm.Add: true, llvm.Sub: true, llvm.Mul: true, llvm.Shl: true, llvm.LShr: true,
	llvm.AShr: true, llvm.And: true, llvm.Or: true, llvm.Xor: true, llvm.FAdd: true, llvm.FSub: true,
	llvm.FMul: true, llvm.FDiv: true, opFNeg: true, llvm.ICmp: true, llvm.FCmp: true, llvm.Select: true,
	llvm.Trunc: true, llvm.ZExt: true, llvm.SExt: true, llvm.FPTrunc: true, llvm.FPExt: true,
	llvm.FPToSI: true, llvm.FPToUI: true, llvm.SIToFP: true, llvm.UIToFP: true,
}

// pureScalar reports whether t is a type a pure leaf computes with: a
// one-slot scalar other than a pointer (an integer of 1 to 64 bits, a
// float or a double), or void for a result.
func pureScalar(t llvm.Type, result bool) bool {
	switch t.TypeKind() {
	case llvm.PointerTypeKind:
		return false
	case llvm.VoidTypeKind:
		return result
	}
	return oneSlotScalar(t)
}
