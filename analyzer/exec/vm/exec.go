package vm

import (
	"math"
	"unsafe"

	"augur/analyzer/frontend/ir"
)

// budgetCheckEvery is how many instructions run between wall-clock checks.
const budgetCheckEvery = 1 << 16

// timeSlice is how many instructions a thread runs after being scheduled,
// without reaching a preemption point, before the scheduler takes the
// processor from it: without it a thread spinning on a plain variable
// would starve the thread that is to set it. It counts the thread's own
// instructions (Thread.count), so the point is the same in a forked
// execution and in a replay from the start. It is long enough that a
// thread's ordinary computation between synchronizations runs in one slice
// (each extra preemption multiplies the interleavings, and the states the
// weak memory model explores: 1<<17 made the lost-update benchmark's weak
// classification 10x slower) and short enough that a spin lets the others
// run within milliseconds.
const timeSlice = 1 << 20

// sliceEnd is the global instruction count at which t's time slice ends.
func (m *Machine) sliceEnd(t *Thread) uint64 {
	used := t.count - t.sliceBase // before this run of exec
	if t.sliceBase > t.count {
		used = 0 // renewed inside exec, not yet counted
	}
	if used >= timeSlice {
		return m.sliceStart + 1
	}
	return m.sliceStart + (timeSlice - used)
}

// get reads an operand: every operand is a slot of the frame (constants
// included, see ir.Operand).
func get(regs []Value, o ir.Operand) Value { return regs[o] }

// A stepEnd is how an instruction leaves the thread that ran it, and how a
// slice (exec) ends.
type stepEnd uint8

const (
	// stepNext: the thread goes on with its next instruction.
	stepNext stepEnd = iota
	// stepSwitch: a preemption point, a blocked call or the thread's exit;
	// the policy picks the thread that runs next.
	stepSwitch
	// stepPause: the state stopped where its owner asked (StopBefore) or
	// after a fork (Config.PauseAtFork); Run resumes it.
	stepPause
	// stepTerm: the execution terminated.
	stepTerm
)

// ended turns an error from the interpreter's helpers into how the step
// ends: errPaused, returned from deep inside (a fork of a symbolic branch or
// a weak read), pauses; anything else terminates.
func ended(err error) (stepEnd, *Termination) {
	if err == errPaused {
		return stepPause, nil
	}
	return stepTerm, termOf(err)
}

// exec runs thread t until its slice ends (see stepEnd); the Termination is
// set when it ends with stepTerm. It runs execIn compiled for the
// machine's register mode: without a symbolic state no register holds an
// expression (see regMode).
func (m *Machine) exec(t *Thread) (stepEnd, *Termination) {
	if m.sym == nil {
		return execIn[concreteRegs](m, t)
	}
	return execIn[symbolicRegs](m, t)
}

