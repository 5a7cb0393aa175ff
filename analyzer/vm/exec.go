package vm

import (
	"augur/analyzer/ir"
)

// budgetCheckEvery is how many instructions run between wall-clock checks.
const budgetCheckEvery = 1 << 16

// get reads an operand: every operand is a slot of the frame (constants
// included, see ir.Operand).
func get(regs []Value, o ir.Operand) Value { return regs[o] }

// exec runs thread t until it reaches a preemption point (errPreempt), blocks
// or exits (errPreempt), or the execution terminates (*termError).
func (m *Machine) exec(t *Thread) error {
	if t.status != runnable || len(t.frames) == 0 {
		return errPreempt
	}
	if m.pendingFail != nil { // a fork made to take a failing alternative
		err := m.pendingFail
		m.pendingFail = nil
		return err
	}
	// The current frame, its code and registers, the program counter and
	// the instruction count live in locals while the thread runs, so the hot
	// loop touches no memory but the instruction and its operands. pc and n
	// are stored back (fr.pc, m.insts) before anything that reads them:
	// calls, returns, and every exit from this function.
	fr, insts, regs, pc := top(t)
	n, limit := m.insts, m.nextCheck
	stopAt := ^uint64(0) // global count at which this thread reaches m.stop
	var stopLoc ir.LocID // or the location where it stops
	if m.stop != nil && m.stop.Thread == t.ID {
		if m.stop.Loc != 0 {
			stopLoc = m.stop.Loc
		} else {
			stopAt = m.sliceStart + (m.stop.Count - min(m.stop.Count, t.count)) + 1
			limit = min(limit, stopAt)
		}
	}
	// preempt makes every access to memory another thread can reach a
	// preemption point (Config.PreemptAccesses); it disables the fast paths.
	preempt := m.cfg.PreemptAccesses
	// checked turns the fast paths off (access preemption and the weak
	// memory model need the slow paths); a monitor sees accesses from both.
	checked := preempt || m.weak != nil
	mon := m.mon
	for {
		in := &insts[pc]
		n++
		if stopLoc != 0 && in.Loc == stopLoc && t.count+(n-1-m.sliceStart) >= m.stop.Count {
			m.insts, fr.pc = n-1, pc
			m.atStop = true
			return errPaused
		}
		if n >= limit {
			if n >= stopAt { // reached the stop point: before executing in
				m.insts, fr.pc = n-1, pc
				m.atStop = true
				return errPaused
			}
			m.insts, fr.pc = n, pc
			if err := m.checkBudget(); err != nil {
				return err
			}
			limit = min(m.nextCheck, stopAt)
		}
		if m.sym != nil && needsConcrete[in.Op] {
			m.insts, fr.pc = n, pc
			if err := m.concreteOperands(in, regs); err != nil {
				return err
			}
		}
		switch in.Op {
		case ir.OpBin:
			av, bv := get(regs, in.A), get(regs, in.B)
			if av.Sym != nil || bv.Sym != nil {
				m.insts, fr.pc = n, pc
				r, err := m.symBin(t, in, av, bv)
				if err != nil {
					return err
				}
				regs[in.Dst] = r
				pc++
				continue
			}
			a, b := av.Bits, bv.Bits
			var r uint64
			switch in.Sub {
			case ir.BinAdd:
				r = a + b
			case ir.BinSub:
				r = a - b
			case ir.BinMul:
				r = a * b
			case ir.BinAnd:
				r = a & b
			case ir.BinOr:
				r = a | b
			case ir.BinXor:
				r = a ^ b
			default:
				var err error
				if r, err = intBin(in.Sub, a, b, in.Ty.Bits); err != nil {
					m.insts, fr.pc = n, pc
					return err
				}
			}
			regs[in.Dst] = Value{Bits: r & in.Mask}
			pc++
		case ir.OpICmp:
			av, bv := get(regs, in.A), get(regs, in.B)
			if av.Sym != nil || bv.Sym != nil {
				regs[in.Dst] = m.symCmp(in, av, bv)
				pc++
				continue
			}
			a, b := av.Bits, bv.Bits
			var c bool
			switch in.Sub {
			case ir.ICmpEQ:
				c = a == b
			case ir.ICmpNE:
				c = a != b
			case ir.ICmpULT:
				c = a < b
			case ir.ICmpSLT: // Imm is 64 minus the operand width
				c = int64(a<<in.Imm)>>in.Imm < int64(b<<in.Imm)>>in.Imm
			case ir.ICmpSGT:
				c = int64(a<<in.Imm)>>in.Imm > int64(b<<in.Imm)>>in.Imm
			default:
				c = icmp(in.Sub, a, b, in.Src.Bits)
			}
			var r uint64
			if c {
				r = 1
			}
			regs[in.Dst] = Value{Bits: r}
			pc++
		case ir.OpLoad:
			addr := get(regs, in.A).Bits
			if av := get(regs, in.A); av.Sym != nil {
				m.insts, fr.pc = n, pc
				v, concrete, done, err := m.symLoad(in, av)
				if err != nil {
					return err
				}
				if done {
					regs[in.Dst] = v
					pc++
					continue
				}
				addr = concrete
			}
			if preempt && m.accessPoint(t, addr) {
				m.insts, fr.pc = n-1, pc // the access runs (and counts) when the thread resumes
				return errPreempt
			}
			if in.Raw && !checked {
				// Fast path of Memory.resolve, inlined: a live object and an
				// access within its read limit.
				if pg := addr >> (ir.AddrShift + pageBits); pg < uint64(len(m.mem.pages)) && m.mem.pages[pg] != nil {
					if o := m.mem.pages[pg].objs[(addr>>ir.AddrShift)&pageMask]; o != nil && o.sym == nil {
						if off := addr & (1<<ir.AddrShift - 1); off+uint64(in.Imm) <= o.readLimit {
							if mon != nil {
								m.acc = Access{Thread: t.ID, Obj: o, Off: off, Size: uint64(in.Imm), Kind: Read, Site: Site{in.Loc, fr.stack},
									Count: t.count + (n - 1 - m.sliceStart)}
								mon.Access(&m.acc)
							}
							regs[in.Dst] = Value{Bits: ir.LoadLE(o.bytes[off:], int(in.Imm))}
							pc++
							continue
						}
					}
				}
				if err := m.load(t, in, addr, regs[in.Dst:in.Dst+in.N]); err != nil {
					m.insts, fr.pc = n, pc
					return err
				}
			} else {
				// load reports the access with the thread's count, and a
				// weak read may fork the state here.
				m.insts, fr.pc = n, pc
				if err := m.load(t, in, addr, regs[in.Dst:in.Dst+in.N]); err != nil {
					m.insts, fr.pc = n, pc
					return err
				}
			}
			pc++
			if in.Yield {
				m.insts, fr.pc = n, pc
				return errPreempt
			}
		case ir.OpStore:
			if preempt && m.accessPoint(t, get(regs, in.B).Bits) {
				m.insts, fr.pc = n-1, pc // the access runs (and counts) when the thread resumes
				return errPreempt
			}
			addr := get(regs, in.B).Bits
			if av := get(regs, in.B); av.Sym != nil {
				m.insts, fr.pc = n, pc
				var err error
				if addr, err = m.concreteAddr(av, uint64(in.Imm)); err != nil {
					return err
				}
			}
			if in.Raw && !checked && get(regs, in.A).Sym == nil {
				// Fast path of Memory.writeSlice, inlined: a live object this
				// state owns and an access within its write limit.
				if pg := addr >> (ir.AddrShift + pageBits); pg < uint64(len(m.mem.pages)) && m.mem.pages[pg] != nil {
					if o := m.mem.pages[pg].objs[(addr>>ir.AddrShift)&pageMask]; o != nil && o.gen == m.mem.gen && o.sym == nil {
						if off := addr & (1<<ir.AddrShift - 1); off+uint64(in.Imm) <= o.writeLimit {
							if mon != nil {
								m.acc = Access{Thread: t.ID, Obj: o, Off: off, Size: uint64(in.Imm), Kind: Write, Site: Site{in.Loc, fr.stack},
									Count: t.count + (n - 1 - m.sliceStart)}
								mon.Access(&m.acc)
							}
							ir.StoreLE(o.bytes[off:], int(in.Imm), get(regs, in.A).Bits)
							pc++
							continue
						}
					}
				}
			}
			src := regs[in.A : in.A+1]
			if in.Layout != nil {
				src = regs[in.A : in.A+ir.Operand(in.N)]
			}
			m.insts = n
			if err := m.store(t, in, addr, src); err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
			pc++
			if in.Yield {
				m.insts, fr.pc = n, pc
				return errPreempt
			}
		case ir.OpGEP:
			if m.sym != nil && m.gepSymbolic(in, regs) {
				regs[in.Dst] = m.symGEP(in, regs)
				pc++
				continue
			}
			addr := get(regs, in.A).Bits + uint64(in.Imm)
			for i := range in.Terms {
				term := &in.Terms[i]
				idx := ir.SExt(get(regs, term.Index).Bits, uint16(term.Width))
				addr += uint64(idx * term.Scale)
			}
			regs[in.Dst] = Value{Bits: addr}
			pc++
		case ir.OpBr:
			if e := &in.Targets[0]; len(e.Moves) == 0 {
				pc = e.PC
			} else {
				m.phiMoves(regs, e)
				pc = e.PC
			}
		case ir.OpCondBr:
			e := &in.Targets[1]
			if cv := get(regs, in.A); cv.Sym != nil {
				m.insts, fr.pc = n, pc
				taken, _, err := m.decide(cv.Sym)
				if err != nil {
					return err
				}
				if taken {
					e = &in.Targets[0]
				}
			} else if cv.Bits&1 != 0 {
				e = &in.Targets[0]
			}
			if len(e.Moves) == 0 {
				pc = e.PC
			} else {
				m.phiMoves(regs, e)
				pc = e.PC
			}
		case ir.OpSwitch:
			e := &in.Targets[0]
			if sv := get(regs, in.A); sv.Sym != nil {
				m.insts, fr.pc = n, pc
				idx, err := m.symSwitch(in, sv)
				if err != nil {
					return err
				}
				e = &in.Targets[idx]
			} else {
				for _, c := range in.Cases {
					if c.Value == sv.Bits {
						e = &in.Targets[c.Target]
						break
					}
				}
			}
			if len(e.Moves) > 0 {
				m.phiMoves(regs, e)
			}
			pc = e.PC
		case ir.OpCast:
			if sv := get(regs, in.A); sv.Sym != nil {
				m.insts, fr.pc = n, pc
				r, err := m.symCast(in, sv)
				if err != nil {
					return err
				}
				regs[in.Dst] = r
				pc++
				continue
			}
			v := get(regs, in.A).Bits
			switch in.Sub {
			case ir.CastZExt, ir.CastTrunc, ir.CastPtrToInt, ir.CastIntToPtr:
				v &= in.Mask
			case ir.CastSExt: // Imm is 64 minus the source width
				v = uint64(int64(v<<in.Imm)>>in.Imm) & in.Mask
			default:
				v = cast(in.Sub, v, in.Src, in.Ty)
			}
			regs[in.Dst] = Value{Bits: v}
			pc++
		case ir.OpSelect:
			src := in.C
			if cv := get(regs, in.A); cv.Sym != nil {
				if in.N == 1 && (in.Ty.Kind == ir.KInt || in.Ty.Kind == ir.KPtr) {
					b := m.sym.B
					regs[in.Dst] = value(b.Ite(cv.Sym, m.term(get(regs, in.B), in.Ty.Bits), m.term(get(regs, in.C), in.Ty.Bits)))
					pc++
					continue
				}
				m.insts, fr.pc = n, pc
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
			pc++
		case ir.OpMove:
			for k := int32(0); k < in.N; k++ {
				regs[in.Dst+k] = get(regs, offset(in.A, k))
			}
			pc++
		case ir.OpFBin:
			k := in.Ty.Kind
			r := fbin(in.Sub, toFloat(get(regs, in.A).Bits, k), toFloat(get(regs, in.B).Bits, k), k)
			regs[in.Dst] = Value{Bits: fromFloat(r, k)}
			pc++
		case ir.OpFNeg:
			k := in.Ty.Kind
			regs[in.Dst] = Value{Bits: fromFloat(-toFloat(get(regs, in.A).Bits, k), k)}
			pc++
		case ir.OpFCmp:
			var r uint64
			k := in.Src.Kind
			if fcmp(in.Sub, toFloat(get(regs, in.A).Bits, k), toFloat(get(regs, in.B).Bits, k)) {
				r = 1
			}
			regs[in.Dst] = Value{Bits: r}
			pc++
		case ir.OpAlloca:
			count := get(regs, in.A).Bits & ir.Mask(in.Src.Bits)
			id, err := m.alloca(t, uint64(in.Imm), count, in.Loc)
			if err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
			fr.allocas = append(fr.allocas, id)
			regs[in.Dst] = Value{Bits: ir.Addr(id, 0)}
			pc++
		case ir.OpCall:
			m.insts, fr.pc = n, pc
			pushed, err := m.call(t, fr, in, regs)
			if pushed {
				fr, insts, regs, pc = top(t)
			} else {
				pc = fr.pc // a completed call advanced it
			}
			if err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
		case ir.OpRet:
			done, err := m.ret(t, in, regs)
			if err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
			if done {
				m.insts, fr.pc = n, pc
				return errPreempt // the thread exited
			}
			fr, insts, regs, pc = top(t)
		case ir.OpTLSAddr:
			addr, err := m.tlsAddr(t, uint32(in.Imm))
			if err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
			regs[in.Dst] = Value{Bits: addr + uint64(in.Imm>>32)}
			pc++
		case ir.OpAtomicRMW:
			if preempt && m.accessPoint(t, get(regs, in.A).Bits) {
				m.insts, fr.pc = n-1, pc // the access runs (and counts) when the thread resumes
				return errPreempt
			}
			if err := m.atomicRMW(t, in, regs); err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
			pc++
			m.insts, fr.pc = n, pc
			return errPreempt // atomics are preemption points
		case ir.OpCmpXchg:
			if preempt && m.accessPoint(t, get(regs, in.A).Bits) {
				m.insts, fr.pc = n-1, pc // the access runs (and counts) when the thread resumes
				return errPreempt
			}
			if err := m.cmpXchg(t, in, regs); err != nil {
				m.insts, fr.pc = n, pc
				return err
			}
			pc++
			m.insts, fr.pc = n, pc
			return errPreempt // atomics are preemption points
		case ir.OpFence:
			if (m.mon != nil || m.weak != nil) && in.Ordering != ir.Monotonic {
				// Fences order through one global clock: sound for the
				// release/acquire patterns, coarser than C11.
				m.emitSync(SyncEvent{Op: Acquire, Thread: t.ID, Key: SyncKey{Kind: keyFence}, Site: m.site(t, in.Loc)})
				m.emitSync(SyncEvent{Op: ReleaseMerge, Thread: t.ID, Key: SyncKey{Kind: keyFence}, Site: m.site(t, in.Loc)})
			}
			pc++
		case ir.OpUnreachable:
			m.insts, fr.pc = n, pc
			return terminate(TermCrash, SIGILL, "reached unreachable code (a function without return fell off its end, or __builtin_unreachable)")
		case ir.OpWide, ir.OpWideCmp, ir.OpWideCast:
			m.insts, fr.pc = n, pc
			var err error
			switch in.Op {
			case ir.OpWide:
				err = m.wideBin(in, regs)
			case ir.OpWideCmp:
				err = m.wideCmp(in, regs)
			default:
				err = m.wideCast(in, regs)
			}
			if err != nil {
				return err
			}
			pc++
		case ir.OpFail:
			m.insts, fr.pc = n, pc
			return unsupported("%s", m.prog.Messages[in.Imm])
		default:
			m.insts, fr.pc = n, pc
			return unsupported("instruction %s", in.Op)
		}
	}
}

func offset(o ir.Operand, k int32) ir.Operand { return o + ir.Operand(k) }

// accessPoint reports whether an access at addr is a preemption point that
// has not been taken yet. The first time a thread reaches such an access it
// yields (the access runs when the thread is scheduled again); the second
// time it proceeds. Accesses to the thread's own stack, thread-locals and
// argument areas, and invalid accesses, are not points.
func (m *Machine) accessPoint(t *Thread, addr uint64) bool {
	o := m.mem.Object(uint32(addr >> ir.AddrShift))
	if o == nil || o.Kind == ObjFunc || o.Kind == ObjTLS {
		return false
	}
	if (o.Kind == ObjStack || o.Kind == ObjVarargs) && int(o.Thread) == t.ID {
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
var needsConcrete = [...]bool{ir.OpFBin: true, ir.OpFNeg: true, ir.OpFCmp: true, ir.OpAlloca: true,
	ir.OpAtomicRMW: true, ir.OpCmpXchg: true, ir.OpCall: true, ir.OpFail: false}

// concreteOperands replaces symbolic operands of in with concrete values.
// For calls only the callee is made concrete here; arguments are, for
// modeled functions, in call.
func (m *Machine) concreteOperands(in *ir.Inst, regs []Value) error {
	fix := func(o ir.Operand, w uint16) error {
		if v := regs[o]; v.Sym != nil {
			if in.Op == ir.OpFBin || in.Op == ir.OpFNeg || in.Op == ir.OpFCmp {
				m.sym.Stats.FloatConcretized++
			}
			x, err := m.concretize(v, v.Sym.Width)
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
	}
	if err := fix(in.A, 64); err != nil {
		return err
	}
	return fix(in.B, 64)
}

// top returns the top frame of t with its code, registers and pc.
func top(t *Thread) (*frame, []ir.Inst, []Value, int) {
	fr := &t.frames[len(t.frames)-1]
	return fr, fr.fn.Insts, t.regs[fr.base : fr.base+fr.fn.FrameSize], fr.pc
}

// phiMoves performs the phi assignments of a branch edge, in parallel.
func (m *Machine) phiMoves(regs []Value, e *ir.Edge) {
	switch len(e.Moves) {
	case 0:
	case 1:
		mv := &e.Moves[0]
		for k := int32(0); k < mv.N; k++ {
			regs[mv.Dst+k] = get(regs, offset(mv.Src, k))
		}
	default:
		tmp := m.argBuf[:0]
		for _, mv := range e.Moves {
			for k := int32(0); k < mv.N; k++ {
				tmp = append(tmp, get(regs, offset(mv.Src, k)))
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
}
