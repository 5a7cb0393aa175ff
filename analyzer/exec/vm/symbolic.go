package vm

import (
	"errors"

	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/solver"
	"augur/analyzer/frontend/ir"
)

// Symbolic is what every state of one symbolic exploration shares: the
// expression builder, the solver, the seed (the concrete input explored
// first) and counters. It belongs to one goroutine.
type Symbolic struct {
	B    *expr.Builder
	S    *solver.Solver
	Seed expr.Assignment
	// MaxForks bounds how many states forking may create; past it a
	// symbolic branch follows the seed's side (or the true side) only, and
	// Stats.ForksRefused counts the paths given up.
	MaxForks int
	// MaxPathCalls and MaxCalls are the solver budget, in queries its
	// caches do not answer (solver.Stats.Decisions; 0: none): the calls
	// one path may make, counting those of the paths it
	// was forked from, and the calls all paths together may make. Past
	// either, a path is pinned to one solution of its path constraint and
	// goes on along it without forking, as a concrete run (pin). A count,
	// so the same program explores the same paths on any machine; one
	// whose inputs reach every address and branch (a grid's size read
	// from its arguments) no longer asks Z3 at every store until the
	// analysis's time runs out.
	MaxPathCalls, MaxCalls int
	Stats                  SymStats
}

// SymStats count symbolic work for reports.
type SymStats struct {
	Forks            int
	ForksRefused     int
	Concretizations  int
	FloatConcretized int // floating-point values derived from symbolic data made concrete
	SymbolicPointers int // symbolic addresses made concrete
	// PointerTargetsGivenUp counts symbolic pointers that could point into
	// more than maxTargets objects: only the first ones were followed.
	PointerTargetsGivenUp int
	InfeasibleAssumes     int
	Pinned                int // paths pinned to one solution for the solver budget
}

// NewSymbolic returns the shared state of an exploration.
func NewSymbolic(s *solver.Solver) *Symbolic {
	sym := &Symbolic{B: expr.NewBuilder(), S: s, Seed: expr.Assignment{}, MaxForks: 100000}
	s.Prefer = sym.Seed // the same map: the seed's values as they are added
	return sym
}

// symState is one state's symbolic part: its path constraint, and
// whether an address an input chooses was pinned on it to one another
// thread touches or holds (contended).
type symState struct {
	*Symbolic
	pc        []*expr.Expr
	contended bool
	calls     int             // solver decisions of this path and those it was forked from
	pin       expr.Assignment // the solution the path follows once past its budget
	pinning   bool
}

func (s *symState) fork() *symState {
	return &symState{Symbolic: s.Symbolic, pc: s.pc[:len(s.pc):len(s.pc)], contended: s.contended, calls: s.calls, pin: s.pin}
}

// seed gives the new input variable name its seed value v, unless it has
// one, and, on a pinned path, its value there too.
func (s *symState) seed(name string, v uint64, replace bool) {
	if _, ok := s.Seed[name]; replace || !ok {
		s.Seed[name] = v
	}
	if s.pin != nil {
		if _, ok := s.pin[name]; !ok {
			s.pin[name] = s.Seed[name]
		}
	}
}

// solverWork is called before every solver decision of the running path
// (solver.Solver.Work): it counts as work between budget checks, and
// against the solver budget, past which the path is pinned.
func (m *Machine) solverWork() {
	m.charge(solverQueryWork)
	s := m.sym
	s.calls++
	if s.pin != nil || s.pinning {
		return
	}
	if s.MaxPathCalls > 0 && s.calls > s.MaxPathCalls || s.MaxCalls > 0 && s.S.Stats.Decisions() >= s.MaxCalls {
		m.pinPath()
	}
}