// execIn is exec for register mode M.
//
// exec is the interpreter's hot loop and longer than the functions around
// it for that reason. It runs the function's compact form (ir.Code: 32
// bytes an instruction, its operation specialized at lowering, so one
// dispatch decides what to do): the instructions that dominate every
// program (integer arithmetic and comparisons, concrete loads and stores
// to live objects, address arithmetic, branches and their phi moves,
// casts, double arithmetic) run inline on locals. The less common
// operations run in computeInline, and everything else, including every
// symbolic or checked variant of those, goes through step on the full
// ir.Inst, which is the reference semantics. A fast path that does not
// apply falls through to step rather than handling the case itself, so
// each instruction's full meaning is written once.
//
// The loop's state (the frame, its code and registers as pointers to
// their first element, pc, and left, the instructions left before the
// next count at which anything but the next instruction matters) lives in
// locals, and no call lies on the way of an inline instruction: every
// call the loop makes (step, computeInline, a call or return, the
// monitor, limitReached) stores pc and the instruction count back first
// (fr.pc, m.insts), reloads the state from the thread after it (reload),
// and goes back to the loop's head rather than into the inline paths'
// labels. Go keeps no register across a call, so a value live across any
// call in the loop is spilled to the stack wherever it is set, on every
// instruction, and so is a value of a label that a reloaded state
// reaches; with neither, the inline paths keep more of it in registers.
// The code and registers are pointers, not slices (topp), for the same
// reason: two lengths fewer to keep, and no bounds check on each operand,
// which lowering makes a slot of the frame by construction. Every other check
// (budget, time slice, stop point) is folded into the limit
// (execLimits.at) and made in limitReached. A thread that is to stop at a
// location runs stepwise (execStepwise), which checks every instruction.
func execIn[M regMode](m *Machine, t *Thread) (stepEnd, *Termination) {
	if t.status != runnable || len(t.frames) == 0 {
		return stepSwitch, nil
	}
	if m.pendingFail != nil { // a fork made to take a failing alternative
		err := m.pendingFail
		m.pendingFail = nil
		return ended(err)
	}
	m.run = execLimits{sliceAt: m.sliceEnd(t), stopAt: ^uint64(0)}
	if m.stop != nil && m.stop.Thread == t.ID {
		if m.stop.Loc != 0 {
			return m.execStepwise(t)
		}
		m.run.stopAt = m.sliceStart + (m.stop.Count - min(m.stop.Count, t.count)) + 1
	}
	// Loads and stores run inline unless every access must go through
	// step: access preemption and the weak memory model need that. (A
	// monitor sees accesses from both; a focus location goes through step.)
	m.run.raw = !m.cfg.PreemptAccesses && m.weak == nil
	m.run.plain = m.run.raw && len(m.focus) == 0
	fr, cp, rp, pc := topp(t)
	left := m.run.reset(m.insts, m.nextCheck)
	var (
		c    *ir.Code // the instruction at pc
		cond bool     // an integer comparison's result (compared)
		addr uint64   // a GEP's result (address), a raw access's address (load, store)
		obj  *Object  // the object a raw access read or wrote (monitored)
		off  uint64   // and the offset in it
	)
	for {
		c = codeAt(cp, pc)
		left--
		if left <= 0 {
			l, end, term := m.limitReached(t, fr, pc, m.run.count(left))
			if end != stepNext {
				return end, term
			}
			fr, cp, rp, pc = topp(t)
			m.run.at, left = l, int64(l)-int64(m.insts)
			c = codeAt(cp, pc)
		}
		switch c.Op & ir.MaxCodeOp {
		case ir.CodeStep, ir.MaxCodeOp: // listed so that the jump table covers 0 to MaxCodeOp: no range check
			goto slow
		case ir.CodeAdd:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), (a+b)&c.K)
				goto advance
			}
		case ir.CodeSub:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), (a-b)&c.K)
				goto advance
			}
		case ir.CodeMul:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), (a*b)&c.K)
				goto advance
			}
		case ir.CodeAnd:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), (a&b)&c.K)
				goto advance
			}
		case ir.CodeOr:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), (a|b)&c.K)
				goto advance
			}
		case ir.CodeXor:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), (a^b)&c.K)
				goto advance
			}
		case ir.CodeShl: // a shift by the width or more gives 0, as ir.EvalBin
			if a, b, ok := concrete2[M](rp, c); ok {
				var r uint64
				if b < uint64(c.W) {
					r = a << b & c.K
				}
				setReg[M](reg(rp, c.Dst), r)
				goto advance
			}
		case ir.CodeLShr:
			if a, b, ok := concrete2[M](rp, c); ok {
				var r uint64
				if b < uint64(c.W) {
					r = a >> b & c.K
				}
				setReg[M](reg(rp, c.Dst), r)
				goto advance
			}
		case ir.CodeAShr:
			if a, b, ok := concrete2[M](rp, c); ok {
				s := sextShift(c.W)
				b = min(b, uint64(c.W)-1)
				setReg[M](reg(rp, c.Dst), uint64(int64(a<<s)>>s>>b)&c.K)
				goto advance
			}
		case ir.CodeUDiv:
			if a, b, ok := concrete2[M](rp, c); ok && b != 0 {
				setReg[M](reg(rp, c.Dst), a/b)
				goto advance
			}
		case ir.CodeURem:
			if a, b, ok := concrete2[M](rp, c); ok && b != 0 {
				setReg[M](reg(rp, c.Dst), a%b)
				goto advance
			}
		case ir.CodeSDiv, ir.CodeSRem:
			// A division by zero or of the least integer by -1 runs in
			// step, which reports it.
			if a, b, ok := concrete2[M](rp, c); ok {
				s := sextShift(c.W)
				sa, sb := int64(a<<s)>>s, int64(b<<s)>>s
				if sb == 0 || sb == -1 && sa == -1<<(c.W-1) {
					break
				}
				r := sa / sb
				if c.Op == ir.CodeSRem {
					r = sa % sb
				}
				setReg[M](reg(rp, c.Dst), uint64(r)&c.K)
				goto advance
			}
		case ir.CodeEQ:
			if a, b, ok := concrete2[M](rp, c); ok {
				cond = a == b
				goto compared
			}
		case ir.CodeNE:
			if a, b, ok := concrete2[M](rp, c); ok {
				cond = a != b
				goto compared
			}
		case ir.CodeULT:
			if a, b, ok := concrete2[M](rp, c); ok {
				cond = a < b
				goto compared
			}
		case ir.CodeSLT:
			if a, b, ok := concrete2[M](rp, c); ok {
				s := sextShift(c.W)
				cond = int64(a<<s)>>s < int64(b<<s)>>s
				goto compared
			}
		case ir.CodeSGT:
			if a, b, ok := concrete2[M](rp, c); ok {
				s := sextShift(c.W)
				cond = int64(a<<s)>>s > int64(b<<s)>>s
				goto compared
			}
		case ir.CodeLoad:
			if av := reg(rp, c.A); concrete1[M](av) {
				addr = av.Bits
				goto load
			}
		case ir.CodeStore:
			if av, v := reg(rp, c.B), reg(rp, c.A); concrete[M](av, v) {
				addr = av.Bits
				goto store
			}
		case ir.CodeGEP1:
			if a, b := reg(rp, c.A), reg(rp, c.B); concrete[M](a, b) {
				s := sextShift(c.W)
				addr = a.Bits + c.K + uint64(int64(b.Bits<<s)>>s*int64(c.C))
				goto address
			}
		case ir.CodeGEP0:
			if a := reg(rp, c.A); concrete1[M](a) {
				addr = a.Bits + c.K
				goto address
			}
		case ir.CodeGEP2:
			if a, i, j := reg(rp, c.A), reg(rp, c.B), reg(rp, c.C); concrete[M](a, i) && concrete1[M](j) {
				s, u := sextShift(c.Sub), sextShift(c.W)
				addr = a.Bits + uint64(int64(int32(c.K))) + uint64(int64(i.Bits<<s)>>s*int64(c.X)) +
					uint64(int64(j.Bits<<u)>>u*int64(int32(c.K>>32)))
				goto address
			}
		case ir.CodeGEP:
			// frameRegs twice, not once into a local: the local's three
			// words changed the loop's register allocation, 0.5% more
			// instructions on every program.
			in := &fr.fn.Insts[pc]
			if !symbolic[M]() || !gepSymbolic(in, frameRegs(t, fr)) {
				addr = gep(in, frameRegs(t, fr))
				goto address
			}
		case ir.CodeJump:
			pc = int(c.K)
			continue
		case ir.CodeBr1:
			copyReg[M](reg(rp, c.A), reg(rp, c.B))
			pc = int(c.K)
			continue
		case ir.CodeBr2:
			copyReg[M](reg(rp, c.A), reg(rp, c.B))
			copyReg[M](reg(rp, c.C), reg(rp, c.X))
			pc = int(c.K)
			continue
		case ir.CodeBr:
			if e := &fr.fn.Insts[pc].Targets[0]; !e.Parallel {
				moves[M](rp, e)
				pc = e.PC
				continue
			}
		case ir.CodeIf:
			if cv := reg(rp, c.A); concrete1[M](cv) {
				pc = ifTarget(c, cv.Bits&1 != 0)
				continue
			}
		case ir.CodeCondBr:
			if cv := reg(rp, c.A); concrete1[M](cv) {
				if e := &fr.fn.Insts[pc].Targets[1-cv.Bits&1]; !e.Parallel {
					moves[M](rp, e)
					pc = e.PC
					continue
				}
			}
		case ir.CodeMask:
			if sv := reg(rp, c.A); concrete1[M](sv) {
				setReg[M](reg(rp, c.Dst), sv.Bits&c.K)
				goto advance
			}
		case ir.CodeSExt:
			if sv := reg(rp, c.A); concrete1[M](sv) {
				s := sextShift(c.W)
				setReg[M](reg(rp, c.Dst), uint64(int64(sv.Bits<<s)>>s)&c.K)
				goto advance
			}
		case ir.CodeMove1:
			copyReg[M](reg(rp, c.Dst), reg(rp, c.A))
			pc++
			continue
		case ir.CodeMove:
			for k := int32(0); k < fr.fn.Insts[pc].N; k++ {
				copyReg[M](reg(rp, c.Dst+k*ir.SlotBytes), reg(rp, c.A+ir.Operand(k*ir.SlotBytes)))
			}
			pc++
			continue
		case ir.CodeFAddD:
			// Double arithmetic, most of a numeric program's, runs here
			// without floatBin's conversions and second dispatch.
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), math.Float64bits(math.Float64frombits(a)+math.Float64frombits(b)))
				goto advance
			}
		case ir.CodeFSubD:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), math.Float64bits(math.Float64frombits(a)-math.Float64frombits(b)))
				goto advance
			}
		case ir.CodeFMulD:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), math.Float64bits(math.Float64frombits(a)*math.Float64frombits(b)))
				goto advance
			}
		case ir.CodeFDivD:
			if a, b, ok := concrete2[M](rp, c); ok {
				setReg[M](reg(rp, c.Dst), math.Float64bits(math.Float64frombits(a)/math.Float64frombits(b)))
				goto advance
			}
		case ir.CodeFMulAddD:
			if a, b, ok := concrete2[M](rp, c); ok && concrete1[M](reg(rp, c.C)) {
				// Rounded after the multiplication, as x86-64 code
				// compiled without FMA: the conversion keeps Go from
				// fusing the two.
				p := float64(math.Float64frombits(a) * math.Float64frombits(b))
				setReg[M](reg(rp, c.Dst), math.Float64bits(p+math.Float64frombits(reg(rp, c.C).Bits)))
				goto advance
			}
		case ir.CodeFNegD:
			if av := reg(rp, c.A); concrete1[M](av) {
				setReg[M](reg(rp, c.Dst), math.Float64bits(-math.Float64frombits(av.Bits)))
				goto advance
			}
		case ir.CodeSIToFPD:
			if av := reg(rp, c.A); concrete1[M](av) {
				s := sextShift(c.W)
				setReg[M](reg(rp, c.Dst), math.Float64bits(float64(int64(av.Bits<<s)>>s)))
				goto advance
			}
		case ir.CodeFPToSID:
			if av := reg(rp, c.A); concrete1[M](av) {
				setReg[M](reg(rp, c.Dst), uint64(fpToInt(math.Float64frombits(av.Bits), uint16(c.W)))&c.K)
				goto advance
			}
		case ir.CodeBin, ir.CodeICmp, ir.CodeCast, ir.CodeFBin, ir.CodeFNeg, ir.CodeFCmp, ir.CodeCallFD:
			m.insts, fr.pc = m.run.count(left), pc
			ok := m.computeInline(c, &fr.fn.Insts[pc], frameRegs(t, fr))
			fr, cp, rp, pc = topp(t)
			left = m.run.reset(m.insts, m.nextCheck)
			if !ok {
				goto slow
			}
			// The next instruction runs in a dispatch of its own, even
			// if paired: going on to compared or advance from here would
			// make the fast paths' state merge with this reloaded one,
			// and Go's register allocator then spills the loop's state
			// on every instruction.
			pc++
			continue
		case ir.CodeCall:
			// A direct call of a function with a body, and a return to a
			// caller, change frames without step.
			in := &fr.fn.Insts[pc]
			m.insts, fr.pc = m.run.count(left), pc
			if err := m.enter(t, in.Callee, in, frameRegs(t, fr)); err != nil {
				return ended(err)
			}
			goto reload
		case ir.CodeRet:
			if len(t.frames) < 2 {
				break // the thread's exit: step switches threads
			}
			m.insts, fr.pc = m.run.count(left), pc
			if _, err := m.ret(t, &fr.fn.Insts[pc], frameRegs(t, fr)); err != nil {
				return ended(err)
			}
			goto reload
		}
	slow:
		m.insts, fr.pc = m.run.count(left), pc
		if end, term := m.step(t, fr, &fr.fn.Insts[pc], frameRegs(t, fr)); end != stepNext {
			return end, term
		}
	reload:
		// After a call, the state is the thread's (see above).
		fr, cp, rp, pc = topp(t)
		left = m.run.reset(m.insts, m.nextCheck) // a call may have asked for a check (charge)
		continue
	address:
		// A GEP's address, and the raw load or store of it paired with it
		// (Inst.Pair), which runs in the same dispatch.
		setReg[M](reg(rp, c.Dst), addr)
		pc++
		if !c.Pair || left <= 1 {
			continue
		}
		c = codeAt(cp, pc)
		left--
		if c.Op == ir.CodeLoad {
			goto load
		}
		if !concrete1[M](reg(rp, c.A)) {
			goto slow
		}
	store:
		// c is a raw store of its operand A to addr, at pc (counted in
		// left). It runs here when accesses may run inline
		// (execLimits.raw), its location is not a focus, and it writes a
		// live object of this state's own (not shared with a fork)
		// without symbolic bytes, within its write limit:
		// Memory.resolve's checks, without its error reports, which step
		// makes.
		if !m.run.plain && (!m.run.raw || m.focused(fr.fn.LocAt(pc))) {
			goto slow
		}
		obj = m.mem.cached(uint32(addr >> ir.AddrShift))
		if obj == nil || obj.gen != m.mem.gen || symBytes[M](obj) {
			goto slow
		}
		off = addr & (1<<ir.AddrShift - 1)
		if off+uint64(c.W) > obj.writeLimit {
			goto slow
		}
		storeWord(obj, off, c.K, reg(rp, c.A).Bits)
		if m.mon != nil && obj.quiet != t.mark && !m.allQuiet {
			goto monitored
		}
		goto advance
	load:
		// c is a raw load from addr, at pc (counted in left), run here as
		// a store is (the object may be shared, within its read limit).
		if !m.run.plain && (!m.run.raw || m.focused(fr.fn.LocAt(pc))) {
			goto slow
		}
		obj = m.mem.cached(uint32(addr >> ir.AddrShift))
		if obj == nil || symBytes[M](obj) {
			goto slow
		}
		off = addr & (1<<ir.AddrShift - 1)
		if off+uint64(c.W) > obj.readLimit {
			goto slow
		}
		setReg[M](reg(rp, c.Dst), loadWord(obj, off, c.K))
		if m.mon != nil && obj.quiet != t.mark && !m.allQuiet {
			goto monitored
		}
		pc++
		continue
	monitored:
		// The monitor sees the raw access c just made, with the frame's pc
		// on it; the thread goes on with the next instruction.
		m.insts, fr.pc = m.run.count(left), pc
		m.monitorRaw(t, fr, c, obj, off)
		fr, cp, rp, pc = topp(t)
		left = m.run.reset(m.insts, m.nextCheck)
		pc++ // a paired branch runs alone, as after computeInline
		continue
	compared:
		// An integer comparison's result, and the conditional branch
		// paired with it (Inst.Pair) taken in the same dispatch.
		setReg[M](reg(rp, c.Dst), b2u(cond))
		pc++
		if !c.Pair || left <= 1 {
			continue
		}
		left--
		if br := codeAt(cp, pc); br.Op == ir.CodeIf {
			pc = ifTarget(br, cond)
			continue
		}
		if e := &fr.fn.Insts[pc].Targets[1-b2u(cond)]; !e.Parallel {
			moves[M](rp, e)
			pc = e.PC
			continue
		}
		goto slow
	advance:
		// An instruction run inline goes on with the next one, and takes
		// the unconditional branch paired with it (Inst.Pair) in the same
		// dispatch.
		pc++
		if !c.Pair || left <= 1 {
			continue
		}
		left--
		if br := codeAt(cp, pc); br.Op == ir.CodeJump {
			pc = int(br.K)
			continue
		} else if br.Op == ir.CodeBr1 {
			// As in the switch above, written out: one helper for
			// both branches and both places (one case, a test of Op
			// for the second move) cost 4 to 11% more instructions on
			// every benchmark program, through the loop's registers.
			copyReg[M](reg(rp, br.A), reg(rp, br.B))
			pc = int(br.K)
			continue
		} else if br.Op == ir.CodeBr2 {
			copyReg[M](reg(rp, br.A), reg(rp, br.B))
			copyReg[M](reg(rp, br.C), reg(rp, br.X))
			pc = int(br.K)
			continue
		}
		if e := &fr.fn.Insts[pc].Targets[0]; !e.Parallel {
			moves[M](rp, e)
			pc = e.PC
			continue
		}
		goto slow
	}
}

