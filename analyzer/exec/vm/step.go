package vm

import (
	"augur/analyzer/frontend/ir"
)

// step executes in, the instruction at the top frame fr of thread t, with
// its full semantics: symbolic operands, checked and preempted memory
// accesses, calls and returns, atomics, and the instructions exec does not
// run inline. m.insts and fr.pc are current when it is called; it leaves the
// pc (of whichever frame is then on top) where the thread continues.
func (m *Machine) step(t *Thread, fr *frame, in *ir.Inst, regs []Value) (stepEnd, *Termination) {
	if m.sym != nil && needsConcrete[in.Op] {
		if err := m.concreteOperands(in, regs); err != nil {
			return ended(err)
		}
	}
	switch in.Op {
	case ir.OpLoad:
		return m.stepLoad(t, fr, in, regs)
	case ir.OpStore:
		return m.stepStore(t, fr, in, regs)
	case ir.OpAtomicRMW, ir.OpCmpXchg:
		// Under a focus the point before an atomic update is one too: a
		// lock-free algorithm's bugs (ABA) sit between its read and its
		// compare-and-swap.
		if (m.preemptsAt(in) || m.focus != nil) && m.accessPoint(t, get(regs, in.A).Bits, m.deepAt(in)) {
			m.insts-- // the access runs (and counts) when the thread resumes
			return stepSwitch, nil
		}
		if err := m.atomic(t, in, regs); err != nil {
			return ended(err)
		}
		fr.pc++
		return stepSwitch, nil // atomics are preemption points
	case ir.OpBr:
		fr.pc = m.jump(regs, in)
		return stepNext, nil
	case ir.OpCondBr, ir.OpSwitch:
		if err := m.branch(fr, in, regs); err != nil {
			return ended(err)
		}
		return stepNext, nil
	case ir.OpCall:
		return m.call(t, fr, in, regs)
	case ir.OpRet:
		done, err := m.ret(t, in, regs)
		if err != nil {
			return ended(err)
		}
		if done {
			return stepSwitch, nil // the thread exited
		}
		return stepNext, nil
	case ir.OpUnreachable:
		return ended(terminate(TermCrash, SIGILL, "reached unreachable code (a function without return fell off its end, or __builtin_unreachable)"))
	case ir.OpFail:
		return ended(unsupported("%s", m.prog.Messages[in.Imm]))
	case ir.OpLandingPad:
		m.landing(t, in, regs)
		fr.pc++
		return stepNext, nil
	case ir.OpResume:
		switch err := m.resume(t, in, regs); err {
		case errJumped:
			return stepNext, nil
		case errJumpedSwitch:
			return stepSwitch, nil
		default:
			return ended(err)
		}
	}
	if err := m.compute(t, fr, in, regs); err != nil {
		return ended(err)
	}
	fr.pc++
	if in.Yield { // an inline-assembly pause (bitcode/asm.go)
		return stepSwitch, nil
	}
	return stepNext, nil
}

