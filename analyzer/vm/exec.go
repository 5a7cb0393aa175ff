package vm

import (
	"time"

	"augur/analyzer/ir"
)

// budgetCheckEvery is how many instructions run between wall-clock checks.
const budgetCheckEvery = 1 << 16

func get(regs []Value, consts []uint64, o ir.Operand) Value {
	if o >= 0 {
		return regs[o]
	}
	return Value{Bits: consts[^o]}
}

// exec runs thread t until it reaches a preemption point (errPreempt), blocks
// or exits (errPreempt), or the execution terminates (*termError).
func (m *Machine) exec(t *Thread) error {
	if t.status != runnable || len(t.frames) == 0 {
		return errPreempt
	}
	fr := &t.frames[len(t.frames)-1]
	insts, consts := fr.fn.Insts, fr.fn.Consts
	regs := t.regs[fr.base : fr.base+fr.fn.NumSlots]
	// reload re-reads the current frame after a call or return.
	reload := func() {
		fr = &t.frames[len(t.frames)-1]
		insts, consts = fr.fn.Insts, fr.fn.Consts
		regs = t.regs[fr.base : fr.base+fr.fn.NumSlots]
	}
	for {
		in := &insts[fr.pc]
		m.insts++
		if m.insts&(budgetCheckEvery-1) == 0 {
			if err := m.checkBudget(); err != nil {
				return err
			}
		} else if m.cfg.MaxInstructions != 0 && m.insts > m.cfg.MaxInstructions {
			return m.checkBudget()
		}
		switch in.Op {
		case ir.OpBin:
			r, err := intBin(in.Sub, get(regs, consts, in.A).Bits, get(regs, consts, in.B).Bits, in.Ty.Bits)
			if err != nil {
				return err
			}
			regs[in.Dst] = Value{Bits: r}
			fr.pc++
		case ir.OpICmp:
			var r uint64
			if icmp(in.Sub, get(regs, consts, in.A).Bits, get(regs, consts, in.B).Bits, in.Src.Bits) {
				r = 1
			}
			regs[in.Dst] = Value{Bits: r}
			fr.pc++
		case ir.OpLoad:
			if err := m.load(t, in, get(regs, consts, in.A).Bits, regs[in.Dst:in.Dst+in.N]); err != nil {
				return err
			}
			fr.pc++
		case ir.OpStore:
			var src []Value
			if in.Layout != nil {
				if in.A >= 0 {
					src = regs[in.A : in.A+ir.Operand(in.N)]
				} else {
					src = m.constSlice(consts, in.A, int(in.N))
				}
			} else {
				src = []Value{get(regs, consts, in.A)}
			}
			if err := m.store(t, in, get(regs, consts, in.B).Bits, src); err != nil {
				return err
			}
			fr.pc++
		case ir.OpGEP:
			addr := get(regs, consts, in.A).Bits + uint64(in.Imm)
			for i := range in.Terms {
				term := &in.Terms[i]
				idx := ir.SExt(get(regs, consts, term.Index).Bits, uint16(term.Width))
				addr += uint64(idx * term.Scale)
			}
			regs[in.Dst] = Value{Bits: addr}
			fr.pc++
		case ir.OpBr:
			m.takeEdge(fr, regs, consts, &in.Targets[0])
		case ir.OpCondBr:
			if get(regs, consts, in.A).Bits&1 != 0 {
				m.takeEdge(fr, regs, consts, &in.Targets[0])
			} else {
				m.takeEdge(fr, regs, consts, &in.Targets[1])
			}
		case ir.OpSwitch:
			v := get(regs, consts, in.A).Bits
			e := &in.Targets[0]
			for _, c := range in.Cases {
				if c.Value == v {
					e = &in.Targets[c.Target]
					break
				}
			}
			m.takeEdge(fr, regs, consts, e)
		case ir.OpCast:
			regs[in.Dst] = Value{Bits: cast(in.Sub, get(regs, consts, in.A).Bits, in.Src, in.Ty)}
			fr.pc++
		case ir.OpSelect:
			src := in.C
			if get(regs, consts, in.A).Bits&1 != 0 {
				src = in.B
			}
			for k := int32(0); k < in.N; k++ {
				regs[in.Dst+k] = get(regs, consts, offset(src, k))
			}
			fr.pc++
		case ir.OpMove:
			for k := int32(0); k < in.N; k++ {
				regs[in.Dst+k] = get(regs, consts, offset(in.A, k))
			}
			fr.pc++
		case ir.OpFBin:
			k := in.Ty.Kind
			r := fbin(in.Sub, toFloat(get(regs, consts, in.A).Bits, k), toFloat(get(regs, consts, in.B).Bits, k), k)
			regs[in.Dst] = Value{Bits: fromFloat(r, k)}
			fr.pc++
		case ir.OpFNeg:
			k := in.Ty.Kind
			regs[in.Dst] = Value{Bits: fromFloat(-toFloat(get(regs, consts, in.A).Bits, k), k)}
			fr.pc++
		case ir.OpFCmp:
			var r uint64
			k := in.Src.Kind
			if fcmp(in.Sub, toFloat(get(regs, consts, in.A).Bits, k), toFloat(get(regs, consts, in.B).Bits, k)) {
				r = 1
			}
			regs[in.Dst] = Value{Bits: r}
			fr.pc++
		case ir.OpAlloca:
			n := get(regs, consts, in.A).Bits & ir.Mask(in.Src.Bits)
			o := m.mem.alloc(ObjStack, uint64(in.Imm)*n, "", in.Loc, t.ID)
			fr.allocas = append(fr.allocas, o.ID)
			regs[in.Dst] = Value{Bits: ir.Addr(o.ID, 0)}
			fr.pc++
		case ir.OpCall:
			pushed, err := m.call(t, fr, in, regs, consts)
			if pushed {
				reload()
			}
			if err != nil {
				return err
			}
		case ir.OpRet:
			done, err := m.ret(t, in, regs, consts)
			if err != nil {
				return err
			}
			if done {
				return errPreempt // the thread exited
			}
			reload()
		case ir.OpTLSAddr:
			addr, err := m.tlsAddr(t, uint32(in.Imm))
			if err != nil {
				return err
			}
			regs[in.Dst] = Value{Bits: addr + uint64(in.Imm>>32)}
			fr.pc++
		case ir.OpAtomicRMW:
			if err := m.atomicRMW(t, in, regs, consts); err != nil {
				return err
			}
			fr.pc++
		case ir.OpCmpXchg:
			if err := m.cmpXchg(t, in, regs, consts); err != nil {
				return err
			}
			fr.pc++
		case ir.OpFence:
			fr.pc++
		case ir.OpUnreachable:
			return terminate(TermCrash, SIGILL, "reached unreachable code (a function without return fell off its end, or __builtin_unreachable)")
		case ir.OpFail:
			return unsupported("%s", m.prog.Messages[in.Imm])
		default:
			return unsupported("instruction %s", in.Op)
		}
	}
}

