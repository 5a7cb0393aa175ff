package symex

import (
	"bytes"

	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/vm"
)

// SameOutput reports whether two executions' outputs are the same for
// every input satisfying both of their path constraints: same streams,
// same bytes where the output is concrete, and where it was computed from
// symbolic inputs the same format with arguments the solver proves equal.
// Outputs split into events differently (two printfs against one) compare
// by their concrete bytes only when neither side is symbolic.
func SameOutput(sym *vm.Symbolic, a, b []vm.OutputEvent) (bool, error) {
	a, b = vm.Printed(a), vm.Printed(b)
	if !anySymbolic(a) && !anySymbolic(b) {
		return bytes.Equal(streamBytes(a, 1), streamBytes(b, 1)) && bytes.Equal(streamBytes(a, 2), streamBytes(b, 2)), nil
	}
	if len(a) != len(b) {
		return false, nil
	}
	for i := range a {
		same, err := sameEvent(sym, &a[i], &b[i])
		if err != nil || !same {
			return same, err
		}
	}
	return true, nil
}

func sameEvent(sym *vm.Symbolic, x, y *vm.OutputEvent) (bool, error) {
	if x.Stream != y.Stream {
		return false, nil
	}
	if x.Format == "" && y.Format == "" {
		return bytes.Equal(x.Data, y.Data), nil
	}
	b := sym.B
	constraints := append(append([]*expr.Expr(nil), x.Constraints...), y.Constraints...)
	if x.Format == "" || y.Format == "" {
		// One side printed fixed bytes: the other must print them for every
		// input, so each of its terms must be fixed to the value it shows.
		s := x
		if s.Format == "" {
			s = y
		}
		model, sat, err := sym.S.Model(constraints)
		if err != nil || !sat {
			return false, err
		}
		for _, t := range s.Args {
			fixed, err := sym.S.MustBeTrue(b, constraints, b.Binary(expr.Eq, t, b.Constant(expr.Eval(t, model), t.Width)))
			if err != nil || !fixed {
				return false, err
			}
		}
		return bytes.Equal(x.Data, y.Data), nil
	}
	if x.Format != y.Format || len(x.Args) != len(y.Args) {
		return false, nil
	}
	all := b.Constant(1, 1)
	for i := range x.Args {
		all = b.Binary(expr.And, all, b.Binary(expr.Eq, b.ZExt(x.Args[i], 64), b.ZExt(y.Args[i], 64)))
	}
	return sym.S.MustBeTrue(b, constraints, all)
}

func anySymbolic(evs []vm.OutputEvent) bool {
	for i := range evs {
		if evs[i].Format != "" {
			return true
		}
	}
	return false
}

func streamBytes(evs []vm.OutputEvent, stream int) []byte {
	var out []byte
	for i := range evs {
		if evs[i].Stream == stream {
			out = append(out, evs[i].Data...)
		}
	}
	return out
}

// DifferingInput looks for inputs on which two executions, with path
// constraints pcA and pcB, take their paths and print different output:
// their constraints together, and where the outputs hold terms, one
// argument different. It returns the constraints such inputs satisfy,
// or nil when there are none (the outputs are the same wherever both
// paths are taken).
func DifferingInput(sym *vm.Symbolic, pcA []*expr.Expr, a []vm.OutputEvent, pcB []*expr.Expr, b []vm.OutputEvent) ([]*expr.Expr, error) {
	both := append(append([]*expr.Expr(nil), pcA...), pcB...)
	differ, err := outputsDiffer(sym, a, b)
	if err != nil || differ == nil {
		return nil, err
	}
	if differ != alwaysDiffer {
		both = append(both, differ)
	}
	_, sat, err := sym.S.Model(both)
	if err != nil || !sat {
		return nil, err
	}
	return both, nil
}

// alwaysDiffer marks outputs that differ whatever the inputs.
var alwaysDiffer = &expr.Expr{}

// outputsDiffer returns the condition on the inputs under which outputs a
// and b differ: alwaysDiffer when they differ in their concrete bytes or
// shape, a term over the arguments when they differ only there, nil when
// they cannot differ.
func outputsDiffer(sym *vm.Symbolic, a, b []vm.OutputEvent) (*expr.Expr, error) {
	a, b = vm.Printed(a), vm.Printed(b)
	if !anySymbolic(a) && !anySymbolic(b) {
		if bytes.Equal(streamBytes(a, 1), streamBytes(b, 1)) && bytes.Equal(streamBytes(a, 2), streamBytes(b, 2)) {
			return nil, nil
		}
		return alwaysDiffer, nil
	}
	if len(a) != len(b) {
		return alwaysDiffer, nil
	}
	bld := sym.B
	var any *expr.Expr
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Stream != y.Stream || x.Format != y.Format || len(x.Args) != len(y.Args) {
			return alwaysDiffer, nil
		}
		if x.Format == "" {
			if !bytes.Equal(x.Data, y.Data) {
				return alwaysDiffer, nil
			}
			continue
		}
		for j := range x.Args {
			ne := bld.Not(bld.Binary(expr.Eq, bld.ZExt(x.Args[j], 64), bld.ZExt(y.Args[j], 64)))
			if any == nil {
				any = ne
			} else {
				any = bld.Binary(expr.Or, any, ne)
			}
		}
	}
	return any, nil
}
