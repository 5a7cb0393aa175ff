package vm

import (
	"fmt"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"augur/analyzer/frontend/ir"
)

// C++ exceptions. The runtime (runtime/cxx/except.cc) implements the
// Itanium C++ ABI's __cxa_* functions; unwinding is the machine's: the
// runtime's __cxa_throw calls __augur_raise, which does the personality
// routine's two phases over the interpreter's frames. Phase one looks for
// a frame whose invoke lands on a pad that catches the exception; if none
// does, __augur_raise returns and the runtime terminates the program as
// an uncaught exception does, without unwinding. Phase two pops frames up
// to the first invoke with a landing pad (a cleanup or the handler) and
// jumps there; a cleanup pad ends in resume, which goes on from its caller.
// Catch clauses match by the type_info objects of the Itanium ABI: the
// same type, a public base class, or a pointer to one.

// excState is the exception a thread is unwinding with.
type excState struct {
	obj, tinfo uint64
	sel        int64  // the landing pad's selector
	adjusted   uint64 // what __cxa_begin_catch returns for the handler
}

// Selectors that are no type's id.
const (
	selCatchAll = 0x7fffffff
	selFilter   = -1
)

func (tab *Models) addExceptions() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.exc = excState{obj: a[0].Bits, tinfo: a[1].Bits}
		if !m.handled(t, len(t.frames)-1) {
			SetResult(res, 0)
			return nil // no handler: the runtime terminates
		}
		return m.unwind(t)
	}, "__augur_raise")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, t.exc.adjusted)
		return nil
	}, "__augur_exception_adjusted")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		name, err := m.CString(a[0].Bits)
		if err != nil {
			return err
		}
		text := demangle.Filter("_Z"+strings.TrimPrefix(name, "*"), demangle.NoTemplateParams)
		if strings.HasPrefix(text, "_Z") {
			text = strings.TrimPrefix(name, "*")
		}
		SetResult(res, 0)
		return m.StoreString(a[1].Bits, []byte(text), a[2].Bits, true)
	}, "__augur_demangle")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, a[0].Bits>>ir.AddrShift&0x7fffffff) // a type_info object's id: its selector
		return nil
	}, "llvm.eh.typeid.for")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		name, err := m.CString(a[0].Bits)
		if err != nil {
			return err
		}
		msg := fmt.Sprintf("uncaught C++ exception of type '%s'", name)
		if a[1].Bits != 0 {
			what, err := m.CString(a[1].Bits)
			if err != nil {
				return err
			}
			msg += ": " + what
		}
		return terminate(TermAbort, SIGABRT, "%s", msg)
	}, "__augur_uncaught")
}

// landingPad returns the landing pad frame f's current call unwinds to,
// or nil when the call is not an invoke.
func landingPad(f *frame) *ir.Inst {
	if f.pc >= len(f.fn.Insts) {
		return nil
	}
	in := &f.fn.Insts[f.pc]
	if in.Op != ir.OpCall || len(in.Targets) == 0 {
		return nil
	}
	if pad := &f.fn.Insts[in.Targets[0].PC]; pad.Op == ir.OpLandingPad {
		return pad
	}
	return nil
}

// handled reports whether a frame at or below index top catches t's
// exception (phase one). The search stops at a thread's first frame.
func (m *Machine) handled(t *Thread, top int) bool {
	for i := top; i >= 0; i-- {
		f := &t.frames[i]
		if pad := landingPad(f); pad != nil {
			if _, _, ok := m.catches(t, f, pad); ok {
				return true
			}
		}
		if f.retDst == -2 {
			return false // the bottom of a call chain a model started
		}
		// A -3 frame (a pthread_once routine) returns into its caller's
		// call: the exception goes on there (unwindFrame).
	}
	return false
}

// catches decides whether pad, in frame f, handles t's exception: the
// selector its dispatch code compares and the pointer the handler gets.
func (m *Machine) catches(t *Thread, f *frame, pad *ir.Inst) (sel int64, adjusted uint64, ok bool) {
	for _, arg := range pad.Args {
		catch := t.regs[f.base+int(arg)].Bits
		if catch == 0 {
			return selCatchAll, t.exc.obj, true
		}
		if adj, ok := m.matchType(t.exc.tinfo, catch, t.exc.obj); ok {
			return int64(catch >> ir.AddrShift & 0x7fffffff), adj, true
		}
	}
	if pad.Imm&ir.LandingFilter != 0 {
		return selFilter, t.exc.obj, true
	}
	return 0, 0, false
}