// pinPath pins the path to one solution of its path constraint: the seed
// when it is one, else Z3's model (the seed's values for the variables
// the constraint leaves free). The constraint gains each of its
// variables' equality to that value, so the inputs solved from it later
// are the ones the path then follows; every later query is answered by
// the solution (solver.Solver.Pinned). A constraint that cannot be
// solved leaves the path unpinned.
func (st *state) pinPath() {
	s := st.sym
	pin := expr.Assignment{}
	for name, v := range s.Seed {
		pin[name] = v
	}
	if !expr.Satisfies(pin, s.pc) {
		s.pinning = true
		model, sat, err := s.S.Model(s.pc)
		s.pinning = false
		if err != nil || !sat {
			return
		}
		for name, v := range model {
			pin[name] = v
		}
	}
	b := s.B
	for _, v := range expr.VarTerms(s.pc...) {
		s.pc = append(s.pc, b.Binary(expr.Eq, v, b.Constant(pin[v.Name], v.Width)))
	}
	s.pin = pin
	s.S.Pinned = pin
	s.Stats.Pinned++
	// The registers take their values there now; memory's bytes do as
	// they are loaded (loadSym), and what is computed from either folds
	// (term).
	for _, t := range st.threads {
		for i := range t.regs {
			if r := &t.regs[i]; r.Sym != nil {
				*r = Value{Bits: expr.Eval(r.Sym, pin)}
			}
		}
	}
}

// Contended reports whether this state, or one it was forked from, took
// for an address an input chooses one that another thread touched lately
// or a lock it held (forkTargets): its inputs are the ones to look for a
// race on first.
func (s *state) Contended() bool { return s.sym != nil && s.sym.contended }

// PathConstraint returns the constraints this state's inputs satisfy.
func (s *state) PathConstraint() []*expr.Expr {
	if s.sym == nil {
		return nil
	}
	return s.sym.pc
}

// Spawned returns the states forked off this one while it ran, to be
// explored after it, and forgets them.
func (m *Machine) Spawned() []*Machine {
	s := m.spawned
	m.spawned = nil
	return s
}

// ForkSite is the location of the instruction where this state was forked
// off its parent (0 for the initial state).
func (m *Machine) ForkSite() ir.LocID { return m.forkSite }

// Symbolic returns the exploration state m belongs to, or nil.
func (s *state) Symbolic() *Symbolic {
	if s.sym == nil {
		return nil
	}
	return s.sym.Symbolic
}

// term returns v as a term of width w: on a pinned path, its value
// there, so that what is computed from it folds to a constant and no
// term grows (pinPath).
func (s *state) term(v Value, w uint16) *expr.Expr {
	if v.Sym != nil {
		if s.sym.pin == nil {
			return v.Sym
		}
		return s.sym.B.Constant(expr.Eval(v.Sym, s.sym.pin), v.Sym.Width)
	}
	return s.sym.B.Constant(v.Bits, w)
}

// value wraps a term as a register value, concrete when it folded.
func value(e *expr.Expr) Value {
	if e.Op == expr.Const {
		return Value{Bits: e.Val}
	}
	return Value{Sym: e}
}

// solverErr turns a solver failure into the path's termination.
func solverErr(err error) error {
	if errors.Is(err, solver.ErrTimeout) {
		return terminate(TermSolver, 0, "solver timeout: a query on this path could not be decided in time")
	}
	return terminate(TermSolver, 0, "solver: %v", err)
}

// candidate is the value of w bits v's term takes under the seed when
// the path allows it, else one the solver finds: the value a state goes
// on with where it must pick one (concretize, and the forks of sizes,
// addresses and classes leave it the current state's).
func (st *state) candidate(v Value, w uint16) (uint64, error) {
	s := st.sym
	b := s.B
	cand := expr.Eval(v.Sym, s.Seed)
	ok, err := s.S.MayBeTrue(s.pc, b.Binary(expr.Eq, v.Sym, b.Constant(cand, w)))
	if err != nil {
		return 0, solverErr(err)
	}
	if !ok {
		if cand, err = s.S.Value(s.pc, v.Sym); err != nil {
			return 0, solverErr(err)
		}
	}
	return cand, nil
}

