package bitcode

import (
	"fmt"
	"unsafe"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// Labels as values (GCC's computed goto: `static void *ops[] = {&&add,
// &&sub}; goto *ops[op];`), the dispatch of bytecode interpreters. LLVM
// writes the address of a label as a blockaddress constant and the jump
// as an indirectbr listing every block it may reach. A block's address
// is its function's address plus one plus the block's position in the
// function, so it is a pointer no other value equals and the program can
// store, compare and print it; the jump is a switch over the addresses of
// the blocks it lists, and an address among none of them (undefined
// behaviour natively) is a crash at the jump (ir.SwitchIndirect).

// labelAddress is the address of block number block (in LLVM's order,
// as lowerFunction numbers them) of the function whose object is fnID.
func labelAddress(fnID uint32, block int) uint64 { return ir.Addr(fnID, uint64(1+block)) }

// blockAddress is the value of blockaddress(fn, bb), a constant. The
// numbers of fn's blocks are made once for all of its labels (a dispatch
// table takes the address of every opcode's block).
func (l *loader) blockAddress(fn llvm.Value, bb llvm.BasicBlock) (uint64, error) {
	id, ok := l.ids[ptrKey(fn)]
	if !ok {
		return 0, fmt.Errorf("unknown function %s", fn.Name())
	}
	nums := l.blockNums[ptrKey(fn)]
	if nums == nil {
		nums = map[unsafe.Pointer]int{}
		for i, b := range fn.BasicBlocks() {
			nums[unsafe.Pointer(b.C)] = i
		}
		if l.blockNums == nil {
			l.blockNums = map[unsafe.Pointer]map[unsafe.Pointer]int{}
		}
		l.blockNums[ptrKey(fn)] = nums
	}
	i, ok := nums[unsafe.Pointer(bb.C)]
	if !ok {
		return 0, fmt.Errorf("blockaddress of a block not in %s", fn.Name())
	}
	return labelAddress(id, i), nil
}

// lowerIndirectBr lowers `indirectbr ptr %a, [label %b1, ...]` in block bi
// as a switch of A over the listed blocks' addresses.
func (fl *fnLowerer) lowerIndirectBr(in llvm.Value, bi int, out ir.Inst) error {
	out.Op, out.Dst, out.Sub = ir.OpSwitch, -1, ir.SwitchIndirect
	out.A = fl.operand(in.Operand(0))
	out.Ty = ir.Scalar{Kind: ir.KPtr, Bits: 64}
	n := numSuccessors(in)
	if n == 0 {
		out.Op, out.Sub = ir.OpUnreachable, 0 // no destination: it cannot be reached
		fl.emit(out)
		return nil
	}
	// Targets[0], the default, is never taken: SwitchIndirect fails instead.
	out.Targets = []ir.Edge{fl.edge(bi, successor(in, 0))}
	seen := map[unsafe.Pointer]bool{}
	for i := 0; i < n; i++ {
		succ := successor(in, i)
		if seen[unsafe.Pointer(succ.C)] {
			continue
		}
		seen[unsafe.Pointer(succ.C)] = true
		addr := labelAddress(fl.fn.ID, fl.blockIdx[unsafe.Pointer(succ.C)])
		out.Cases = append(out.Cases, ir.Case{Value: addr, Target: len(out.Targets)})
		out.Targets = append(out.Targets, fl.edge(bi, succ))
	}
	fl.emit(out)
	return nil
}
