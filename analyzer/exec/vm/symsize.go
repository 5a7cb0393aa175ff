package vm

import (
	"augur/analyzer/exec/expr"
	"augur/analyzer/frontend/ir"
)

// allocators are the models whose integer arguments are sizes: an input
// that sizes an allocation often also counts the threads that use it
// (`tids = malloc(n * sizeof *tids)` before n creates).
var allocators = map[string]bool{
	"malloc": true, "calloc": true, "realloc": true, "valloc": true, "aligned_alloc": true,
	"memalign": true, "_Znwm": true, "_Znam": true,
}

// sizeWindows are the ranges forkSizes takes a size from besides the
// seed's: a few elements, then a table.
var sizeWindows = [...][2]uint64{{1, 16}, {17, 1024}}

// forkSizes forks, for each symbolic integer argument of a call to an
// allocator, a state per range of sizeWindows the inputs allow, besides
// the seed's size, which the current state goes on with (concreteArgs
// pins it). Without them, a seed that sizes the allocation 0 pins the
// count of threads to 0 on every path, and no path runs a thread.
func (m *Machine) forkSizes(args []Value, tys []ir.Scalar) error {
	s := m.sym
	b := s.B
	for i, v := range args {
		if v.Sym == nil || i >= len(tys) || tys[i].Kind != ir.KInt {
			continue
		}
		w := v.Sym.Width
		// A fork made here resumes at this call with its size pinned: the
		// window that holds it is not forked again.
		mine, err := m.candidate(v, w)
		if err != nil {
			return err
		}
		for _, win := range sizeWindows {
			if s.Stats.Forks >= s.MaxForks {
				s.Stats.ForksRefused++
				return nil
			}
			if mine >= win[0] && mine <= win[1] {
				continue
			}
			in := b.Binary(expr.And, b.Binary(expr.Ule, b.Constant(win[0], w), v.Sym), b.Binary(expr.Ule, v.Sym, b.Constant(win[1], w)))
			ok, err := s.S.MayBeTrue(s.pc, in)
			if err != nil {
				return solverErr(err)
			}
			if !ok {
				continue
			}
			size, err := s.S.Value(append(s.pc[:len(s.pc):len(s.pc)], in), v.Sym)
			if err != nil {
				return solverErr(err)
			}
			s.Stats.Forks++
			child := m.forkAgain()
			child.sym.pc = append(child.sym.pc, b.Binary(expr.Eq, v.Sym, b.Constant(size, w)))
			m.spawned = append(m.spawned, child)
		}
	}
	return nil
}
