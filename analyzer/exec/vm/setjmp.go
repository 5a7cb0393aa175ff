package vm

import "augur/analyzer/frontend/ir"

// setjmp and longjmp. setjmp records where it was called (the thread, the
// activation, the call instruction) in a table of the execution and writes
// the entry's number into the jmp_buf; longjmp finds it there, unwinds the
// frames above that activation (releasing their stack objects, as returns
// would) and makes the setjmp call return again with the value given.
// Jumping into an activation that has returned is undefined behavior in C;
// augur reports it as a crash, as the damage it does natively is arbitrary.

// jumpTarget is a setjmp call site recorded for longjmp.
type jumpTarget struct {
	thread int
	depth  int    // index of the activation in the thread's frames
	serial uint64 // that activation's serial: it must still be the same one
	pc     int    // the setjmp call instruction
	dst    int32  // the call's result register
}

// jmpMagic marks a jmp_buf written by setjmp (its second word).
const jmpMagic = 0x6a6d7062_61756775 // "augupbmj"

func (tab *Models) addSetjmp() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fr := &t.frames[len(t.frames)-1]
		target := jumpTarget{thread: t.ID, depth: len(t.frames) - 1, serial: fr.serial, pc: fr.pc, dst: in.Dst}
		n := m.jumpIndex(a[0].Bits, target)
		if err := m.WriteUint(a[0].Bits, 8, n); err != nil {
			return err
		}
		if err := m.WriteUint(a[0].Bits+8, 8, jmpMagic); err != nil {
			return err
		}
		SetResult(res, 0)
		return nil
	}, "setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		val := a[1].Bits & 0xffffffff
		if val == 0 {
			val = 1 // longjmp(env, 0) makes setjmp return 1
		}
		return m.longjmp(t, a[0].Bits, val)
	}, "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk").Local()
}

// jumpIndex returns the number to store in env for target: the one env
// holds already when it names the same target (a setjmp in a loop), else
// a new entry's.
func (s *state) jumpIndex(env uint64, target jumpTarget) uint64 {
	if n, err := s.SyncRead(env, 8); err == nil && n > 0 && n <= uint64(len(s.jumps)) && s.jumps[n-1] == target {
		return n
	}
	s.jumps = append(s.jumps[:len(s.jumps):len(s.jumps)], target)
	return uint64(len(s.jumps))
}

// longjmp returns to the setjmp that filled env, with val as its result.
func (m *Machine) longjmp(t *Thread, env, val uint64) error {
	n, err := m.ReadUint(env, 8)
	if err != nil {
		return err
	}
	magic, err := m.ReadUint(env+8, 8)
	if err != nil {
		return err
	}
	if magic != jmpMagic || n == 0 || n > uint64(len(m.jumps)) {
		return terminate(TermCrash, SIGSEGV, "longjmp to a jmp_buf that setjmp did not fill (%s)", m.DescribeAddr(env))
	}
	return m.jumpTo(t, m.jumps[n-1], val)
}

// jumpTo makes the call j recorded return again with val, after the
// frames above its activation are unwound.
func (m *Machine) jumpTo(t *Thread, j jumpTarget, val uint64) error {
	switch {
	case j.thread != t.ID:
		return terminate(TermCrash, SIGSEGV, "longjmp to a setjmp of another thread (thread %d)", j.thread)
	case j.depth >= len(t.frames) || t.frames[j.depth].serial != j.serial:
		return terminate(TermCrash, SIGSEGV, "longjmp into a function that has already returned")
	}
	for len(t.frames) > j.depth+1 {
		m.dropFrame(t)
	}
	fr := &t.frames[j.depth]
	fr.pc = j.pc + 1
	if j.dst >= 0 {
		t.regs[fr.base+int(j.dst)] = Value{Bits: val}
	}
	return errJumped
}

// dropFrame pops the top frame of t without returning from it: its stack
// objects and variadic arguments are released, an atomic section it opened
// ends.
func (m *Machine) dropFrame(t *Thread) {
	fr := &t.frames[len(t.frames)-1]
	for _, id := range fr.allocas {
		m.releaseAlloca(t, id)
	}
	if fr.varargs != 0 {
		m.mem.releaseStack(fr.varargs)
	}
	if fr.atomic {
		t.atomicDepth--
		m.syncEvent(t, Release, keyVerifier, 0)
	}
	t.popFrame(fr)
}

// holdsNothing reports whether dropping frame fr releases nothing but its
// registers: no stack object, no variadic arguments, no atomic section.
func (fr *frame) holdsNothing() bool {
	return len(fr.allocas) == 0 && fr.varargs == 0 && !fr.atomic
}

// popFrame takes fr, the top frame of t, off its stack. Its constants stay
// in the registers past the new top, warm for the next call (warmFrame).
func (t *Thread) popFrame(fr *frame) {
	t.warm = t.warmAt(fr.fn, fr.base)
	t.regs = t.regs[:fr.base]
	t.frames = t.frames[:len(t.frames)-1]
}