// computeInline runs an operation of the compact form that exec does not run
// inline (integer division, other compares, casts, other float
// operations, calls of pure functions of doubles) on concrete operands,
// writing its result. It reports false, having done nothing, when the
// instruction needs step: a symbolic operand, a fault (division by zero)
// that step reports, or a callee without a pure model.
func (m *Machine) computeInline(c *ir.Code, in *ir.Inst, regs []Value) bool {
	a := regs[slot(c.A)]
	if a.Sym != nil {
		return false
	}
	binary := c.Op != ir.CodeCast && c.Op != ir.CodeFNeg
	if binary && regs[slot(c.B)].Sym != nil {
		return false
	}
	b := regs[slot(c.B)].Bits
	var r uint64
	switch c.Op {
	case ir.CodeBin:
		v, ok := ir.EvalBin(c.Sub, a.Bits, b, uint16(c.W))
		if !ok {
			return false
		}
		r = v & c.K
	case ir.CodeICmp:
		r = b2u(icmp(c.Sub, a.Bits, b, uint16(c.W)))
	case ir.CodeCast:
		r = cast(in.Sub, a.Bits, in.Src, in.Ty)
	case ir.CodeFBin:
		if in.Sub == ir.FMulAdd && regs[slot(c.C)].Sym != nil {
			return false
		}
		r = floatBin(in, a.Bits, b, regs[slot(c.C)].Bits)
	case ir.CodeFNeg:
		r = fneg(a.Bits, in.Ty.Kind)
	case ir.CodeFCmp:
		k := in.Src.Kind
		r = b2u(fcmp(in.Sub, FloatOf(a.Bits, k), FloatOf(b, k)))
	case ir.CodeCallFD:
		// What step's call does for such a model, without its argument
		// and result buffers: the model touches nothing but its result.
		md := m.natives[c.K]
		switch {
		case md == nil:
			return false
		case c.W == 1 && md.float1 != nil:
			r = math.Float64bits(md.float1(math.Float64frombits(a.Bits)))
		case c.W == 2 && md.float2 != nil:
			r = math.Float64bits(md.float2(math.Float64frombits(a.Bits), math.Float64frombits(b)))
		default:
			return false
		}
	default:
		return false
	}
	regs[slot(c.Dst)] = Value{Bits: r}
	return true
}