// unwind pops frames up to the first invoke with a landing pad and jumps
// to the pad (phase two).
func (m *Machine) unwind(t *Thread) error {
	jumped := errJumped
	for len(t.frames) > 0 {
		f := &t.frames[len(t.frames)-1]
		if pad := landingPad(f); pad != nil {
			sel, adj, ok := m.catches(t, f, pad)
			if !ok {
				sel, adj = 0, 0 // a cleanup: the exception goes on after it
			}
			t.exc.sel, t.exc.adjusted = sel, adj
			e := &f.fn.Insts[f.pc].Targets[0]
			regs := t.regs[f.base : f.base+f.fn.FrameSize]
			if len(e.Moves) > 0 {
				m.phiMoves(regs, e)
			}
			f.pc = e.PC
			return jumped
		}
		if f.retDst == -2 {
			break
		}
		released, err := m.unwindFrame(t)
		if err != nil {
			return err
		}
		if released {
			jumped = errJumpedSwitch
		}
	}
	return terminate(TermAbort, SIGABRT, "C++ exception unwound past the first frame of thread %d", t.ID)
}

// unwindFrame drops t's top frame as an exception passes through it. The
// frame of a pthread_once routine leaves its control "not run", as glibc's
// pthread_once does when the routine throws (std::call_once's callable:
// the exception reaches call_once's caller, and the next call runs the
// routine again); the threads waiting for it wake to run it. The routine's
// end happens before the next one's start, as C++ says of call_once's
// "active executions" (onceFn acquires at the start). released reports
// that it did so: the thread is then at a preemption point, where a woken
// thread may take the control first.
func (m *Machine) unwindFrame(t *Thread) (released bool, err error) {
	if n := len(t.onces); n > 0 && t.onces[n-1].depth == len(t.frames)-1 {
		if err := m.endOnce(t, 0); err != nil {
			return false, err
		}
		released = true
	}
	m.dropFrame(t)
	return released, nil
}

// landing executes a landing pad: the exception and the selector.
func (s *state) landing(t *Thread, in *ir.Inst, regs []Value) {
	regs[in.Dst] = Value{Bits: t.exc.obj}
	regs[in.Dst+1] = Value{Bits: uint64(t.exc.sel) & 0xffffffff}
}

// resume goes on unwinding from the caller of the frame whose cleanup ran.
func (m *Machine) resume(t *Thread, in *ir.Inst, regs []Value) error {
	t.exc.obj = get(regs, in.A).Bits
	released, err := m.unwindFrame(t)
	if err != nil {
		return err
	}
	if len(t.frames) == 0 {
		return terminate(TermAbort, SIGABRT, "C++ exception unwound past the first frame of thread %d", t.ID)
	}
	if err := m.unwind(t); err != errJumped || !released {
		return err
	}
	return errJumpedSwitch
}

// type_info kinds, by their vtable (Itanium C++ ABI 2.9.5).
type typeKind uint8

const (
	tiOther typeKind = iota
	tiClass
	tiSingle   // __si_class_type_info: one public non-virtual base at offset 0
	tiMultiple // __vmi_class_type_info
	tiPointer
)

// typeInfoVtables names the vtable of each type_info kind, by kind.
var typeInfoVtables = [...]string{tiClass: "_ZTVN10__cxxabiv117__class_type_infoE",
	tiSingle: "_ZTVN10__cxxabiv120__si_class_type_infoE", tiMultiple: "_ZTVN10__cxxabiv121__vmi_class_type_infoE",
	tiPointer: "_ZTVN10__cxxabiv119__pointer_type_infoE"}

func (s *state) typeKindOf(ti uint64) typeKind {
	vptr, err := s.SyncRead(ti, 8)
	if err != nil {
		return tiOther
	}
	for kind, name := range typeInfoVtables {
		if g := s.prog.GlobalByName(name); name != "" && g != nil && vptr == ir.Addr(g.ID, 16) {
			return typeKind(kind)
		}
	}
	return tiOther
}

// typeName is a type_info's mangled name, without the leading '*' that
// marks a type local to its translation unit.
func (st *state) typeName(ti uint64) string {
	p, err := st.SyncRead(ti+8, 8)
	if err != nil {
		return ""
	}
	s, err := st.mem.ReadCString(p, 1<<12)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(s, "*")
}

