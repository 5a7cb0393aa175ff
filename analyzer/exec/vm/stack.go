package vm

import (
	"fmt"
	"math/bits"

	"augur/analyzer/frontend/ir"
	"augur/internal/bytesize"
)

// StackLimit is how much a thread's stack allocations (locals, alloca,
// variable-length arrays) may hold together: glibc's default stack size.
// A program that needs more dies of a stack overflow natively, and does
// here, instead of asking the interpreter for gigabytes.
const StackLimit = 8 << 20

// alloca allocates count elements of size bytes on thread t's stack.
func (s *state) alloca(t *Thread, size, count uint64, loc ir.LocID) (uint32, error) {
	hi, total := bits.Mul64(size, count)
	if hi != 0 || total > StackLimit-min(t.stackBytes, StackLimit) {
		what := bytesize.Format(total)
		if hi != 0 {
			what = "more than 2^64 bytes"
		}
		return 0, terminate(TermCrash, SIGSEGV, "stack overflow: a stack allocation of %s (%d x %d bytes) does not fit in the thread's %s stack, which holds %s",
			what, count, size, bytesize.Format(StackLimit), bytesize.Format(t.stackBytes))
	}
	o := s.mem.alloc(ObjStack, total, "", loc, t.ID)
	t.stackBytes += total
	return o.ID, nil
}

// releaseAlloca frees a stack allocation of thread t when its frame
// returns.
func (s *state) releaseAlloca(t *Thread, id uint32) {
	if o := s.mem.Object(id); o != nil {
		t.stackBytes -= min(o.Size, t.stackBytes)
	}
	s.mem.releaseStack(id)
}

// MaxObject is the largest object augur represents: an address holds a
// 32-bit offset.
const MaxObject = 1<<32 - 1

// checkGlobals refuses a program whose globals cannot be laid out: one
// larger than an object can be, or all of them together larger than the
// memory budget. It returns the bytes they take.
func checkGlobals(prog *ir.Program, maxMemory uint64) (uint64, error) {
	var total uint64
	for _, g := range prog.Globals {
		if g.Size > MaxObject {
			return 0, fmt.Errorf("global %s is %s: larger than the %s augur can represent in one object", g.Name,
				bytesize.Format(g.Size), bytesize.Format(MaxObject+1))
		}
		if !g.ThreadLocal {
			total += g.Size
		}
	}
	if maxMemory != 0 && total > maxMemory {
		return 0, fmt.Errorf("the program's globals need %s, more than the memory budget of %s", bytesize.Format(total),
			bytesize.Format(maxMemory))
	}
	return total, nil
}