// monitorRaw tells the monitor of the raw access c at the frame's pc
// made, to offset off of o; the thread's count at it is m.insts.
func (m *Machine) monitorRaw(t *Thread, fr *frame, c *ir.Code, o *Object, off uint64) {
	if m.rawMon != nil {
		m.rawMon.RawAccess(t.ID, fr.fn.LocAt(fr.pc), o, off)
		return
	}
	if !m.monitors(t) {
		return
	}
	kind := Read
	if c.Op == ir.CodeStore {
		kind = Write
	}
	m.acc.fill(t.ID, o, off, uint64(c.W), kind, 0, Site{fr.fn.LocAt(fr.pc), m.stackOf(t, len(t.frames)-1)},
		t.count+(m.insts-1-m.sliceStart))
	m.mon.Access(&m.acc)
}

// ifTarget is where a CodeIf goes on cond.
func ifTarget(c *ir.Code, cond bool) int {
	if cond {
		return int(c.K >> 32)
	}
	return int(uint32(c.K))
}

// execLimits are the instruction counts at which the running thread's
// slice ends and at which it reaches its stop point (StopBefore with a
// count), and whether its raw loads and stores may run inline: exec's
// state outside its loop.
type execLimits struct {
	sliceAt, stopAt uint64
	raw             bool
	// plain is raw with no focus location: a raw access then runs inline
	// without looking at its location.
	plain bool
	// at is the limit exec runs to: it counts the instructions left
	// before it rather than the instructions run, which keeps one value
	// live in its loop instead of two (count makes the count of them).
	at uint64
}

