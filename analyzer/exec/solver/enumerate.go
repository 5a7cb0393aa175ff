package solver

import (
	"slices"

	"augur/analyzer/exec/expr"
)

// Deciding small queries by enumeration. Most queries a program's inputs
// raise are over a few input bytes (an argument's characters, the first
// bytes of standard input), and many of them are hard for Z3's
// bit-vector core anyway: "i < (10*(c1-'0') + (c2-'0')) / p" needs a
// 64-bit divider bit-blasted, and takes Z3 a fifth of a second to refute
// where trying the 256 values of each byte takes microseconds. So a
// query whose variables are all bytes, few enough, is decided by a
// search over their values: one byte at a time, each condition checked
// as soon as its bytes have values, so a byte the conditions pin down
// is found in at most 256 tries. A condition over one byte alone (a
// digit's range, a ctype class, which is a chain of 256 table links) is
// decided for all of that byte's values before the search, once per
// Solver (unaryTables): the search then tries only the values every such
// condition leaves, ten for a digit where it tried 256 and walked the
// class's chain for each. The search is exact (it tries every value it
// does not refute) and deterministic; one that would take more than
// enumerationBudget node evaluations gives up, leaving the query to Z3,
// so its cost is bounded whatever the conditions.

const (
	// maxEnumeratedVars bounds the bytes a query may have for the search.
	maxEnumeratedVars = 16
	// enumerationBudget bounds the node evaluations of one search.
	enumerationBudget = 1 << 20
	// briefBudget bounds each of the short searches tried before the
	// long one (Solver.enumerate).
	briefBudget = 1 << 16
)

// enumeration is one query prepared for the search: its terms in an
// order where every kid comes before its parent, each tagged with the
// position of the last variable (in search order) it depends on.
//
// A term is computed when a condition being checked needs it, not when
// its last variable gets a value: the conditions after one that fails
// are not computed, and of an if-then-else only the side taken is. A
// table lookup an input byte indexes (a ctype class) is a chain of 256
// of those, of which a value then computes a few links.
type enumeration struct {
	vars    []*expr.Expr
	varNode []int // the node of each variable
	nodes   []*expr.Expr
	kids    [][]int // indices of each node's kids in nodes
	level   []int   // the position in vars after which a node has its value (-1: constant)
	// condsAt[d] are the conditions that can be checked once vars[d] has
	// a value, but for those over vars[d] alone, which decide domain[d]:
	// the values of vars[d] that satisfy all of them, in increasing order.
	condsAt [][]int
	domain  [][]uint64
	vals    []uint64
	// stamp[i] is the tick at which vals[i] was computed; it is current
	// while no variable it depends on has been given a value since,
	// that is while it is at least given[level[i]], the tick of its last
	// variable's latest value (the search gives the variables values in
	// order, so a change to an earlier one gives the later ones values
	// again before a term that depends on them is used).
	stamp, given []int
	tick         int
	work, budget int
	prefer       []expr.Assignment
}

// enumerate decides conds by searching the values of their variables,
// trying each variable's preferred value first (prefer may be nil). ok
// is false when the query is not small enough or the search ran out of
// its budget: Z3 must decide it.
func enumerate(conds []*expr.Expr, prefer expr.Assignment) (sat bool, model expr.Assignment, ok bool) {
	en := enumerable(conds, nil)
	if en == nil {
		return false, nil, false
	}
	return en.run(enumerationBudget, prefer)
}

// enumerable prepares conds for the search, or returns nil when they are
// not small enough for it. tables, when not nil, keeps the values that
// satisfy each condition over one variable, for the queries after.
func enumerable(conds []*expr.Expr, tables *unaryTables) *enumeration {
	vars := expr.VarTerms(conds...)
	if len(vars) == 0 || len(vars) > maxEnumeratedVars {
		return nil
	}
	for _, v := range vars {
		if v.Width > 8 {
			return nil
		}
	}
	return prepare(conds, vars, tables)
}

// run searches with a budget of node evaluations, trying at each
// variable the value of each preferred assignment first, in their
// order. A prepared query may be searched again, with other preferences.
func (en *enumeration) run(budget int, prefer ...expr.Assignment) (sat bool, model expr.Assignment, ok bool) {
	en.work, en.budget, en.prefer = 0, budget, prefer
	for _, dom := range en.domain {
		if len(dom) == 0 {
			return false, nil, true // a byte no value of which satisfies its own conditions
		}
	}
	found, complete := en.search(0)
	if !complete {
		return false, nil, false
	}
	if !found {
		return false, nil, true
	}
	model = expr.Assignment{}
	for i, v := range en.vars {
		model[v.Name] = en.vals[en.varNode[i]]
	}
	return true, model, true
}

