// Package solver answers satisfiability queries over analyzer/exec/expr terms
// with Z3, as a chain of small layers in the manner of KLEE: constraint
// independence (a query carries only the constraints that share variables
// with it), a cache of query results, a cache of satisfying assignments
// tried before calling Z3 (a model of an earlier query often satisfies a new
// one), a search over the values of queries on a few input bytes
// (enumerate.go), and a timeout on every query that turns into an error value rather
// than a hang.
package solver

import (
	"errors"
	"sort"
	"strings"
	"time"

	"augur/analyzer/exec/expr"
)

// ErrTimeout is returned when Z3 could not decide a query in time (or gave
// up); the caller ends that path as a solver timeout.
var ErrTimeout = errors.New("solver timeout")

// Stats count the work done, for reports and benchmarks.
type Stats struct {
	Queries    int // queries asked of the Solver
	CacheHits  int // answered from the result cache
	ModelHits  int // answered by a cached satisfying assignment
	Enumerated int // decided by a search over a few bytes' values (enumerate)
	Bounded    int // decided unsatisfiable by two bounds of one term (expr.DropImplied)
	Z3Calls    int // queries that reached Z3
	Timeouts   int
	Z3Time     time.Duration
}

// Solver answers queries about path constraints. It is not safe for
// concurrent use.
type Solver struct {
	be     *backend
	cache  map[string]result
	models []expr.Assignment // recent satisfying assignments, newest last
	eval   expr.Evaluator    // checks conditions under the recent models
	unary  unaryTables       // the values that satisfy each condition over one byte (enumerate)
	Stats  Stats
	// Cancel, when closed, interrupts the Z3 call in progress, which then
	// fails with ErrTimeout: a canceled analysis does not wait out a hard
	// query.
	Cancel <-chan struct{}
	// Work, when set, is called before every query the caches do not
	// answer (Decisions), which enumeration or Z3 decides: the execution
	// asking counts it as work between its budget checks, which an
	// instruction count alone spaces too far apart when most
	// instructions ask the solver (an address an input chooses, at every
	// store of a loop), and as its solver budget (vm.Symbolic). It may
	// set Pinned.
	Work func()
	// Pinned, when set, answers every query by this one assignment
	// instead: a constraint may hold when it holds there, the model is
	// Pinned. An execution past its solver budget goes on along one
	// solution of its path, as a concrete run would (vm.Symbolic).
	Pinned expr.Assignment
	// Prefer, when set, are the values a search over a query's bytes
	// tries first (the seed's): a model is then the seed's input wherever
	// the query allows it.
	Prefer expr.Assignment
}

type result struct {
	sat   bool
	model expr.Assignment
}

const maxModels = 64

// recentModels is how many of the newest models a search over a query's
// bytes tries the values of first (Solver.enumerate).
const recentModels = 3

// New returns a solver whose every Z3 call is limited to timeout.
func New(timeout time.Duration) *Solver { return NewLimited(timeout, 0) }

// NewLimited also bounds every Z3 call by a resource limit (Z3's rlimit, a
// count of solver steps; 0 for none): unlike a timeout it cuts a query at
// the same point on every machine.
func NewLimited(timeout time.Duration, rlimit uint) *Solver {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &Solver{be: newBackend(timeout, rlimit), cache: map[string]result{}}
}

// MayBeTrue reports whether q can hold together with the constraints.
func (s *Solver) MayBeTrue(constraints []*expr.Expr, q *expr.Expr) (bool, error) {
	if s.Pinned != nil {
		return expr.Eval(q, s.Pinned) != 0, nil
	}
	sat, _, err := s.satisfiable(constraints, q)
	return sat, err
}

// MustBeTrue reports whether q holds in every solution of the constraints.
func (s *Solver) MustBeTrue(b *expr.Builder, constraints []*expr.Expr, q *expr.Expr) (bool, error) {
	if s.Pinned != nil {
		return expr.Eval(q, s.Pinned) != 0, nil
	}
	sat, _, err := s.satisfiable(constraints, b.Not(q))
	return !sat, err
}