// reset sets the limit exec runs to for the instruction count n and the
// next budget check, and returns how many instructions are left before it
// (none or fewer when it is already reached).
func (l *execLimits) reset(n, nextCheck uint64) int64 {
	l.at = l.limit(nextCheck)
	return int64(l.at) - int64(n)
}

// count is the instruction count when left instructions are left before
// the limit.
func (l *execLimits) count(left int64) uint64 { return uint64(int64(l.at) - left) }

// limit is the count at which exec must leave its fast path next, given
// the next budget check.
func (l *execLimits) limit(nextCheck uint64) uint64 {
	return min(nextCheck, l.stopAt, l.sliceAt)
}

// limitReached is exec's check when the instruction count n reaches its
// limit, before the instruction at pc runs: the stop point, the budget and
// the time slice. It returns the next limit with stepNext, or how exec
// ends.
func (m *Machine) limitReached(t *Thread, fr *frame, pc int, n uint64) (uint64, stepEnd, *Termination) {
	if n >= m.run.stopAt { // reached the stop point: before executing pc
		m.insts, fr.pc = n-1, pc
		m.atStop = true
		return 0, stepPause, nil
	}
	m.insts, fr.pc = n, pc
	if err := m.checkBudget(); err != nil {
		end, term := ended(err)
		return 0, end, term
	}
	if n >= m.run.sliceAt {
		if m.othersCanRun(t) {
			// The thread ran a whole time slice without reaching a
			// preemption point (a spin on a plain variable): it is
			// preempted, as an operating system would, before pc.
			m.insts, m.sliceEnded = n-1, true
			return 0, stepSwitch, nil
		}
		t.sliceBase = t.count + (n - 1 - m.sliceStart) // alone: a new slice
		m.run.sliceAt = n - 1 + timeSlice
	}
	return m.run.limit(m.nextCheck), stepNext, nil
}