// prepare orders the variables so that conditions are complete as early
// as possible (each next variable is the one that completes the most
// conditions, then the one in the most conditions, then by name) and
// lays the terms out for the search, each variable's values those its
// own conditions leave (domains).
func prepare(conds []*expr.Expr, vars []*expr.Expr, tables *unaryTables) *enumeration {
	condVars := make([]map[*expr.Expr]bool, len(conds))
	for i, c := range conds {
		condVars[i] = map[*expr.Expr]bool{}
		for _, v := range expr.VarsOf(c) {
			condVars[i][v] = true
		}
	}
	placed := map[*expr.Expr]bool{}
	var order []*expr.Expr
	for len(order) < len(vars) {
		best, bestDone, bestIn := (*expr.Expr)(nil), -1, -1
		for _, v := range vars {
			if placed[v] {
				continue
			}
			done, in := 0, 0
			for _, cv := range condVars {
				if !cv[v] {
					continue
				}
				in++
				missing := 0
				for u := range cv {
					if u != v && !placed[u] {
						missing++
					}
				}
				if missing == 0 {
					done++
				}
			}
			if done > bestDone || done == bestDone && in > bestIn {
				best, bestDone, bestIn = v, done, in
			}
		}
		placed[best] = true
		order = append(order, best)
	}
	en := &enumeration{vars: order, condsAt: make([][]int, len(order)), given: make([]int, len(order))}
	pos := map[*expr.Expr]int{}
	for i, v := range order {
		pos[v] = i
	}
	index := map[*expr.Expr]int{}
	var add func(e *expr.Expr) int
	add = func(e *expr.Expr) int {
		if i, ok := index[e]; ok {
			return i
		}
		lvl := -1
		var kids []int
		if e.Op == expr.Var {
			lvl = pos[e]
		}
		for _, k := range e.Kids {
			ki := add(k)
			kids = append(kids, ki)
			lvl = max(lvl, en.level[ki])
		}
		i := len(en.nodes)
		index[e] = i
		en.nodes = append(en.nodes, e)
		en.kids = append(en.kids, kids)
		en.level = append(en.level, lvl)
		return i
	}
	var constant []int
	unary := make([][]int, len(order))
	for i, c := range conds {
		ci := add(c)
		switch lvl := en.level[ci]; {
		case lvl < 0:
			constant = append(constant, ci)
		case len(condVars[i]) == 1:
			unary[lvl] = append(unary[lvl], ci)
		default:
			en.condsAt[lvl] = append(en.condsAt[lvl], ci)
		}
	}
	en.varNode = make([]int, len(order))
	for i, v := range order {
		en.varNode[i] = index[v]
	}
	en.vals = make([]uint64, len(en.nodes))
	en.stamp = make([]int, len(en.nodes))
	for i := range en.nodes {
		if en.level[i] < 0 {
			en.vals[i] = en.apply(i)
		}
	}
	// A condition without variables that is false makes every search
	// fail at once: it is checked with the first variable.
	en.condsAt[0] = append(constant, en.condsAt[0]...)
	en.domains(unary, tables)
	return en
}

// domains sets domain[d] to the values of vars[d] that satisfy every
// condition of unary[d] (those over vars[d] alone), each condition's
// values taken from tables or computed for all of the variable's values
// and kept there.
func (en *enumeration) domains(unary [][]int, tables *unaryTables) {
	en.domain = make([][]uint64, len(en.vars))
	for d, v := range en.vars {
		values := allValues[:1<<v.Width]
		if len(unary[d]) == 0 {
			en.domain[d] = values // shared, never written
			continue
		}
		allowed := valueSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		for _, ci := range unary[d] {
			c := en.nodes[ci]
			set := tables.lookup(c)
			if set == nil {
				set = new(valueSet)
				for _, x := range values {
					en.vals[en.varNode[d]] = x
					en.tick++
					en.given[d] = en.tick
					if en.value(ci) != 0 {
						set.add(x)
					}
				}
				tables.keep(c, set)
			}
			allowed.intersect(set)
		}
		for _, x := range values {
			if allowed.has(x) {
				en.domain[d] = append(en.domain[d], x)
			}
		}
	}
}