func offset(o ir.Operand, k int32) ir.Operand {
	if o >= 0 {
		return o + ir.Operand(k)
	}
	return ir.Operand(^(int32(^o) + k))
}

func (m *Machine) constSlice(consts []uint64, o ir.Operand, n int) []Value {
	out := make([]Value, n)
	for k := range out {
		out[k] = Value{Bits: consts[int(^o)+k]}
	}
	return out
}

// takeEdge performs a branch: the phi moves of the edge, in parallel, then
// the jump.
func (m *Machine) takeEdge(fr *frame, regs []Value, consts []uint64, e *ir.Edge) {
	switch len(e.Moves) {
	case 0:
	case 1:
		mv := &e.Moves[0]
		for k := int32(0); k < mv.N; k++ {
			regs[mv.Dst+k] = get(regs, consts, offset(mv.Src, k))
		}
	default:
		tmp := m.argBuf[:0]
		for _, mv := range e.Moves {
			for k := int32(0); k < mv.N; k++ {
				tmp = append(tmp, get(regs, consts, offset(mv.Src, k)))
			}
		}
		i := 0
		for _, mv := range e.Moves {
			for k := int32(0); k < mv.N; k++ {
				regs[mv.Dst+k] = tmp[i]
				i++
			}
		}
		m.argBuf = tmp[:0]
	}
	fr.pc = e.PC
}

func (m *Machine) checkBudget() error {
	if m.cfg.MaxInstructions != 0 && m.insts > m.cfg.MaxInstructions {
		return terminate(TermBudget, 0, "instruction budget of %d exhausted (the program may loop forever; raise --max-instructions)", m.cfg.MaxInstructions)
	}
	if !m.deadline.IsZero() && time.Now().After(m.deadline) {
		return terminate(TermBudget, 0, "time budget of %s exhausted (the program may loop forever; raise --timeout)", m.cfg.Timeout)
	}
	return nil
}