// concretize picks one value for v consistent with the path, prefers the
// seed's, and constrains the path to it.
func (st *state) concretize(v Value, w uint16) (uint64, error) {
	if v.Sym == nil {
		return v.Bits, nil
	}
	s := st.sym
	s.Stats.Concretizations++
	cand, err := st.candidate(v, w)
	if err != nil {
		return 0, err
	}
	s.pc = append(s.pc, s.B.Binary(expr.Eq, v.Sym, s.B.Constant(cand, w)))
	return cand, nil
}

// concretizeSplit picks a value for v as concretize does and constrains
// the path to the class that value is in (classOf, an index of classes);
// for each other class the path allows, it forks a state that runs the
// current call again from its start under that class, once fix has put
// the calling model's own state back as the call found it. A model that
// reads input bytes one at a time (scanf) so explores every way the input
// can split into its fields, not only the seed's.
func (m *Machine) concretizeSplit(v Value, w uint16, classes []func(*expr.Expr) *expr.Expr, classOf func(uint64) int,
	fix func(*Machine)) (uint64, error) {
	if v.Sym == nil {
		return v.Bits, nil
	}
	s := m.sym
	s.Stats.Concretizations++
	cand, err := m.candidate(v, w)
	if err != nil {
		return 0, err
	}
	mine := classOf(cand)
	for k, class := range classes {
		if k == mine {
			continue
		}
		if s.Stats.Forks >= s.MaxForks {
			s.Stats.ForksRefused++
			break
		}
		c := class(v.Sym)
		ok, err := s.S.MayBeTrue(s.pc, c)
		if err != nil {
			return 0, solverErr(err)
		}
		if !ok {
			continue
		}
		s.Stats.Forks++
		child := m.forkAgain()
		child.sym.pc = append(child.sym.pc, c)
		if fix != nil {
			fix(child)
		}
		m.spawned = append(m.spawned, child)
	}
	s.pc = append(s.pc, classes[mine](v.Sym))
	return cand, nil
}

// decide chooses which way a symbolic condition goes. When both ways are
// feasible it forks: the current state takes the way the seed takes and
// the fork the other; both record their choice in their path constraint.
// It returns the direction of the current state and the fork (nil when
// there was no fork).
func (m *Machine) decide(c *expr.Expr) (bool, *Machine, error) {
	if v, ok := expr.Decided(c); ok {
		return v, nil, nil // the bounds of its operands decide it, as the solver would
	}
	s := m.sym
	b := s.B
	notC := b.Not(c)
	canT, err := s.S.MayBeTrue(s.pc, c)
	if err != nil {
		return false, nil, solverErr(err)
	}
	canF, err := s.S.MayBeTrue(s.pc, notC)
	if err != nil {
		return false, nil, solverErr(err)
	}
	switch {
	case canT && !canF:
		return true, nil, nil
	case canF && !canT:
		return false, nil, nil
	case !canT && !canF:
		return false, nil, terminate(TermSolver, 0, "solver: the path constraint became unsatisfiable")
	}
	prefer := expr.Eval(c, s.Seed) != 0
	if s.Stats.Forks >= s.MaxForks {
		s.Stats.ForksRefused++
		if prefer {
			s.pc = append(s.pc, c)
		} else {
			s.pc = append(s.pc, notC)
		}
		return prefer, nil, nil
	}
	s.Stats.Forks++
	child := m.forkAgain()
	if prefer {
		s.pc = append(s.pc, c)
		child.sym.pc = append(child.sym.pc, notC)
	} else {
		s.pc = append(s.pc, notC)
		child.sym.pc = append(child.sym.pc, c)
	}
	m.spawned = append(m.spawned, child)
	if m.cfg.PauseAtFork {
		// The forking instruction runs again on resume and finds its side
		// already decided by the constraint just added.
		return prefer, child, errPaused
	}
	return prefer, child, nil
}

// errPaused ends Run early, resumable (Config.PauseAtFork).
var errPaused = errors.New("paused at fork")

// curLoc is the location of the current thread's current instruction.
func (s *state) curLoc() ir.LocID {
	if s.cur == nil || len(s.cur.frames) == 0 {
		return 0
	}
	return s.cur.curLoc()
}

