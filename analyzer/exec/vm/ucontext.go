package vm

import (
	"slices"

	"augur/analyzer/frontend/ir"
)

// ucontext: getcontext, makecontext, swapcontext and setcontext, which
// coroutine libraries switch stacks with. A thread's stack is its frames
// and registers: swapcontext keeps the calling thread's in a table of the
// execution and gives the thread the stack of the context it switches
// to, and makecontext's context starts with a new stack on which its
// function runs over the runtime's __augur_context_return, which resumes
// the successor context (uc_link) or exits, as glibc's __start_context
// does. The memory the program gives as the context's stack (uc_stack)
// is not used: augur's frames do not live in the program's memory.
//
// The ucontext_t holds the table entry's number in uc_mcontext's first
// two general registers (with a mark), which programs do not read.

// A context's kinds: what getcontext, makecontext and swapcontext left.
const (
	ctxHere  = iota + 1 // getcontext: a point in a live activation, resumed as longjmp resumes setjmp
	ctxMade             // makecontext: a function to start on a new stack
	ctxSaved            // swapcontext: a stack to resume
)

// ucontextEntry is a context the program made or saved.
type ucontextEntry struct {
	kind int
	here jumpTarget
	// A made context: its function, the arguments, the successor.
	fn   *ir.Function
	args []Value
	link uint64
	// A saved context: the stack, resumed at most once, and the result
	// register of the swapcontext call it resumes from.
	frames []frame
	regs   []Value
	dst    int32
}

// ucontextMark and the offset of the entry's number in a ucontext_t
// (uc_mcontext.gregs[REG_R8]; the mark is in REG_R9).
const (
	ucontextMark   = 0x7478_6563_6f75_6775 // "uguocext"
	ucontextSlot   = 40
	ucontextLinkAt = 8 // uc_link
)

func (tab *Models) addUcontext() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fr := &t.frames[len(t.frames)-1]
		e := ucontextEntry{kind: ctxHere, here: jumpTarget{thread: t.ID, depth: len(t.frames) - 1, serial: fr.serial, pc: fr.pc, dst: in.Dst}}
		if err := m.keepContext(a[0].Bits, e); err != nil {
			return err
		}
		SetResult(res, 0)
		return nil
	}, "getcontext").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fn := m.funcAt(a[1].Bits)
		if fn == nil || fn.Decl {
			return terminate(TermCrash, SIGSEGV, "makecontext: 0x%x is not a function of the program", a[1].Bits)
		}
		link, err := m.ReadUint(a[0].Bits+ucontextLinkAt, 8)
		if err != nil {
			return err
		}
		argc := int(a[2].Bits & 0xffffffff)
		args := slices.Clone(a[3:min(len(a), 3+max(argc, 0))])
		return m.keepContext(a[0].Bits, ucontextEntry{kind: ctxMade, fn: fn, args: args, link: link})
	}, "makecontext").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		to, err := m.contextAt(a[1].Bits)
		if err != nil {
			return err
		}
		if to.kind == ctxHere {
			return unsupported("swapcontext to a context getcontext saved (a stack it left): augur resumes those only with setcontext, in their own stack")
		}
		saved := ucontextEntry{kind: ctxSaved, frames: t.frames, regs: t.regs, dst: in.Dst}
		if err := m.keepContext(a[0].Bits, saved); err != nil {
			return err
		}
		t.frames, t.regs = nil, nil
		return m.resumeContext(t, to)
	}, "swapcontext").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		to, err := m.contextAt(a[0].Bits)
		if err != nil {
			return err
		}
		if to.kind == ctxHere {
			return m.resumeHere(t, to.here)
		}
		// The stack left is never resumed, but its objects stay, as a
		// native stack's memory does: the context may use them (a
		// compound literal passed to makecontext's function).
		t.frames, t.regs = nil, nil
		return m.resumeContext(t, to)
	}, "setcontext").Local()
}

// contextIndex reads the number of the table entry the ucontext_t at p
// names, and whether it names one.
func (m *Machine) contextIndex(p uint64) (uint64, bool, error) {
	n, err := m.ReadUint(p+ucontextSlot, 8)
	if err != nil {
		return 0, false, err
	}
	mark, err := m.ReadUint(p+ucontextSlot+8, 8)
	if err != nil {
		return 0, false, err
	}
	return n, mark == ucontextMark && n > 0 && n <= uint64(len(m.contexts)), nil
}

// keepContext stores e as the context of the ucontext_t at p: in the
// entry p names already, or in a new one.
func (m *Machine) keepContext(p uint64, e ucontextEntry) error {
	n, ok, err := m.contextIndex(p)
	if err != nil {
		return err
	}
	if !ok {
		m.contexts = append(m.contexts, nil)
		n = uint64(len(m.contexts))
	}
	m.contexts[n-1] = &e
	if err := m.WriteUint(p+ucontextSlot, 8, n); err != nil {
		return err
	}
	return m.WriteUint(p+ucontextSlot+8, 8, ucontextMark)
}

// contextAt returns the context of the ucontext_t at p.
func (m *Machine) contextAt(p uint64) (*ucontextEntry, error) {
	n, ok, err := m.contextIndex(p)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, terminate(TermCrash, SIGSEGV, "setcontext of a ucontext_t that getcontext, makecontext or swapcontext did not fill (%s)", m.DescribeAddr(p))
	}
	return m.contexts[n-1], nil
}

// resumeContext gives t, whose stack is empty, the stack of context e: a
// saved one where its swapcontext returns 0, or a made one's function
// starting over __augur_context_return.
func (m *Machine) resumeContext(t *Thread, e *ucontextEntry) error {
	t.warm = warmFrame{}
	if e.kind == ctxSaved {
		if e.frames == nil {
			return unsupported("setcontext to a context swapcontext saved that has been resumed already: augur resumes each saved stack once")
		}
		t.frames, t.regs = e.frames, e.regs
		e.frames, e.regs = nil, nil
		fr := &t.frames[len(t.frames)-1]
		if e.dst >= 0 {
			t.regs[fr.base+int(e.dst)] = Value{}
		}
		fr.pc++
		return errJumped
	}
	ret := m.prog.Func("__augur_context_return")
	if ret == nil || ret.Decl {
		return unsupported("makecontext: the runtime's __augur_context_return is missing")
	}
	if err := m.pushFrame(t, ret, []Value{{Bits: e.link}}, nil, -2, 0); err != nil {
		return err
	}
	if err := m.pushFrame(t, e.fn, e.args, nil, -2, 0); err != nil {
		return err
	}
	return errJumped
}

// resumeHere resumes the point getcontext saved, as longjmp resumes
// setjmp's, when its activation is still on t's stack: getcontext
// returns 0 again.
func (m *Machine) resumeHere(t *Thread, j jumpTarget) error {
	if j.thread != t.ID || j.depth >= len(t.frames) || t.frames[j.depth].serial != j.serial {
		return unsupported("setcontext to a context getcontext saved in a function that has returned, or on another stack")
	}
	return m.jumpTo(t, j, 0)
}

// forkContexts copies the contexts for a forked state: the stacks saved
// in them as a thread's are copied (cloneStack).
func forkContexts(cs []*ucontextEntry) []*ucontextEntry {
	if cs == nil {
		return nil
	}
	out := make([]*ucontextEntry, len(cs))
	for i, e := range cs {
		c := *e
		c.args = slices.Clone(e.args)
		if e.frames != nil {
			c.frames, c.regs = cloneStack(e.frames, e.regs)
		}
		out[i] = &c
	}
	return out
}
