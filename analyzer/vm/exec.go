package vm

import (
	"math"

	"augur/analyzer/ir"
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
// set when it ends with stepTerm.
//
// exec is the interpreter's hot loop and longer than the functions around
// it for that reason. It runs the function's compact form (ir.Code: 32
// bytes an instruction, its operation specialized at lowering, so one
// dispatch decides what to do): the instructions that dominate every
// program (integer arithmetic and comparisons, concrete loads and stores
// to live objects, address arithmetic, branches, moves, casts, double
// arithmetic, calls) run inline on locals, and everything else, including
// every symbolic or checked variant of those, goes through step on the
// full ir.Inst, which is the reference semantics. A fast path that does
// not apply falls through to step rather than handling the case itself,
// so each instruction's full meaning is written once.
//
// The loop keeps few values live (the frame, its code and registers, pc,
// the instruction count and the next count at which anything but the next
// instruction matters, limit) so that Go keeps them in registers: every
// other check (budget, time slice, stop point) is folded into limit and
// made in limitReached, out of the loop. A thread that is to stop at a
// location runs stepwise (execStepwise), which checks every instruction.
func (m *Machine) exec(t *Thread) (stepEnd, *Termination) {
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
	// monitor sees accesses from both; a focus location is checked by
	// loadRaw and storeRaw.)
	m.run.raw = !m.cfg.PreemptAccesses && m.weak == nil
	// The current frame, its code and registers, the program counter and
	// the instruction count live in locals while the thread runs, so the hot
	// loop touches no memory but the instruction and its operands. pc and n
	// are stored back (fr.pc, m.insts) before step and before every return.
	fr, code, regs, pc := top(t)
	n, limit := m.insts, m.run.limit(m.nextCheck)
	var cond bool   // an integer comparison's result (compared)
	var addr uint64 // a GEP's result (address)
	for {
		c := &code[pc]
		n++
		if n >= limit {
			var end stepEnd
			var term *Termination
			if limit, end, term = m.limitReached(t, fr, pc, n); end != stepNext {
				return end, term
			}
		}
		switch c.Op {
		case ir.CodeAdd:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: (a + b) & c.K}
				goto advance
			}
		case ir.CodeSub:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: (a - b) & c.K}
				goto advance
			}
		case ir.CodeMul:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: (a * b) & c.K}
				goto advance
			}
		case ir.CodeAnd:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: (a & b) & c.K}
				goto advance
			}
		case ir.CodeOr:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: (a | b) & c.K}
				goto advance
			}
		case ir.CodeXor:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: (a ^ b) & c.K}
				goto advance
			}
		case ir.CodeShl: // a shift by the width or more gives 0, as ir.EvalBin
			if a, b, ok := concrete2(regs, c); ok {
				var r uint64
				if b < uint64(c.W) {
					r = a << b & c.K
				}
				regs[c.Dst] = Value{Bits: r}
				goto advance
			}
		case ir.CodeLShr:
			if a, b, ok := concrete2(regs, c); ok {
				var r uint64
				if b < uint64(c.W) {
					r = a >> b & c.K
				}
				regs[c.Dst] = Value{Bits: r}
				goto advance
			}
		case ir.CodeBin:
			if a, b, ok := concrete2(regs, c); ok {
				if r, ok := ir.EvalBin(c.Sub, a, b, uint16(c.W)); ok {
					regs[c.Dst] = Value{Bits: r & c.K}
					goto advance
				} // a division by zero or overflow: step reports it
			}
		case ir.CodeEQ:
			if a, b, ok := concrete2(regs, c); ok {
				cond = a == b
				goto compared
			}
		case ir.CodeNE:
			if a, b, ok := concrete2(regs, c); ok {
				cond = a != b
				goto compared
			}
		case ir.CodeULT:
			if a, b, ok := concrete2(regs, c); ok {
				cond = a < b
				goto compared
			}
		case ir.CodeSLT:
			if a, b, ok := concrete2(regs, c); ok {
				s := 64 - c.W
				cond = int64(a<<s)>>s < int64(b<<s)>>s
				goto compared
			}
		case ir.CodeSGT:
			if a, b, ok := concrete2(regs, c); ok {
				s := 64 - c.W
				cond = int64(a<<s)>>s > int64(b<<s)>>s
				goto compared
			}
		case ir.CodeICmp:
			if a, b, ok := concrete2(regs, c); ok {
				cond = icmp(c.Sub, a, b, uint16(c.W))
				goto compared
			}
		case ir.CodeLoad:
			av := regs[c.A]
			if av.Sym != nil {
				break
			}
			if m.loadRaw(t, fr, c, pc, av.Bits, t.count+(n-1-m.sliceStart), regs) {
				pc++
				continue
			}
		case ir.CodeStore:
			av, v := regs[c.B], regs[c.A]
			if av.Sym != nil || v.Sym != nil {
				break
			}
			if m.storeRaw(t, fr, c, pc, av.Bits, v.Bits, t.count+(n-1-m.sliceStart)) {
				goto advance
			}
		case ir.CodeGEP1:
			if m.sym == nil || !m.gepSymbolic(&fr.fn.Insts[pc], regs) {
				addr = gep1(c, regs)
				goto address
			}
		case ir.CodeGEP0:
			if m.sym == nil || !m.gepSymbolic(&fr.fn.Insts[pc], regs) {
				addr = regs[c.A].Bits + c.K
				goto address
			}
		case ir.CodeGEP:
			if m.sym == nil || !m.gepSymbolic(&fr.fn.Insts[pc], regs) {
				addr = gep(&fr.fn.Insts[pc], regs)
				goto address
			}
		case ir.CodeJump:
			pc = int(c.K)
			continue
		case ir.CodeBr:
			pc = m.jump(regs, &fr.fn.Insts[pc])
			continue
		case ir.CodeIf, ir.CodeCondBr:
			cv := regs[c.A]
			if cv.Sym != nil {
				break
			}
			if c.Op == ir.CodeIf {
				pc = ifTarget(c, cv.Bits&1 != 0)
				continue
			}
			e := &fr.fn.Insts[pc].Targets[1-cv.Bits&1]
			if len(e.Moves) > 0 {
				m.phiMoves(regs, e)
			}
			pc = e.PC
			continue
		case ir.CodeMask:
			sv := regs[c.A]
			if sv.Sym != nil {
				break
			}
			regs[c.Dst] = Value{Bits: sv.Bits & c.K}
			goto advance
		case ir.CodeSExt:
			sv := regs[c.A]
			if sv.Sym != nil {
				break
			}
			s := 64 - c.W
			regs[c.Dst] = Value{Bits: uint64(int64(sv.Bits<<s)>>s) & c.K}
			goto advance
		case ir.CodeCast:
			sv := regs[c.A]
			if sv.Sym != nil {
				break
			}
			in := &fr.fn.Insts[pc]
			regs[c.Dst] = Value{Bits: cast(in.Sub, sv.Bits, in.Src, in.Ty)}
			goto advance
		case ir.CodeMove1:
			regs[c.Dst] = regs[c.A]
			pc++
			continue
		case ir.CodeMove:
			for k := int32(0); k < fr.fn.Insts[pc].N; k++ {
				regs[c.Dst+k] = get(regs, offset(c.A, k))
			}
			pc++
			continue
		case ir.CodeFAddD:
			// Double arithmetic, most of a numeric program's, runs here
			// without floatBin's conversions and second dispatch.
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: math.Float64bits(math.Float64frombits(a) + math.Float64frombits(b))}
				goto advance
			}
		case ir.CodeFSubD:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: math.Float64bits(math.Float64frombits(a) - math.Float64frombits(b))}
				goto advance
			}
		case ir.CodeFMulD:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: math.Float64bits(math.Float64frombits(a) * math.Float64frombits(b))}
				goto advance
			}
		case ir.CodeFDivD:
			if a, b, ok := concrete2(regs, c); ok {
				regs[c.Dst] = Value{Bits: math.Float64bits(math.Float64frombits(a) / math.Float64frombits(b))}
				goto advance
			}
		case ir.CodeFMulAddD:
			if a, b, ok := concrete2(regs, c); ok && regs[c.C].Sym == nil {
				// Rounded after the multiplication, as x86-64 code
				// compiled without FMA: the conversion keeps Go from
				// fusing the two.
				p := float64(math.Float64frombits(a) * math.Float64frombits(b))
				regs[c.Dst] = Value{Bits: math.Float64bits(p + math.Float64frombits(regs[c.C].Bits))}
				goto advance
			}
		case ir.CodeFBin:
			av, bv := regs[c.A], regs[c.B]
			if av.Sym != nil || bv.Sym != nil {
				break
			}
			if c.Sub == ir.FMulAdd && regs[c.C].Sym != nil {
				break
			}
			regs[c.Dst] = Value{Bits: floatBin(&fr.fn.Insts[pc], av.Bits, bv.Bits, regs[c.C].Bits)}
			goto advance
		case ir.CodeFNeg:
			av := regs[c.A]
			if av.Sym != nil {
				break
			}
			regs[c.Dst] = Value{Bits: fneg(av.Bits, fr.fn.Insts[pc].Ty.Kind)}
			goto advance
		case ir.CodeCall:
			// A direct call of a function with a body, and a return to a
			// caller, change frames without step: the loop's locals are
			// reloaded from the new top frame.
			in := &fr.fn.Insts[pc]
			m.insts, fr.pc = n, pc
			if err := m.enter(t, in.Callee, in, regs); err != nil {
				return ended(err)
			}
			fr, code, regs, pc = top(t)
			limit = m.run.limit(m.nextCheck) // a variadic call allocates (charge)
			continue
		case ir.CodeRet:
			if len(t.frames) < 2 {
				break // the thread's exit: step switches threads
			}
			m.insts, fr.pc = n, pc
			if _, err := m.ret(t, &fr.fn.Insts[pc], regs); err != nil {
				return ended(err)
			}
			fr, code, regs, pc = top(t)
			continue
		case ir.CodeFCmp:
			av, bv := regs[c.A], regs[c.B]
			if av.Sym != nil || bv.Sym != nil {
				break
			}
			in := &fr.fn.Insts[pc]
			k := in.Src.Kind
			regs[c.Dst] = Value{Bits: b2u(fcmp(in.Sub, toFloat(av.Bits, k), toFloat(bv.Bits, k)))}
			pc++
			continue
		}
		goto slow
	address:
		// A GEP's address, and the raw load or store of it paired with it
		// (Inst.Pair), which runs in the same dispatch when its fast path
		// applies.
		regs[c.Dst] = Value{Bits: addr}
		pc++
		if c.Pair && n+1 < limit {
			nx := &code[pc]
			count := t.count + (n - m.sliceStart)
			if nx.Op == ir.CodeLoad {
				if m.loadRaw(t, fr, nx, pc, addr, count, regs) {
					n++
					pc++
				}
			} else if v := regs[nx.A]; v.Sym == nil && m.storeRaw(t, fr, nx, pc, addr, v.Bits, count) {
				n++
				pc++
			}
		}
		continue
	compared:
		// An integer comparison's result, and the conditional branch
		// paired with it (Inst.Pair) taken in the same dispatch.
		regs[c.Dst] = Value{Bits: b2u(cond)}
		if c.Pair && n+1 < limit {
			n++
			if br := &code[pc+1]; br.Op == ir.CodeIf {
				pc = ifTarget(br, cond)
				continue
			}
			e := &fr.fn.Insts[pc+1].Targets[1-b2u(cond)]
			if len(e.Moves) > 0 {
				m.phiMoves(regs, e)
			}
			pc = e.PC
			continue
		}
		pc++
		continue
	slow:
		m.insts, fr.pc = n, pc
		if end, term := m.step(t, fr, &fr.fn.Insts[pc], regs); end != stepNext {
			return end, term
		}
		fr, code, regs, pc = top(t)
		n = m.insts
		limit = m.run.limit(m.nextCheck) // a call may have asked for a check (charge)
		continue
	advance:
		// An instruction run inline goes on with the next one, and takes
		// the unconditional branch paired with it (Inst.Pair) in the same
		// dispatch.
		pc++
		if c.Pair && n+1 < limit {
			n++
			if br := &code[pc]; br.Op == ir.CodeJump {
				pc = int(br.K)
			} else {
				pc = m.jump(regs, &fr.fn.Insts[pc])
			}
		}
	}
}