// Model returns values for the variables of the constraints that satisfy
// all of them (variables no constraint mentions are left out), and false
// when there are none.
//
// The constraints are solved in independent groups (no variable shared,
// transitively), as KLEE does: a path's constraint is mostly bytes of
// different inputs, each bounded on its own, and each group is then a
// small query the caches or a search over its bytes answer, where the
// whole conjunction went to Z3, which took about 100 ms for each of the
// paths streamcluster's classification pins (pinPath): up to 230
// constraints over 21 input bytes that form 17 such groups.
func (s *Solver) Model(constraints []*expr.Expr) (expr.Assignment, bool, error) {
	if len(constraints) == 0 {
		return expr.Assignment{}, true, nil
	}
	if s.Pinned != nil {
		return s.Pinned, true, nil
	}
	groups := independent(constraints)
	if len(groups) == 1 {
		sat, model, err := s.solve(constraints)
		return model, sat, err
	}
	model := expr.Assignment{}
	for _, g := range groups {
		sat, m, err := s.solve(g)
		if err != nil || !sat {
			return nil, false, err
		}
		// A group's model may be a recent model of other queries, with
		// values for other groups' variables: take only its own.
		for _, c := range g {
			for _, v := range expr.VarsOf(c) {
				model[v.Name] = m[v.Name]
			}
		}
	}
	return model, true, nil
}

// Value returns one value e can take under the constraints.
func (s *Solver) Value(constraints []*expr.Expr, e *expr.Expr) (uint64, error) {
	if e.Op == expr.Const {
		return e.Val, nil
	}
	if s.Pinned != nil {
		return expr.Eval(e, s.Pinned), nil
	}
	model, sat, err := s.Model(relevant(constraints, expr.VarsOf(e)))
	if err != nil {
		return 0, err
	}
	if !sat {
		return 0, errors.New("solver: constraints are unsatisfiable")
	}
	return expr.Eval(e, model), nil
}

// satisfiable decides constraints ∧ q, slicing away constraints that share
// no variable (transitively) with q.
func (s *Solver) satisfiable(constraints []*expr.Expr, q *expr.Expr) (bool, expr.Assignment, error) {
	if q.Op == expr.Const {
		return q.Val != 0, nil, nil
	}
	conds := append(relevant(constraints, expr.VarsOf(q)), q)
	return s.solve(conds)
}

// solve decides a conjunction through the caches, then Z3.
func (s *Solver) solve(conds []*expr.Expr) (bool, expr.Assignment, error) {
	s.Stats.Queries++
	// A loop bound an input sets leaves a bound per iteration on the path;
	// only the tightest says anything.
	conds, unsat := expr.DropImplied(conds)
	key := cacheKey(conds)
	if r, ok := s.cache[key]; ok {
		s.Stats.CacheHits++
		return r.sat, r.model, nil
	}
	var vars []string
	seen := map[string]bool{}
	for _, c := range conds {
		for _, v := range expr.VarsOf(c) {
			if !seen[v.Name] {
				seen[v.Name] = true
				vars = append(vars, v.Name)
			}
		}
	}
	for i := len(s.models) - 1; i >= 0; i-- {
		if s.eval.Satisfies(s.models[i], conds) {
			s.Stats.ModelHits++
			model := complete(s.models[i], vars)
			s.cache[key] = result{true, model}
			return true, model, nil
		}
	}
	if s.Work != nil {
		if s.Work(); s.Pinned != nil { // pinned just now
			return expr.Satisfies(s.Pinned, conds), s.Pinned, nil
		}
	}
	if unsat {
		// Two bounds of one term contradict each other: decided here, and
		// counted as the decision enumeration or Z3 would have made, so
		// that the solver budget (Work) runs out where it did.
		s.Stats.Bounded++
		s.remember(key, false, nil)
		return false, nil, nil
	}
	if sat, model, ok := s.enumerate(conds); ok {
		s.Stats.Enumerated++
		s.remember(key, sat, model)
		return sat, model, nil
	}
	s.Stats.Z3Calls++
	start := time.Now()
	stop := s.interruptOnCancel()
	sat, model, err := s.be.check(conds, vars)
	stop()
	s.Stats.Z3Time += time.Since(start)
	if err != nil {
		s.Stats.Timeouts++
		return false, nil, ErrTimeout
	}
	s.remember(key, sat, model)
	return sat, model, nil
}

