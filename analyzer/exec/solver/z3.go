package solver

import (
	"fmt"
	"math/big"
	"time"

	"github.com/aclements/go-z3/z3"

	"augur/analyzer/exec/expr"
)

// backend translates expressions to Z3 and runs queries. A z3.Context is
// not safe for concurrent use: each Solver owns one, and a Solver belongs to
// one goroutine.
type backend struct {
	ctx *z3.Context
	// s is the one Z3 solver; each query runs in its own push/pop scope.
	// Creating a solver per query costs about 14 ms in Z3 4.8 (it sets up
	// the combined solver); a scope costs a fraction of a millisecond.
	s       *z3.Solver
	timeout time.Duration
	memo    map[*expr.Expr]z3.BV
	conds   map[*expr.Expr]z3.Bool
	vars    map[string]z3.BV
	// one and zero are the width-1 constants; kept holds the models and
	// values the queries made. Nothing the backend makes is let go before
	// it is: go-z3 gives an object back to Z3 when the Go collector finds
	// its wrapper unreachable, and Z3 hands a freed object's id to the
	// next one it makes, so the ids, and with them the model Z3 picks for
	// the same query, followed the collector's timing (the inputs an
	// exploration solved to differed between runs).
	one, zero z3.BV
	kept      []any
}

func newBackend(timeout time.Duration, rlimit uint) *backend {
	cfg := z3.NewContextConfig()
	cfg.SetUint("timeout", uint(timeout.Milliseconds()))
	if rlimit > 0 {
		cfg.SetUint("rlimit", rlimit)
	}
	ctx := z3.NewContext(cfg)
	b := &backend{ctx: ctx, s: z3.NewSolver(ctx), timeout: timeout, memo: map[*expr.Expr]z3.BV{},
		conds: map[*expr.Expr]z3.Bool{}, vars: map[string]z3.BV{}}
	bit := ctx.BVSort(1)
	b.one, b.zero = ctx.FromInt(1, bit).(z3.BV), ctx.FromInt(0, bit).(z3.BV)
	b.kept = append(b.kept, bit)
	return b
}

// bv translates e into a Z3 bit-vector of e.Width bits. Width-1 terms stand
// for booleans (1 true, 0 false).
func (b *backend) bv(e *expr.Expr) z3.BV {
	if t, ok := b.memo[e]; ok {
		return t
	}
	var t z3.BV
	kid := func(i int) z3.BV { return b.bv(e.Kids[i]) }
	switch e.Op {
	case expr.Const:
		t = b.ctx.FromBigInt(new(big.Int).SetUint64(e.Val), b.ctx.BVSort(int(e.Width))).(z3.BV)
	case expr.Var:
		t = b.ctx.BVConst(e.Name, int(e.Width))
		b.vars[e.Name] = t
	case expr.Add:
		t = kid(0).Add(kid(1))
	case expr.Sub:
		t = kid(0).Sub(kid(1))
	case expr.Mul:
		t = kid(0).Mul(kid(1))
	case expr.UDiv:
		t = kid(0).UDiv(kid(1))
	case expr.SDiv:
		t = kid(0).SDiv(kid(1))
	case expr.URem:
		t = kid(0).URem(kid(1))
	case expr.SRem:
		t = kid(0).SRem(kid(1))
	case expr.Shl:
		t = kid(0).Lsh(kid(1))
	case expr.LShr:
		t = kid(0).URsh(kid(1))
	case expr.AShr:
		t = kid(0).SRsh(kid(1))
	case expr.And:
		t = kid(0).And(kid(1))
	case expr.Or:
		t = kid(0).Or(kid(1))
	case expr.Xor:
		t = kid(0).Xor(kid(1))
	case expr.Not:
		t = kid(0).Not()
	case expr.Eq:
		t = b.fromBool(kid(0).Eq(kid(1)))
	case expr.Ult:
		t = b.fromBool(kid(0).ULT(kid(1)))
	case expr.Ule:
		t = b.fromBool(kid(0).ULE(kid(1)))
	case expr.Slt:
		t = b.fromBool(kid(0).SLT(kid(1)))
	case expr.Sle:
		t = b.fromBool(kid(0).SLE(kid(1)))
	case expr.ZExt:
		t = kid(0).ZeroExtend(int(e.Width - e.Kids[0].Width))
	case expr.SExt:
		t = kid(0).SignExtend(int(e.Width - e.Kids[0].Width))
	case expr.Extract:
		lo := int(e.Val)
		t = kid(0).Extract(lo+int(e.Width)-1, lo)
	case expr.Concat:
		t = kid(0).Concat(kid(1))
	case expr.Ite:
		t = b.cond(e.Kids[0]).IfThenElse(kid(1), kid(2)).(z3.BV)
	default:
		panic(fmt.Sprintf("solver: no translation for %s", e.Op))
	}
	b.memo[e] = t
	return t
}

func (b *backend) fromBool(c z3.Bool) z3.BV {
	b.kept = append(b.kept, c)
	return c.IfThenElse(b.one, b.zero).(z3.BV)
}

// cond translates a width-1 term to a Z3 boolean.
func (b *backend) cond(e *expr.Expr) z3.Bool {
	if c, ok := b.conds[e]; ok {
		return c
	}
	c := b.bv(e).Eq(b.one)
	b.conds[e] = c
	return c
}

// check decides whether all conditions can hold together and returns a
// model over vars when they can.
func (b *backend) check(conds []*expr.Expr, vars []string) (sat bool, model expr.Assignment, err error) {
	// go-z3 panics on an error Z3 reports, as Z3 does on every call
	// after an interrupt (Solver.Cancel) until the call that noticed it
	// returns: "canceled". That is this query's failure, not the
	// interpreter's.
	defer func() {
		if r := recover(); r != nil {
			sat, model, err = false, nil, fmt.Errorf("z3: %v", r)
		}
	}()
	s := b.s
	s.Push()
	defer s.Pop()
	for _, c := range conds {
		s.Assert(b.cond(c))
	}
	sat, err = s.Check()
	if err != nil {
		return false, nil, err
	}
	if !sat {
		return false, nil, nil
	}
	m := s.Model()
	b.kept = append(b.kept, m)
	model = expr.Assignment{}
	for _, name := range vars {
		v, ok := b.vars[name]
		if !ok {
			continue
		}
		x := m.Eval(v, true).(z3.BV)
		b.kept = append(b.kept, x)
		val, _, _ := x.AsUint64()
		model[name] = val
	}
	return true, model, nil
}
