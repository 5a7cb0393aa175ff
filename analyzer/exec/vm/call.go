package vm

import (
	"errors"
	"fmt"

	"augur/analyzer/frontend/ir"
)

// A Native is the Go model of an external function or intrinsic. It reads its
// flattened arguments and writes its results into res (empty for void). It
// returns nil when done, or one of the control errors below, or a
// termination.
type Native func(m *Machine, t *Thread, in *ir.Inst, args []Value, res []Value) error

var (
	// errYield: the call completed and is a preemption point.
	errYield = errors.New("yield")
	// errBlock: the thread cannot proceed; the call is retried when it runs
	// again. Always a preemption point.
	errBlock = errors.New("block")
	// errExited: the thread ended inside the call (pthread_exit).
	errExited = errors.New("exited")
	// errPushed: the native entered a program function on this thread; the
	// call completes when that function returns.
	errPushed = errors.New("pushed")
	// errJumped: the native moved the thread to another instruction and
	// frame (longjmp); it set the program counter itself.
	errJumped = errors.New("jumped")
	// errJumpedSwitch: errJumped at a preemption point (an exception left
	// a pthread_once routine, whose control other threads may now take).
	errJumpedSwitch = errors.New("jumped, then switch")
)

// call executes a call instruction: it enters a program function, or runs
// the function's model and turns how the model ended into how the step
// ends. This is the one place the models' control errors are read.
func (m *Machine) call(t *Thread, fr *frame, in *ir.Inst, regs []Value) (stepEnd, *Termination) {
	callee := in.Callee
	if callee == nil {
		addr := get(regs, in.A).Bits
		if callee = m.funcAt(addr); callee == nil {
			return ended(terminate(TermCrash, SIGSEGV, "call through invalid function pointer 0x%x", addr))
		}
	}
	if !callee.Decl {
		if err := m.enter(t, callee, in, regs); err != nil {
			return ended(err)
		}
		return stepNext, nil
	}
	args := m.callArgs(in, regs)
	var res []Value
	if in.Dst >= 0 {
		res = regs[in.Dst : in.Dst+in.N]
	}
	model := m.natives[callee.ID]
	if (model == nil || !model.Local && !model.Prints) && m.OrderOpen() {
		m.NoteUnordered("it called " + callee.Name)
	}
	if m.hang != nil && (model == nil || !idleModels[model.Name]) {
		m.noteProgress("it called " + callee.Name)
	}
	if model == nil {
		if err := m.callUndefined(t, in, callee, res); err != nil {
			return ended(err)
		}
		fr.pc++
		return stepNext, nil
	}
	if m.sym != nil && !model.Symbolic {
		if model.Sync != NoSync {
			if err := m.forkSyncPointers(args, in.ArgTys); err != nil {
				return ended(err)
			}
		}
		if allocators[model.Name] {
			if err := m.forkSizes(args, in.ArgTys); err != nil {
				return ended(err)
			}
		}
		if err := m.concreteArgs(args, in.ArgTys); err != nil {
			return ended(err)
		}
	}
	m.callLoc = in.Loc
	err := model.fn(m, t, in, args, res)
	if len(res) == 1 && in.Mask != 0 && res[0].Sym == nil {
		// A model sets a result as 64 bits (-1 as all ones); an int's
		// register holds only its own width's.
		res[0].Bits &= in.Mask
	}
	switch err {
	case nil:
		fr.pc++
		return stepNext, nil
	case errYield:
		fr.pc++
		return stepSwitch, nil
	case errBlock:
		t.status = blocked
		return stepSwitch, nil
	case errExited:
		return stepSwitch, nil
	case errPushed, errJumped:
		// errPushed: fr.pc stays on the call; the pushed frame's return
		// completes it. errJumped: longjmp set the target frame's pc.
		return stepNext, nil
	case errJumpedSwitch:
		return stepSwitch, nil
	default:
		return ended(err)
	}
}

// callArgs gathers a call's arguments in a reused buffer: pushFrame copies
// them into the callee's registers, and natives use them only during the
// call.
func (m *Machine) callArgs(in *ir.Inst, regs []Value) []Value {
	args := m.callBuf[:0]
	for _, a := range in.Args {
		args = append(args, get(regs, a))
	}
	m.callBuf = args[:0]
	return args
}

// enter makes call in of callee, a function with a body: its frame goes on
// top of t's stack. exec calls it for direct calls without going through
// step; it is small enough to inline there, so that such a call makes one
// Go call (newFrame).
func (m *Machine) enter(t *Thread, callee *ir.Function, in *ir.Inst, regs []Value) error {
	_, err := m.newFrame(t, callee, in.Dst, in.Loc, 0, in, regs)
	return err
}