// compute executes an instruction that produces values (or a fence) and
// continues with the next one.
func (m *Machine) compute(t *Thread, fr *frame, in *ir.Inst, regs []Value) error {
	switch in.Op {
	case ir.OpBin:
		a, b := get(regs, in.A), get(regs, in.B)
		if a.Sym != nil || b.Sym != nil {
			v, err := m.symBin(t, in, a, b)
			if err != nil {
				return err
			}
			regs[in.Dst] = v
			return nil
		}
		x, err := intBin(in.Sub, a.Bits, b.Bits, in.Ty.Bits)
		if err != nil {
			return err
		}
		regs[in.Dst] = Value{Bits: x & in.Mask}
	case ir.OpICmp:
		a, b := get(regs, in.A), get(regs, in.B)
		if a.Sym != nil || b.Sym != nil {
			regs[in.Dst] = m.symCmp(in, a, b)
			return nil
		}
		regs[in.Dst] = Value{Bits: b2u(icmp(in.Sub, a.Bits, b.Bits, in.Src.Bits))}
	case ir.OpGEP:
		if m.sym != nil && gepSymbolic(in, regs) {
			regs[in.Dst] = m.symGEP(in, regs)
			return nil
		}
		regs[in.Dst] = Value{Bits: gep(in, regs)}
	case ir.OpCast:
		if v := get(regs, in.A); v.Sym != nil {
			v, err := m.symCast(in, v)
			if err != nil {
				return err
			}
			regs[in.Dst] = v
			return nil
		}
		a := get(regs, in.A).Bits
		if in.Sub == ir.CastPtrToInt && in.Ty.Bits < 64 && a>>ir.AddrShift != 0 {
			m.truncated = truncation{at: in.Loc, id: uint32(a >> ir.AddrShift), bits: uint32(in.Ty.Bits)}
		}
		regs[in.Dst] = Value{Bits: cast(in.Sub, a, in.Src, in.Ty)}
	case ir.OpSelect:
		return m.selectValue(in, regs)
	case ir.OpMove:
		for k := int32(0); k < in.N; k++ {
			regs[in.Dst+k] = get(regs, offset(in.A, k))
		}
	case ir.OpFBin:
		regs[in.Dst] = Value{Bits: floatBin(in, get(regs, in.A).Bits, get(regs, in.B).Bits, get(regs, in.C).Bits)}
	case ir.OpFNeg:
		regs[in.Dst] = Value{Bits: fneg(get(regs, in.A).Bits, in.Ty.Kind)}
	case ir.OpFCmp:
		k := in.Src.Kind
		regs[in.Dst] = Value{Bits: b2u(fcmp(in.Sub, FloatOf(get(regs, in.A).Bits, k), FloatOf(get(regs, in.B).Bits, k)))}
	case ir.OpAlloca:
		count := get(regs, in.A).Bits & ir.Mask(in.Src.Bits)
		id, err := m.alloca(t, uint64(in.Imm), count, in.Loc)
		if err != nil {
			return err
		}
		fr.allocas = append(fr.allocas, id)
		regs[in.Dst] = Value{Bits: ir.Addr(id, 0)}
	case ir.OpTLSAddr:
		addr, err := m.tlsAddr(t, uint32(in.Imm))
		if err != nil {
			return err
		}
		regs[in.Dst] = Value{Bits: addr + uint64(in.Imm>>32)}
	case ir.OpCycles:
		c := m.cycles(t, in)
		regs[in.Dst] = Value{Bits: c & 0xffffffff} // eax, zero-extended into rax
		if in.N == 2 {
			regs[in.Dst+1] = Value{Bits: c >> 32} // edx
		}
	case ir.OpFence:
		if (m.mon != nil || m.weak != nil) && in.Ordering != ir.Monotonic {
			// Fences order through one global clock: sound for the
			// release/acquire patterns, coarser than C11.
			m.emitSync(SyncEvent{Op: Acquire, Thread: t.ID, Key: SyncKey{Kind: keyFence}, Site: m.site(t, in.Loc)})
			m.emitSync(SyncEvent{Op: ReleaseMerge, Thread: t.ID, Key: SyncKey{Kind: keyFence}, Site: m.site(t, in.Loc)})
		}
	case ir.OpWide:
		return m.wideBin(in, regs)
	case ir.OpWideCmp:
		return m.wideCmp(in, regs)
	case ir.OpWideCast:
		return m.wideCast(in, regs)
	default:
		return unsupported("instruction %s", in.Op)
	}
	return nil
}

