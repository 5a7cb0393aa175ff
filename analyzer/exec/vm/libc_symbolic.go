package vm

import (
	"fmt"
	"strings"

	"augur/analyzer/exec/expr"
	"augur/analyzer/frontend/ir"
)

// The symbolic-input API: augur.h's augur_make_symbolic, augur_assume and
// augur_assert, and the names existing harnesses use: KLEE's
// klee_make_symbolic/klee_assume and SV-COMP's __VERIFIER_nondet_*,
// __VERIFIER_assume, assume_abort_if_not and reach_error. In a concrete run
// inputs keep their concrete contents and assumptions are checked.

// inputName returns the name of the next input called name: name, then
// name_2, name_3...
//
// The count is the execution's own, forked with it: after a fork each
// state's n-th input of a name is the same variable, so the two orders of a
// race that read the same input see the same value.
func (s *state) inputName(name string) string {
	if s.inputNames == nil {
		s.inputNames = map[string]int{}
	}
	s.inputNames[name]++
	if n := s.inputNames[name]; n > 1 {
		return fmt.Sprintf("%s_%d", name, n)
	}
	return name
}

// makeSymbolic marks size bytes at addr as fresh input variables name[i].
// In a concrete run with replayed Inputs it writes their values instead.
func (m *Machine) makeSymbolic(addr, size uint64, name string) error {
	if m.sym == nil {
		name = m.inputName(name)
		for i := uint64(0); i < size; i++ {
			if v, ok := m.cfg.Inputs[fmt.Sprintf("%s[%d]", name, i)]; ok {
				if err := m.SyncWrite(addr+i, 1, v); err != nil {
					return err
				}
			}
		}
		return nil
	}
	o, off, err := m.mem.resolve(addr, size, true)
	if err != nil {
		return memErr(err)
	}
	if o.gen != m.mem.gen {
		o = m.mem.writable(o)
	}
	if o.sym == nil {
		o.sym = make([]*expr.Expr, o.Size)
	}
	name = m.inputName(name)
	for i := uint64(0); i < size; i++ {
		v := fmt.Sprintf("%s[%d]", name, i)
		o.sym[off+i] = m.sym.B.Variable(v, 8)
		m.sym.seed(v, uint64(o.bytes[off+i]), false) // the current contents are the seed
	}
	return nil
}

// assume adds cond (a C truth value) to the path; a path where it cannot
// hold ends as pruned, not as a failure.
func (st *state) assume(v Value, w uint16) error {
	if v.Sym == nil {
		if v.Bits&ir.Mask(w) == 0 {
			return &termError{&Termination{Kind: TermPruned, Message: "assumption does not hold"}}
		}
		return nil
	}
	s := st.sym
	c := s.B.Not(s.B.Binary(expr.Eq, v.Sym, s.B.Constant(0, w)))
	ok, err := s.S.MayBeTrue(s.pc, c)
	if err != nil {
		return solverErr(err)
	}
	if !ok {
		s.Stats.InfeasibleAssumes++
		return &termError{&Termination{Kind: TermPruned, Message: "assumption cannot hold on this path"}}
	}
	s.pc = append(s.pc, c)
	return nil
}

func (tab *Models) addSymbolic() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		name, err := m.CString(a[2].Bits)
		if err != nil {
			return err
		}
		return m.makeSymbolic(a[0].Bits, a[1].Bits, name)
	}, "augur_make_symbolic", "klee_make_symbolic").Input()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.assume(a[0], in.ArgTys[0].Bits)
	}, "augur_assume", "klee_assume", "__VERIFIER_assume", "assume_abort_if_not").Symbolic()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		msg := ""
		if len(a) > 1 {
			if a[1].Sym != nil {
				x, err := m.concretize(a[1], 64)
				if err != nil {
					return err
				}
				a[1] = Value{Bits: x}
			}
			msg, _ = m.CString(a[1].Bits)
		}
		fail := terminate(TermAssert, SIGABRT, "augur_assert failed: %s", msg)
		v := a[0]
		if v.Sym == nil {
			if v.Bits&0xffffffff == 0 {
				return fail
			}
			return nil
		}
		b := m.sym.B
		holds, child, err := m.decide(b.Not(b.Binary(expr.Eq, v.Sym, b.Constant(0, v.Sym.Width))))
		if err != nil {
			return err
		}
		if !holds {
			return fail
		}
		if child != nil {
			child.pendingFail = fail
		}
		return nil
	}, "augur_assert").Symbolic()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return terminate(TermAssert, SIGABRT, "reach_error() called: the program reached its error location")
	}, "reach_error", "__VERIFIER_error")
	// __VERIFIER_nondet_T returns a fresh input of T's width (in a concrete
	// run: 0).
	nondet := func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if len(res) == 0 {
			return nil
		}
		name := m.inputName(strings.TrimPrefix(in.Callee.Name, "__VERIFIER_"))
		if m.sym == nil {
			SetResult(res, m.cfg.Inputs[name]&ir.Mask(in.Ty.Bits))
			return nil
		}
		w := in.Ty.Bits
		if in.Ty.Kind != ir.KInt && in.Ty.Kind != ir.KPtr {
			SetResult(res, 0) // floating-point nondet values stay concrete
			return nil
		}
		m.sym.seed(name, m.cfg.Inputs[name], true) // the replayed value, if any, is the path to follow first
		res[0] = Value{Sym: m.sym.B.Variable(name, w)}
		return nil
	}
	for _, ty := range []string{"int", "uint", "char", "uchar", "short", "ushort", "long", "ulong", "longlong",
		"ulonglong", "bool", "pointer", "size_t", "u32", "u16", "u8", "unsigned", "float", "double"} {
		tab.Register(nondet, "__VERIFIER_nondet_"+ty).Input()
	}
}