// concrete2 reads an instruction's operands A and B, and reports whether
// both are concrete.
func concrete2(regs []Value, c *ir.Code) (a, b uint64, ok bool) {
	av, bv := regs[c.A], regs[c.B]
	return av.Bits, bv.Bits, av.Sym == nil && bv.Sym == nil
}

// ifTarget is where a CodeIf goes on cond.
func ifTarget(c *ir.Code, cond bool) int {
	if cond {
		return int(c.K >> 32)
	}
	return int(uint32(c.K))
}

// gep1 computes a CodeGEP1's address: A + K + sext_W(B) * C.
func gep1(c *ir.Code, regs []Value) uint64 {
	s := 64 - c.W
	return regs[c.A].Bits + c.K + uint64(int64(regs[c.B].Bits<<s)>>s*int64(c.C))
}

// execLimits are the instruction counts at which the running thread's
// slice ends and at which it reaches its stop point (StopBefore with a
// count), and whether its raw loads and stores may run inline: exec's
// state outside its loop.
type execLimits struct {
	sliceAt, stopAt uint64
	raw             bool
}

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

// loadRaw runs a raw load (c, at pc in fr's function) from a concrete
// address inline when it can: accesses may run inline (execLimits.raw),
// the load's location is not a focus, and it reads a live object without
// symbolic bytes within its read limit (Memory.resolve's checks, without
// its error reports). It reports false, having done nothing, when the load
// needs step's full semantics. count is the thread's instruction count at
// the load; a monitor sees it and the load's site (the frame's pc is
// brought up to date for it).
func (m *Machine) loadRaw(t *Thread, fr *frame, c *ir.Code, pc int, addr, count uint64, regs []Value) bool {
	if !m.run.raw || len(m.focus) > 0 && m.focused(fr.fn.Insts[pc].Loc) {
		return false
	}
	o := m.mem.cached(uint32(addr >> ir.AddrShift))
	if o == nil || o.sym != nil {
		return false
	}
	off := addr & (1<<ir.AddrShift - 1)
	if off+c.K > o.readLimit {
		return false
	}
	if m.mon != nil {
		m.monitorRaw(t, fr, pc, o, off, c.K, Read, count)
	}
	regs[c.Dst] = Value{Bits: ir.LoadLE(o.bytes[off:], int(c.K))}
	return true
}