// stepLoad executes a load: a symbolic address is resolved (or the load is
// made a select over the object), an access preemption point yields first,
// and a volatile or atomic load is a preemption point after.
func (m *Machine) stepLoad(t *Thread, fr *frame, in *ir.Inst, regs []Value) (stepEnd, *Termination) {
	av := get(regs, in.A)
	addr := av.Bits
	if av.Sym != nil {
		v, concrete, done, err := m.symLoad(in, av)
		if err != nil {
			return ended(err)
		}
		if done {
			regs[in.Dst] = v
			fr.pc++
			return stepNext, nil
		}
		addr = concrete
	}
	resumed := t.accessGranted // the read was a point, and its thread is back
	if m.preemptsAt(in) && m.accessPoint(t, addr, m.deepAt(in)) {
		m.insts-- // the access runs (and counts) when the thread resumes
		return stepSwitch, nil
	}
	// load reports the access with the thread's count, and a weak read may
	// fork the state here.
	if err := m.load(t, in, addr, regs[in.Dst:in.Dst+in.N]); err != nil {
		return ended(err)
	}
	fr.pc++
	if in.Yield || resumed && m.deepAt(in) {
		return stepSwitch, nil
	}
	return stepNext, nil
}

// stepStore executes a store, as stepLoad a load.
func (m *Machine) stepStore(t *Thread, fr *frame, in *ir.Inst, regs []Value) (stepEnd, *Termination) {
	av := get(regs, in.B)
	if m.preemptsAt(in) && m.accessPoint(t, av.Bits, m.deepAt(in)) {
		m.insts-- // the access runs (and counts) when the thread resumes
		return stepSwitch, nil
	}
	addr := av.Bits
	if av.Sym != nil {
		var err error
		if addr, err = m.concreteStoreAddr(av, uint64(in.Imm)); err != nil {
			return ended(err)
		}
	}
	src := regs[in.A : in.A+1]
	if in.Layout != nil {
		src = regs[in.A : in.A+ir.Operand(in.N)]
	}
	if err := m.store(t, in, addr, src); err != nil {
		return ended(err)
	}
	fr.pc++
	if in.Yield {
		return stepSwitch, nil
	}
	return stepNext, nil
}

// branch takes a conditional branch or a switch, deciding a symbolic
// condition (which may fork the state), and performs the edge's phi moves.
func (m *Machine) branch(fr *frame, in *ir.Inst, regs []Value) error {
	cv := get(regs, in.A)
	var e *ir.Edge
	switch {
	case in.Op == ir.OpCondBr && cv.Sym != nil:
		taken, _, err := m.decide(cv.Sym)
		if err != nil {
			return err
		}
		e = &in.Targets[1-b2u(taken)]
	case in.Op == ir.OpCondBr:
		e = &in.Targets[1-cv.Bits&1]
	case cv.Sym != nil:
		idx, err := m.symSwitch(in, cv)
		if err != nil {
			return err
		}
		e = &in.Targets[idx]
	default:
		e = nil
		for _, c := range in.Cases {
			if c.Value == cv.Bits {
				e = &in.Targets[c.Target]
				break
			}
		}
		if e == nil && in.Sub == ir.SwitchIndirect {
			return terminate(TermCrash, SIGSEGV, "computed goto to 0x%x, the address of none of the labels it may reach", cv.Bits)
		}
		if e == nil {
			e = &in.Targets[0]
		}
	}
	if len(e.Moves) > 0 {
		m.phiMoves(regs, e)
	}
	fr.pc = e.PC
	return nil
}

// selectValue executes a select. A symbolic condition on a scalar makes an
// if-then-else term; on an aggregate it is made concrete.
func (m *Machine) selectValue(in *ir.Inst, regs []Value) error {
	src := in.C
	if cv := get(regs, in.A); cv.Sym != nil {
		if in.N == 1 && in.Ty.Kind == ir.KPtr {
			// A pointer an input chooses (a lock, a buffer) forks: each path
			// takes one object, which the models and the race detector
			// follow, rather than a term over two addresses.
			taken, _, err := m.decide(cv.Sym)
			if err != nil {
				return err
			}
			if taken {
				src = in.B
			}
			regs[in.Dst] = get(regs, src)
			return nil
		}
		if in.N == 1 && in.Ty.Kind == ir.KInt {
			b := m.sym.B
			regs[in.Dst] = value(b.Ite(cv.Sym, m.term(get(regs, in.B), in.Ty.Bits), m.term(get(regs, in.C), in.Ty.Bits)))
			return nil
		}
		c, err := m.concretize(cv, 1)
		if err != nil {
			return err
		}
		if c != 0 {
			src = in.B
		}
	} else if cv.Bits&1 != 0 {
		src = in.B
	}
	for k := int32(0); k < in.N; k++ {
		regs[in.Dst+k] = get(regs, offset(src, k))
	}
	return nil
}