// dropFrames pops every frame of t, releasing their stack objects.
func (s *state) dropFrames(t *Thread) {
	for len(t.frames) > 0 {
		fr := &t.frames[len(t.frames)-1]
		for _, id := range fr.allocas {
			s.releaseAlloca(t, id)
		}
		t.frames = t.frames[:len(t.frames)-1]
	}
	t.regs = t.regs[:0]
	t.warm = warmFrame{}
}

// ret returns from the top frame. done reports that the thread has exited.
func (m *Machine) ret(t *Thread, in *ir.Inst, regs []Value) (done bool, err error) {
	fr := &t.frames[len(t.frames)-1]
	if in.N == 1 && fr.retDst >= 0 && len(t.frames) > 1 {
		// The common return, of one value to a caller, without the
		// buffer the general one copies the results through.
		v, dst := regs[in.A], fr.retDst
		if fr.holdsNothing() {
			t.popFrame(fr) // dropFrame's part that applies, without a call
		} else {
			m.dropFrame(t)
		}
		caller := &t.frames[len(t.frames)-1]
		t.regs[caller.base+int(dst)] = v
		caller.pc++
		return false, nil
	}
	var vals [4]Value
	rv := vals[:0]
	for k := int32(0); k < in.N; k++ {
		rv = append(rv, get(regs, offset(in.A, k)))
	}
	retDst := fr.retDst
	m.dropFrame(t)
	if len(t.frames) == 0 {
		if retDst != retDestructor { // a destructor's result is nothing
			t.exitVal = 0
			if len(rv) > 0 {
				t.exitVal = rv[0].Bits
			}
		}
		return m.finishExit(t)
	}
	caller := &t.frames[len(t.frames)-1]
	if retDst == -2 || retDst == -3 {
		return false, nil // the caller's pc stays: not started, or to be re-executed
	}
	if retDst >= 0 {
		copy(t.regs[caller.base+int(retDst):], rv)
	}
	caller.pc++
	return false, nil
}

// packVarargs lays out the variadic arguments of a call the way the x86-64
// ABI's overflow area holds them: 8-byte slots, long double in 16-byte
// aligned slots. va_start points va_arg at this object with the register
// save area marked exhausted, so clang's inline va_arg code reads them here.
func (st *state) packVarargs(t *Thread, args []Value, tys []ir.Scalar) (uint32, error) {
	size := uint64(0)
	for i := range args {
		if i < len(tys) && tys[i].Kind == ir.KF80 {
			size = (size+15)&^15 + 16
		} else {
			size += 8
		}
	}
	o := st.mem.alloc(ObjVarargs, size, "variadic arguments", 0, t.ID)
	off := uint64(0)
	for i, a := range args {
		s := ir.Scalar{Kind: ir.KInt, Bits: 64}
		if i < len(tys) {
			s = tys[i]
		}
		if s.Kind == ir.KF80 {
			off = (off + 15) &^ 15
			ir.PutScalar(o.bytes[off:], s, a.Bits)
			off += 16
			continue
		}
		ir.PutScalar(o.bytes[off:], s, a.Bits)
		off += 8
	}
	return o.ID, nil
}

// finishExit goes on with the exit of t, which has no frame left and
// t.exitVal set: it starts the next thread-specific data destructor due
// (exited false, its frame's return comes back here), or ends the thread.
func (m *Machine) finishExit(t *Thread) (exited bool, err error) {
	if pushed, err := m.runDestructor(t); pushed || err != nil {
		return false, err
	}
	m.threadExit(t, t.exitVal)
	return true, nil
}

// threadExit ends thread t with value v and wakes its joiners.
func (m *Machine) threadExit(t *Thread, v uint64) {
	m.dropFrames(t)
	if t.status != exited {
		m.threadsExited++
	}
	t.status = exited
	if m.weak != nil {
		m.weak.ThreadExited(t.ID)
	}
	t.exitVal = v
	m.sync.wake(waitKey{kind: waitJoin, addr: uint64(t.ID)}, m)
}

// OrderOpen reports whether NoteUnordered would record a reason now: none
// is recorded yet and another thread lives. Callers on hot paths (every
// call, every write to a file) test it before they build the reason.
func (m *Machine) OrderOpen() bool { return m.unordered == "" && m.liveThreads() > 1 }

// NoteUnordered records why, something the program did that another
// thread's calls could see or change (a call of a model that is not local
// or of an undefined function; writing a file, a pipe or a memory stream),
// as what makes this execution's order matter (Result.Unordered) when
// another thread lives. Models that are not local need not call it: the
// VM records their calls before they run.
func (m *Machine) NoteUnordered(why string) {
	if m.OrderOpen() {
		m.unordered = fmt.Sprintf("%s while %d threads ran", why, m.liveThreads())
	}
}

// liveThreads counts the threads that have not exited.
func (s *state) liveThreads() int { return len(s.threads) - s.threadsExited }