// symBin evaluates an integer operation with a symbolic operand. A divisor
// that may be zero forks a state that crashes on it.
func (m *Machine) symBin(t *Thread, in *ir.Inst, a, bv Value) (Value, error) {
	w := in.Ty.Bits
	b := m.sym.B
	x, y := m.term(a, w), m.term(bv, w)
	op := binExprOps[in.Sub]
	switch op {
	case expr.UDiv, expr.SDiv, expr.URem, expr.SRem:
		zero, child, err := m.decide(b.Binary(expr.Eq, y, b.Constant(0, w)))
		if err != nil {
			return Value{}, err
		}
		fail := terminate(TermCrash, SIGFPE, "division by zero")
		if zero {
			return Value{}, fail // the fork, if any, continues with a non-zero divisor
		}
		if child != nil {
			child.pendingFail = fail
		}
	}
	return value(b.Binary(op, x, y)), nil
}

var binExprOps = [...]expr.Op{ir.BinAdd: expr.Add, ir.BinSub: expr.Sub, ir.BinMul: expr.Mul, ir.BinUDiv: expr.UDiv,
	ir.BinSDiv: expr.SDiv, ir.BinURem: expr.URem, ir.BinSRem: expr.SRem, ir.BinShl: expr.Shl, ir.BinLShr: expr.LShr,
	ir.BinAShr: expr.AShr, ir.BinAnd: expr.And, ir.BinOr: expr.Or, ir.BinXor: expr.Xor}

// symCmp builds an integer comparison with a symbolic operand.
func (s *state) symCmp(in *ir.Inst, a, bv Value) Value {
	w := in.Src.Bits
	b := s.sym.B
	x, y := s.term(a, w), s.term(bv, w)
	var c *expr.Expr
	switch in.Sub {
	case ir.ICmpEQ:
		c = b.Binary(expr.Eq, x, y)
	case ir.ICmpNE:
		c = b.Not(b.Binary(expr.Eq, x, y))
	case ir.ICmpUGT:
		c = b.Binary(expr.Ult, y, x)
	case ir.ICmpUGE:
		c = b.Binary(expr.Ule, y, x)
	case ir.ICmpULT:
		c = b.Binary(expr.Ult, x, y)
	case ir.ICmpULE:
		c = b.Binary(expr.Ule, x, y)
	case ir.ICmpSGT:
		c = b.Binary(expr.Slt, y, x)
	case ir.ICmpSGE:
		c = b.Binary(expr.Sle, y, x)
	case ir.ICmpSLT:
		c = b.Binary(expr.Slt, x, y)
	default:
		c = b.Binary(expr.Sle, x, y)
	}
	return value(c)
}

// symCast converts a symbolic integer; conversions involving floating
// point make the value concrete first.
func (st *state) symCast(in *ir.Inst, v Value) (Value, error) {
	b := st.sym.B
	src, dst := in.Src, in.Ty
	intLike := func(s ir.Scalar) bool { return s.Kind == ir.KInt || s.Kind == ir.KPtr }
	if !intLike(src) || !intLike(dst) {
		st.sym.Stats.FloatConcretized++
		x, err := st.concretize(v, src.Bits)
		if err != nil {
			return Value{}, err
		}
		return Value{Bits: cast(in.Sub, x, src, dst)}, nil
	}
	x := v.Sym
	switch {
	case in.Sub == ir.CastSExt:
		return value(b.SExt(x, dst.Bits)), nil
	case dst.Bits < x.Width:
		return value(b.Extract(x, 0, dst.Bits)), nil
	default:
		return value(b.ZExt(x, dst.Bits)), nil
	}
}

// concreteArgs makes every symbolic argument of a call to a modeled
// function concrete; the models compute on concrete bits.
func (s *state) concreteArgs(args []Value, tys []ir.Scalar) error {
	for i := range args {
		if args[i].Sym == nil {
			continue
		}
		w := uint16(64)
		if i < len(tys) {
			w = tys[i].Bits
		}
		x, err := s.concretize(args[i], w)
		if err != nil {
			return err
		}
		args[i] = Value{Bits: x}
	}
	return nil
}
