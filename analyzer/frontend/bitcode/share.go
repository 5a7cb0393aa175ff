package bitcode

import (
	"unsafe"

	"tinygo.org/x/go-llvm"
)

// shareComputations removes, inside each basic block, an address
// computation, integer cast or integer arithmetic that repeats one made
// earlier in the block from the same operands: its uses take the earlier
// result. clang -O0 computes an array element's address again at every
// access (a swap, t = a[i]; a[i] = a[j]; a[j] = t, computes each of its two
// addresses twice, with the sign extension of each index), and after
// mem2reg the operands of the repeated computation are the same values.
// None of these instructions touches memory or can fault (division is left
// out), so every load and store stays as it was, at its own source line:
// the accesses a race detector sees are the same, and the interpreter runs
// fewer instructions (two fewer dispatches in each iteration of such a
// swap).
func shareComputations(mod llvm.Module) {
	seen := map[computation]llvm.Value{}
	for f := mod.FirstFunction(); !f.IsNil(); f = llvm.NextFunction(f) {
		for bb := f.FirstBasicBlock(); !bb.IsNil(); bb = llvm.NextBasicBlock(bb) {
			clear(seen)
			for in := bb.FirstInstruction(); !in.IsNil(); {
				next := llvm.NextInstruction(in)
				if k, ok := computationOf(in); ok {
					if earlier, again := seen[k]; again {
						in.ReplaceAllUsesWith(earlier)
						in.EraseFromParentAsInstruction()
					} else {
						seen[k] = in
					}
				}
				in = next
			}
		}
	}
}

// A computation is what makes a shareable instruction's result: its
// operation, its result type and its operands (SSA values, so equal
// operands are the same value wherever they are read; the slots past the
// last operand are nil).
type computation struct {
	op   llvm.Opcode
	ty   unsafe.Pointer
	args [4]unsafe.Pointer
}

// computationOf returns in's computation, and whether in may be shared:
// a GEP, an integer or pointer cast, or integer arithmetic other than
// division, with at most four operands.
func computationOf(in llvm.Value) (computation, bool) {
	op := in.InstructionOpcode()
	if !shareable[op] || in.OperandsCount() > 4 {
		return computation{}, false
	}
	c := computation{op: op, ty: unsafe.Pointer(in.Type().C)}
	for i := range in.OperandsCount() {
		c.args[i] = ptrKey(in.Operand(i))
	}
	return c, true
}

// shareable are the operations shareComputations shares.
var shareable = map[llvm.Opcode]bool{
	llvm.GetElementPtr: true, llvm.SExt: true, llvm.ZExt: true, llvm.Trunc: true, llvm.BitCast: true,
	llvm.PtrToInt: true, llvm.IntToPtr: true, llvm.Add: true, llvm.Sub: true, llvm.Mul: true,
	llvm.Shl: true, llvm.LShr: true, llvm.AShr: true, llvm.And: true, llvm.Or: true, llvm.Xor: true,
}