// storeRaw runs a raw store (c) of v to a concrete address inline when it
// can, as loadRaw a load: the object must also be this state's own (not
// shared with a fork) and the access within its write limit.
func (m *Machine) storeRaw(t *Thread, fr *frame, c *ir.Code, pc int, addr, v, count uint64) bool {
	if !m.run.raw || len(m.focus) > 0 && m.focused(fr.fn.Insts[pc].Loc) {
		return false
	}
	o := m.mem.cached(uint32(addr >> ir.AddrShift))
	if o == nil || o.gen != m.mem.gen || o.sym != nil {
		return false
	}
	off := addr & (1<<ir.AddrShift - 1)
	if off+c.K > o.writeLimit {
		return false
	}
	if m.mon != nil {
		m.monitorRaw(t, fr, pc, o, off, c.K, Write, count)
	}
	ir.StoreLE(o.bytes[off:], int(c.K), v)
	return true
}

// monitorRaw tells the monitor of an access loadRaw or storeRaw makes.
func (m *Machine) monitorRaw(t *Thread, fr *frame, pc int, o *Object, off, size uint64, kind AccessKind, count uint64) {
	fr.pc = pc
	m.acc = Access{Thread: t.ID, Obj: o, Off: off, Size: size, Kind: kind, Site: Site{fr.fn.Insts[pc].Loc, fr.stack}, Count: count}
	m.mon.Access(&m.acc)
}

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

// top returns the top frame of t with its compact code, registers and pc.
func top(t *Thread) (*frame, []ir.Code, []Value, int) {
	fr := &t.frames[len(t.frames)-1]
	return fr, fr.fn.Code(), t.regs[fr.base : fr.base+fr.fn.FrameSize], fr.pc
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
// one after another in their order unless the edge is Parallel (see
// ir.Edge). It is kept out of line: inlined at exec's branch sites it
// made the loop longer and no faster (nbody, fannkuch and spectral within
// the machine's noise).
//
//go:noinline
func (m *Machine) phiMoves(regs []Value, e *ir.Edge) {
	if e.Parallel {
		m.parallelMoves(regs, e)
		return
	}
	for i := range e.Moves {
		mv := &e.Moves[i]
		regs[mv.Dst] = regs[mv.Src]
	}
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