// allValues lists the values of a byte in increasing order; its first
// 1<<w are those of a variable of w bits.
var allValues = func() []uint64 {
	out := make([]uint64, 256)
	for x := range out {
		out[x] = uint64(x)
	}
	return out
}()

// valueSet is a set of the values of a variable of at most 8 bits.
type valueSet [4]uint64

func (s *valueSet) add(x uint64)          { s[x>>6] |= 1 << (x & 63) }
func (s *valueSet) has(x uint64) bool     { return s[x>>6]&(1<<(x&63)) != 0 }
func (s *valueSet) intersect(o *valueSet) { s[0] &= o[0]; s[1] &= o[1]; s[2] &= o[2]; s[3] &= o[3] }

// unaryTables keeps, for conditions over one variable, the values that
// satisfy them: a path's queries repeat its conditions (each input
// byte's class and range, checked as the program parsed it), and a
// condition is the same term in every query of a Solver, its Builder
// hash-consing it. A nil *unaryTables keeps nothing.
type unaryTables struct {
	sets map[*expr.Expr]*valueSet
}

// maxUnaryTables bounds the conditions a Solver keeps values for; past
// it the tables start over.
const maxUnaryTables = 1 << 14

func (t *unaryTables) lookup(c *expr.Expr) *valueSet {
	if t == nil {
		return nil
	}
	return t.sets[c]
}

func (t *unaryTables) keep(c *expr.Expr, set *valueSet) {
	if t == nil {
		return
	}
	if t.sets == nil || len(t.sets) >= maxUnaryTables {
		t.sets = map[*expr.Expr]*valueSet{}
	}
	t.sets[c] = set
}

func (en *enumeration) apply(i int) uint64 {
	var buf [3]uint64
	kids := buf[:len(en.kids[i])]
	for j, k := range en.kids[i] {
		kids[j] = en.vals[k]
	}
	return expr.Apply(en.nodes[i], kids)
}

// search tries the values of vars[d:] (vars[:d] have theirs) and reports
// whether it found values under which every condition holds, and
// whether it searched to the end (not past its budget). Each variable
// takes the values the preferred assignments give it first, then the
// others in order.
func (en *enumeration) search(d int) (found, complete bool) {
	if d == len(en.vars) {
		return true, true
	}
	v := en.vars[d]
	width := uint64(1)<<v.Width - 1
	dom := en.domain[d]
	var buf [4]uint64
	firsts := buf[:0]
	for _, p := range en.prefer {
		if x, ok := p[v.Name]; ok && !slices.Contains(firsts, x&width) {
			if _, in := slices.BinarySearch(dom, x&width); in {
				firsts = append(firsts, x&width)
			}
		}
	}
	vi := en.varNode[d]
	for n := 0; n < len(firsts)+len(dom); n++ {
		var x uint64
		if n < len(firsts) {
			x = firsts[n]
		} else if x = dom[n-len(firsts)]; slices.Contains(firsts, x) {
			continue
		}
		if en.work++; en.work > en.budget {
			return false, false
		}
		en.vals[vi] = x
		en.tick++
		en.given[d] = en.tick
		if !en.hold(d) {
			continue
		}
		if found, complete := en.search(d + 1); found || !complete {
			return found, complete
		}
	}
	return false, true
}

// hold reports whether the conditions complete at level d hold.
func (en *enumeration) hold(d int) bool {
	for _, c := range en.condsAt[d] {
		if en.value(c) == 0 {
			return false
		}
	}
	return true
}

// value returns node i's value under the variables' current values,
// computing it, and the kids it needs, unless it is current. Each
// computation counts as work.
func (en *enumeration) value(i int) uint64 {
	lvl := en.level[i]
	if lvl < 0 || en.nodes[i].Op == expr.Var || en.stamp[i] >= en.given[lvl] {
		return en.vals[i]
	}
	en.work++
	kids := en.kids[i]
	var v uint64
	if en.nodes[i].Op == expr.Ite {
		if en.value(kids[0]) != 0 {
			v = en.value(kids[1])
		} else {
			v = en.value(kids[2])
		}
	} else {
		var buf [3]uint64
		vs := buf[:len(kids)]
		for j, k := range kids {
			vs[j] = en.value(k)
		}
		v = expr.Apply(en.nodes[i], vs)
	}
	en.vals[i], en.stamp[i] = v, en.tick
	return v
}