// matchType reports whether a catch clause for type catch handles an
// exception of type thrown whose object is at obj, and the pointer the
// handler receives.
func (m *Machine) matchType(thrown, catch, obj uint64) (uint64, bool) {
	name := m.typeName(thrown)
	if thrown == catch || name != "" && name == m.typeName(catch) {
		if m.typeKindOf(thrown) == tiPointer {
			p, _ := m.SyncRead(obj, 8)
			return p, true
		}
		return obj, true
	}
	switch tk, ck := m.typeKindOf(thrown), m.typeKindOf(catch); {
	case ck == tiPointer && name == "Dn":
		return 0, true // a thrown nullptr is a null pointer of any type
	case tk == tiPointer && ck == tiPointer:
		p, err := m.SyncRead(obj, 8)
		if err != nil {
			return 0, false
		}
		return m.catchPointer(thrown, catch, p, 1)
	case tk >= tiClass && tk <= tiMultiple && ck >= tiClass && ck <= tiMultiple:
		return m.findBase(thrown, obj, catch)
	}
	return 0, false
}

// Pointer type_info fields: the pointee's qualifiers, and its type_info.
const (
	tiPointerFlags   = 16
	tiPointerPointee = 24
	tiConst          = 1
)

// catchPointer decides whether a handler for the pointer type catch takes
// a thrown pointer p of type thrown, and the pointer it receives, as
// libsupc++'s __pbase_type_info::__do_catch does (Itanium C++ ABI 2.9.5).
// The handler's pointee must carry every qualifier of the thrown one's; a
// conversion below the first level needs every level above it const
// (outer's bit 0, which starts set); the pointees then match when they
// are the same type, or, at the first level only (outer below 2), when
// the handler's pointee is void and the thrown one not a function, or a
// public base class of the thrown one (a D** is no B *const *).
func (m *Machine) catchPointer(thrown, catch, p uint64, outer int) (uint64, bool) {
	if outer&1 == 0 {
		return 0, false
	}
	tflags, _ := m.SyncRead(thrown+tiPointerFlags, 4)
	cflags, _ := m.SyncRead(catch+tiPointerFlags, 4)
	if tflags&^cflags != 0 {
		return 0, false // the handler would drop a qualifier
	}
	if cflags&tiConst == 0 {
		outer &^= 1
	}
	tp, _ := m.SyncRead(thrown+tiPointerPointee, 8)
	cp, _ := m.SyncRead(catch+tiPointerPointee, 8)
	tname, cname := m.typeName(tp), m.typeName(cp)
	switch {
	case tname == cname:
		return p, true
	case outer < 2 && cname == "v":
		return p, !strings.HasPrefix(tname, "F") // catch (void *): any object pointer
	}
	switch tk, ck := m.typeKindOf(tp), m.typeKindOf(cp); {
	case tk == tiPointer && ck == tiPointer:
		return m.catchPointer(tp, cp, p, outer+2)
	case outer < 2 && tk >= tiClass && tk <= tiMultiple && ck >= tiClass && ck <= tiMultiple:
		if p == 0 {
			return 0, m.isBase(tp, cp)
		}
		return m.findBase(tp, p, cp)
	}
	return 0, false
}

// findBase returns the address of the public base of type want inside the
// object of type ti at obj.
func (m *Machine) findBase(ti, obj, want uint64) (uint64, bool) {
	if m.typeName(ti) == m.typeName(want) {
		return obj, true
	}
	switch m.typeKindOf(ti) {
	case tiSingle:
		base, _ := m.SyncRead(ti+16, 8)
		return m.findBase(base, obj, want)
	case tiMultiple:
		count, _ := m.SyncRead(ti+20, 4)
		for i := uint64(0); i < count && i < 1024; i++ {
			base, _ := m.SyncRead(ti+24+16*i, 8)
			of, _ := m.SyncRead(ti+32+16*i, 8)
			if of&2 == 0 {
				continue // not public
			}
			off := int64(of) >> 8
			if of&1 != 0 && obj != 0 { // virtual: the offset is in the object's vtable
				vptr, _ := m.SyncRead(obj, 8)
				v, _ := m.SyncRead(uint64(int64(vptr)+off), 8)
				off = int64(v)
			}
			if p, ok := m.findBase(base, uint64(int64(obj)+off), want); ok {
				return p, true
			}
		}
	}
	return 0, false
}

// isBase reports whether want is ti or a public base of it.
func (m *Machine) isBase(ti, want uint64) bool {
	_, ok := m.findBase(ti, 0, want)
	return ok
}