// preemptsAt reports whether the access in may be a preemption point:
// every access is one under Config.PreemptAccesses, those at the focused
// locations under Config.PreemptAt.
func (m *Machine) preemptsAt(in *ir.Inst) bool {
	return m.cfg.PreemptAccesses || int(in.Loc) < len(m.focus) && m.focus[in.Loc]
}

// deepAt reports whether the access in is at a focused location under
// Config.PreemptAfterReads: a point on the thread's own stack too, and,
// a read, a point after it as well as before.
func (m *Machine) deepAt(in *ir.Inst) bool {
	return m.cfg.PreemptAfterReads && m.focused(in.Loc)
}

// accessPoint reports whether an access at addr is a preemption point that
// has not been taken yet. The first time a thread reaches such an access it
// yields (the access runs when the thread is scheduled again); the second
// time it proceeds. Accesses to thread-locals and invalid accesses are not
// points, nor those to the thread's own stack and argument areas unless
// own is set (Config.PreemptAfterReads: a stack object whose address the
// thread handed to another is shared like any other).
func (s *state) accessPoint(t *Thread, addr uint64, own bool) bool {
	o := s.mem.Object(uint32(addr >> ir.AddrShift))
	if o == nil || o.Kind == ObjFunc || o.Kind == ObjTLS {
		return false
	}
	if (o.Kind == ObjStack || o.Kind == ObjVarargs) && int(o.Thread) == t.ID && !own {
		return false
	}
	if t.atomicDepth > 0 {
		return false
	}
	if t.accessGranted {
		t.accessGranted = false
		return false
	}
	t.accessGranted = true
	return true
}

// needsConcrete marks the operations that compute on concrete bits only: a
// symbolic operand is made concrete (under a constraint) before they run.
var needsConcrete = [ir.NumOps]bool{ir.OpFBin: true, ir.OpFNeg: true, ir.OpFCmp: true, ir.OpAlloca: true,
	ir.OpAtomicRMW: true, ir.OpCmpXchg: true, ir.OpCall: true}

// concreteOperands replaces symbolic operands of in with concrete values.
// For calls only the callee is made concrete here; arguments are, for
// modeled functions, in call.
func (s *state) concreteOperands(in *ir.Inst, regs []Value) error {
	fix := func(o ir.Operand, w uint16) error {
		if v := regs[o]; v.Sym != nil {
			if in.Op == ir.OpFBin || in.Op == ir.OpFNeg || in.Op == ir.OpFCmp {
				s.sym.Stats.FloatConcretized++
			}
			x, err := s.concretize(v, v.Sym.Width)
			if err != nil {
				return err
			}
			regs[o] = Value{Bits: x}
		}
		return nil
	}
	switch in.Op {
	case ir.OpCall:
		if in.Callee == nil {
			return fix(in.A, 64)
		}
		return nil
	case ir.OpFNeg, ir.OpAlloca:
		return fix(in.A, 64)
	case ir.OpCmpXchg:
		if err := fix(in.C, 64); err != nil {
			return err
		}
	case ir.OpFBin:
		if in.Sub == ir.FMulAdd {
			if err := fix(in.C, 64); err != nil {
				return err
			}
		}
	}
	if err := fix(in.A, 64); err != nil {
		return err
	}
	return fix(in.B, 64)
}