// execStepwise is exec for a thread that is to stop before it executes an
// instruction at m.stop.Loc (classification runs a thread up to its racing
// access this way): every instruction is checked against the stop and run
// through step.
func (m *Machine) execStepwise(t *Thread) (stepEnd, *Termination) {
	fr, _, regs, pc := top(t)
	n, limit := m.insts, m.run.limit(m.nextCheck)
	for {
		in := &fr.fn.Insts[pc]
		n++
		if in.Loc == m.stop.Loc && t.count+(n-1-m.sliceStart) >= m.stop.Count {
			m.insts, fr.pc = n-1, pc
			m.atStop = true
			return stepPause, nil
		}
		if n >= limit { // the next limit is taken after the step
			if _, end, term := m.limitReached(t, fr, pc, n); end != stepNext {
				return end, term
			}
		}
		m.insts, fr.pc = n, pc
		if end, term := m.step(t, fr, in, regs); end != stepNext {
			return end, term
		}
		fr, _, regs, pc = top(t)
		n = m.insts
		limit = m.run.limit(m.nextCheck)
	}
}

func offset(o ir.Operand, k int32) ir.Operand { return o + ir.Operand(k) }

// focused reports whether accesses at loc are preemption points
// (Config.PreemptAt): those go through step, which may switch threads.
func (m *Machine) focused(loc ir.LocID) bool {
	return int(loc) < len(m.focus) && m.focus[loc]
}

