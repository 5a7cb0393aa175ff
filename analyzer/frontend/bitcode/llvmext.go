package bitcode

// The few LLVM-C entry points go-llvm does not wrap. The headers come from
// LLVM 14's include directory; the symbols are linked through go-llvm's own
// -lLLVM-14.

/*
#cgo CPPFLAGS: -I/usr/lib/llvm-14/include
#include <stdlib.h>
#include <llvm-c/Core.h>
*/
import "C"

import (
	"strings"
	"unsafe"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

func cval(v llvm.Value) C.LLVMValueRef { return C.LLVMValueRef(unsafe.Pointer(v.C)) }

// wrapVal converts an LLVM-C value to go-llvm's Value, a struct holding
// just that pointer.
func wrapVal(r C.LLVMValueRef) llvm.Value { return *(*llvm.Value)(unsafe.Pointer(&r)) }

// valueKind is LLVMValueKind.
type valueKind int

const (
	kindArgument              valueKind = C.LLVMArgumentValueKind
	kindBasicBlock            valueKind = C.LLVMBasicBlockValueKind
	kindFunction              valueKind = C.LLVMFunctionValueKind
	kindGlobalAlias           valueKind = C.LLVMGlobalAliasValueKind
	kindGlobalVariable        valueKind = C.LLVMGlobalVariableValueKind
	kindUndef                 valueKind = C.LLVMUndefValueValueKind
	kindPoison                valueKind = C.LLVMPoisonValueValueKind
	kindConstantExpr          valueKind = C.LLVMConstantExprValueKind
	kindConstantAggregateZero valueKind = C.LLVMConstantAggregateZeroValueKind
	kindConstantDataArray     valueKind = C.LLVMConstantDataArrayValueKind
	kindConstantDataVector    valueKind = C.LLVMConstantDataVectorValueKind
	kindConstantInt           valueKind = C.LLVMConstantIntValueKind
	kindConstantFP            valueKind = C.LLVMConstantFPValueKind
	kindConstantPointerNull   valueKind = C.LLVMConstantPointerNullValueKind
	kindConstantArray         valueKind = C.LLVMConstantArrayValueKind
	kindConstantStruct        valueKind = C.LLVMConstantStructValueKind
	kindConstantVector        valueKind = C.LLVMConstantVectorValueKind
	kindInstruction           valueKind = C.LLVMInstructionValueKind
	kindInlineAsm             valueKind = C.LLVMInlineAsmValueKind
	kindBlockAddress          valueKind = C.LLVMBlockAddressValueKind
)

func kindOf(v llvm.Value) valueKind { return valueKind(C.LLVMGetValueKind(cval(v))) }

// elementAsConstant returns element i of a ConstantDataSequential.
func elementAsConstant(v llvm.Value, i int) llvm.Value {
	return wrapVal(C.LLVMGetElementAsConstant(cval(v), C.unsigned(i)))
}

// atomicRMWOp returns the LLVMAtomicRMWBinOp of an atomicrmw instruction.
func atomicRMWOp(v llvm.Value) int { return int(C.LLVMGetAtomicRMWBinOp(cval(v))) }

// ir numbers the atomic read-modify-write operations as LLVM-C does
// (atomicRMWOp's result is Inst.Sub as it is): a difference in any of them
// does not compile (a constant index out of range).
var _ = [1]struct{}{}[(ir.RMWXchg-C.LLVMAtomicRMWBinOpXchg)|
	(ir.RMWAdd-C.LLVMAtomicRMWBinOpAdd)|
	(ir.RMWSub-C.LLVMAtomicRMWBinOpSub)|
	(ir.RMWAnd-C.LLVMAtomicRMWBinOpAnd)|
	(ir.RMWNand-C.LLVMAtomicRMWBinOpNand)|
	(ir.RMWOr-C.LLVMAtomicRMWBinOpOr)|
	(ir.RMWXor-C.LLVMAtomicRMWBinOpXor)|
	(ir.RMWMax-C.LLVMAtomicRMWBinOpMax)|
	(ir.RMWMin-C.LLVMAtomicRMWBinOpMin)|
	(ir.RMWUMax-C.LLVMAtomicRMWBinOpUMax)|
	(ir.RMWUMin-C.LLVMAtomicRMWBinOpUMin)|
	(ir.RMWFAdd-C.LLVMAtomicRMWBinOpFAdd)|
	(ir.RMWFSub-C.LLVMAtomicRMWBinOpFSub)]

// numIndices returns the number of indices of an extractvalue/insertvalue.
func numIndices(v llvm.Value) int { return int(C.LLVMGetNumIndices(cval(v))) }

// calledFunctionName returns the name of a call's direct callee, or "".
func functionName(v llvm.Value) string {
	var n C.size_t
	p := C.LLVMGetValueName2(cval(v), &n)
	return C.GoStringN(p, C.int(n))
}

// successor returns successor i of a terminator.
func successor(term llvm.Value, i int) llvm.BasicBlock {
	r := C.LLVMGetSuccessor(cval(term), C.unsigned(i))
	return *(*llvm.BasicBlock)(unsafe.Pointer(&r))
}

// numSuccessors returns the number of successors of a terminator.
func numSuccessors(term llvm.Value) int { return int(C.LLVMGetNumSuccessors(cval(term))) }

// aliasee returns the target of a global alias.
func aliasee(v llvm.Value) llvm.Value { return wrapVal(C.LLVMAliasGetAliasee(cval(v))) }

// aliases returns the module's global aliases.
func aliases(m llvm.Module) []llvm.Value {
	var out []llvm.Value
	mc := C.LLVMModuleRef(unsafe.Pointer(m.C))
	for a := C.LLVMGetFirstGlobalAlias(mc); a != nil; a = C.LLVMGetNextGlobalAlias(a) {
		out = append(out, wrapVal(a))
	}
	return out
}

// Opcodes go-llvm does not name.
const (
	opAddrSpaceCast = llvm.Opcode(C.LLVMAddrSpaceCast)
	opFreeze        = llvm.Opcode(C.LLVMFreeze)
	opFNeg          = llvm.Opcode(C.LLVMFNeg)
	opCallBr        = llvm.Opcode(C.LLVMCallBr)
)

const (
	opAtomicRMW     = llvm.Opcode(C.LLVMAtomicRMW)
	opAtomicCmpXchg = llvm.Opcode(C.LLVMAtomicCmpXchg)
	opFence         = llvm.Opcode(C.LLVMFence)
)

// isCleanup reports whether a landingpad instruction has the cleanup flag.
func isCleanup(v llvm.Value) bool { return C.LLVMIsCleanup(cval(v)) != 0 }

// fenceOrdering returns a fence instruction's ordering. LLVM 14's
// LLVMGetOrdering does not know fences (it answers "monotonic" for every
// one), so the ordering is read from the instruction's text. A fence
// limited to the thread itself (syncscope("singlethread"), from
// atomic_signal_fence) orders nothing between threads: relaxed.
func fenceOrdering(v llvm.Value) ir.Ordering {
	cs := C.LLVMPrintValueToString(cval(v))
	text := C.GoString(cs)
	C.LLVMDisposeMessage(cs)
	if strings.Contains(text, "singlethread") {
		return ir.Monotonic
	}
	for _, o := range []struct {
		word string
		ord  ir.Ordering
	}{{" seq_cst", ir.SeqCst}, {" acq_rel", ir.AcqRel}, {" acquire", ir.Acquire}, {" release", ir.Release}} {
		if strings.Contains(text, o.word) {
			return o.ord
		}
	}
	return ir.Monotonic
}

// shuffleMask returns a shufflevector's mask: for each element of the
// result, the element of the two operands joined that it takes, or -1 for
// an undefined one.
func shuffleMask(v llvm.Value) []int {
	n := int(C.LLVMGetNumMaskElements(cval(v)))
	undef := int(C.LLVMGetUndefMaskElem())
	mask := make([]int, n)
	for i := range mask {
		if mask[i] = int(C.LLVMGetMaskValue(cval(v), C.unsigned(i))); mask[i] == undef {
			mask[i] = -1
		}
	}
	return mask
}