// enumerate decides conds by a search over their bytes' values
// (enumerate), when it is small enough. It searches briefly with the
// seed's values first, then briefly with each of the newest models'
// values first, then at length with the seed's: a loop whose bound an
// input sets asks at each iteration for a bound one more than the last
// answer's, which differs from it in the last digit or two, while the
// seed's values lead the search through every other digit first. (Each
// of the newest models, not only the newest: the side of the loop's test
// the seed takes may have been answered by the seed just before.)
func (s *Solver) enumerate(conds []*expr.Expr) (sat bool, model expr.Assignment, ok bool) {
	en := enumerable(conds, &s.unary)
	if en == nil {
		return false, nil, false
	}
	if sat, model, ok = en.run(briefBudget, s.Prefer); ok {
		return sat, model, ok
	}
	for i := len(s.models) - 1; i >= 0 && i >= len(s.models)-recentModels; i-- {
		if sat, model, ok = en.run(briefBudget, s.models[i]); ok {
			return sat, model, ok
		}
	}
	return en.run(enumerationBudget, s.Prefer)
}

// complete returns model with every one of vars assigned: a model of
// another query satisfies this one with the variables it does not assign
// read as 0 (expr.Eval), so they must be 0 in the answer too, not left
// for a caller to fill from its seed.
func complete(model expr.Assignment, vars []string) expr.Assignment {
	var out expr.Assignment
	for _, v := range vars {
		if _, ok := model[v]; ok {
			continue
		}
		if out == nil {
			out = make(expr.Assignment, len(model)+len(vars))
			for k, x := range model {
				out[k] = x
			}
		}
		out[v] = 0
	}
	if out == nil {
		return model
	}
	return out
}

// remember caches a query's answer, and its model among the recent ones.
func (s *Solver) remember(key string, sat bool, model expr.Assignment) {
	s.cache[key] = result{sat, model}
	if sat {
		s.models = append(s.models, model)
		if len(s.models) > maxModels {
			s.models = s.models[1:]
		}
	}
}

// interruptOnCancel interrupts Z3 if Cancel closes before the returned
// function is called.
func (s *Solver) interruptOnCancel() func() {
	if s.Cancel == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-s.Cancel:
			s.be.ctx.Interrupt()
		case <-done:
		}
	}()
	return func() {
		close(done)
		<-finished // no interrupt may reach a later query
	}
}

// cacheKey names a conjunction independently of the order of its terms.
// Terms are hash-consed, so their identity is their structure.
func cacheKey(conds []*expr.Expr) string {
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = c.Key()
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// relevant returns the constraints that share variables, directly or
// through other constraints, with vars.
func relevant(constraints []*expr.Expr, vars []*expr.Expr) []*expr.Expr {
	if len(vars) == 0 || len(constraints) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, v := range vars {
		want[v.Name] = true
	}
	taken := make([]bool, len(constraints))
	for changed := true; changed; {
		changed = false
		for i, c := range constraints {
			if taken[i] {
				continue
			}
			vs := expr.VarsOf(c)
			for _, v := range vs {
				if want[v.Name] {
					taken[i], changed = true, true
					for _, w := range vs {
						want[w.Name] = true
					}
					break
				}
			}
		}
	}
	var out []*expr.Expr
	for i, c := range constraints {
		if taken[i] {
			out = append(out, c)
		}
	}
	return out
}

// Decisions are the queries the caches did not answer: decided by
// enumeration or by Z3.
func (st Stats) Decisions() int { return st.Enumerated + st.Bounded + st.Z3Calls }

// independent splits constraints into groups that share no variable,
// transitively, each in the constraints' order; groups are in the order
// of their first constraint. Constraints without variables go with the
// first group.
func independent(constraints []*expr.Expr) [][]*expr.Expr {
	parent := map[string]string{}
	find := func(v string) string {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	first := make([]string, len(constraints))
	for i, c := range constraints {
		for j, v := range expr.VarsOf(c) {
			if _, ok := parent[v.Name]; !ok {
				parent[v.Name] = v.Name
			}
			if j == 0 {
				first[i] = v.Name
			} else if a, b := find(first[i]), find(v.Name); a != b {
				parent[b] = a
			}
		}
	}
	index := map[string]int{}
	var groups [][]*expr.Expr
	for i, c := range constraints {
		root := ""
		if first[i] != "" {
			root = find(first[i])
		}
		g, ok := index[root]
		if !ok {
			if root == "" && len(groups) > 0 {
				g = 0
			} else {
				g = len(groups)
				groups = append(groups, nil)
				index[root] = g
			}
		}
		groups[g] = append(groups[g], c)
	}
	return groups
}