// gep computes a concrete address: base + offset + sum(sext(index)*scale).
// It is written to stay within Go's inlining budget, so that exec's GEPs
// make no call: the sign extension is bitvec.SExt's, by shifts.
func gep(in *ir.Inst, regs []Value) uint64 {
	addr := regs[in.A].Bits + uint64(in.Imm)
	for i := range in.Terms {
		term := &in.Terms[i]
		var s uint8
		if term.Width < 64 {
			s = 64 - term.Width
		}
		addr += uint64(int64(regs[term.Index].Bits<<s) >> s * term.Scale)
	}
	return addr
}

// topp is top for exec: the code and registers as pointers to their
// first element (codeAt, reg), which keeps two lengths out of the loop's
// registers and the bounds checks out of every operand read. Lowering
// makes every pc a function's instruction and every operand a slot of its
// frame (ir.Function.FrameSize); frameRegs gives the registers as a slice
// to what exec calls.
func topp(t *Thread) (*frame, unsafe.Pointer, unsafe.Pointer, int) {
	fr := &t.frames[len(t.frames)-1]
	// The frame's registers start at its base, inside t.regs (newFrame),
	// so the pointer needs neither frameRegs's bounds checks nor its
	// function's frame size. Every reload of exec's state takes this
	// path; without those checks Go also allocates exec's registers
	// better (one store left at the loop's head, not two), 4 to 6% fewer
	// instructions in all. Passing callees a slice made from rp instead
	// of frameRegs cost 1 to 2% more: regalloc again.
	rp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.regs)), uintptr(fr.base)*unsafe.Sizeof(Value{}))
	return fr, unsafe.Pointer(unsafe.SliceData(fr.fn.Code())), rp, fr.pc
}

// codeAt is the compact instruction at pc of the code at cp (topp).
func codeAt(cp unsafe.Pointer, pc int) *ir.Code {
	return (*ir.Code)(unsafe.Add(cp, uintptr(pc)*unsafe.Sizeof(ir.Code{})))
}

// reg is the register at byte offset o (a compact operand, see
// ir.SlotBytes) of the registers at rp (topp).
func reg[O ~int32](rp unsafe.Pointer, o O) *Value {
	return (*Value)(unsafe.Add(rp, uintptr(o)))
}

// slot is the register index of a compact operand.
func slot[O ~int32](o O) int { return int(o) / ir.SlotBytes }

// The compact form's operands are offsets of registers ir.SlotBytes
// apart: a Value must be that size, no more and no less.
var (
	_ [unsafe.Sizeof(Value{}) - ir.SlotBytes]struct{}
	_ [ir.SlotBytes - unsafe.Sizeof(Value{})]struct{}
)

// frameRegs is the top frame fr's registers.
func frameRegs(t *Thread, fr *frame) []Value { return t.regs[fr.base : fr.base+fr.fn.FrameSize] }

// top returns the top frame of t with its compact code, registers and pc.
func top(t *Thread) (*frame, []ir.Code, []Value, int) {
	fr := &t.frames[len(t.frames)-1]
	return fr, fr.fn.Code(), frameRegs(t, fr), fr.pc
}

// jump takes the unconditional branch in and returns where it goes.
func (m *Machine) jump(regs []Value, in *ir.Inst) int {
	e := &in.Targets[0]
	if len(e.Moves) > 0 {
		m.phiMoves(regs, e)
	}
	return e.PC
}

// phiMoves performs the phi assignments of a branch edge, in parallel:
// one after another in their order (moves, which exec inlines) unless the
// edge is Parallel (see ir.Edge).
func (m *Machine) phiMoves(regs []Value, e *ir.Edge) {
	if e.Parallel {
		m.parallelMoves(regs, e)
		return
	}
	moves[symbolicRegs](unsafe.Pointer(unsafe.SliceData(regs)), e)
}

// parallelMoves makes a Parallel edge's moves through a temporary copy.
func (m *Machine) parallelMoves(regs []Value, e *ir.Edge) {
	tmp := m.argBuf[:0]
	for _, mv := range e.Moves {
		tmp = append(tmp, regs[mv.Src])
	}
	for i, mv := range e.Moves {
		regs[mv.Dst] = tmp[i]
	}
	m.argBuf = tmp[:0]
}

// sextShift is the shift that sign-extends a w-bit value in a 64-bit word
// (w from 1 to 64): up by it, then arithmetically down. The mask tells Go
// the shift is below 64, so it emits no code for a larger one.
func sextShift(w uint8) uint8 { return (64 - w) & 63 }
