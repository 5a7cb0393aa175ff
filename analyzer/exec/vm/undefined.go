package vm

import (
	"fmt"
	"sort"
	"strings"

	"augur/analyzer/frontend/ir"
)

// UndefinedPolicy is what a call to a function the program declares but
// never defines, and augur does not model, does.
type UndefinedPolicy uint8

const (
	// UndefinedStop ends the execution there as unsupported: the analysis
	// is incomplete and says so.
	UndefinedStop UndefinedPolicy = iota
	// UndefinedHavoc lets the call return an unconstrained value and
	// leaves the memory its pointer arguments point to unchanged. Test
	// harnesses and partial programs declare functions they never define;
	// havoc lets the analysis go on past them, at the price of paths the
	// real function might never allow.
	UndefinedHavoc
)

var undefinedNames = [...]string{"stop", "havoc"}

func (p UndefinedPolicy) String() string { return undefinedNames[p] }

// MarshalText and UnmarshalText encode a policy by its name.
func (p UndefinedPolicy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

func (p *UndefinedPolicy) UnmarshalText(b []byte) error {
	return byName(p, undefinedNames[:], b, "undefined-function policy (stop or havoc)")
}

// ParseUndefined parses a policy name as the --undefined flag and the
// augur.toml key spell it.
func ParseUndefined(s string) (UndefinedPolicy, error) {
	var p UndefinedPolicy
	err := p.UnmarshalText([]byte(s))
	return p, err
}

// havocBlock is the size of the fresh, zeroed object a havocked function
// returning a pointer returns: an unconstrained pointer would make every
// dereference a crash the real function would not cause.
const havocBlock = 4096

// Havocable reports whether a call to f may be havocked: a declared
// function augur has no model of. Intrinsics are not: an unknown one is a
// gap in augur, not in the program.
func (tab *Models) Havocable(f *ir.Function) bool {
	return f.Decl && tab.Lookup(f.Name) == nil && !strings.HasPrefix(f.Name, "llvm.")
}

// Undefined lists the functions prog calls that are declared but defined
// nowhere and that tab does not model, sorted.
func (tab *Models) Undefined(prog *ir.Program) []string {
	var out []string
	for _, f := range prog.Funcs {
		if tab.Havocable(f) {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return out
}

// callUndefined handles a call to a declared function with no model: under
// UndefinedStop it ends the execution as unsupported, naming the function;
// under UndefinedHavoc the call returns an unconstrained value (an input
// named havoc_NAME: symbolic when exploring, its recorded value or 0 in a
// concrete run) and the function is listed in the result.
func (m *Machine) callUndefined(t *Thread, in *ir.Inst, callee *ir.Function, res []Value) error {
	if m.cfg.Undefined != UndefinedHavoc || !m.cfg.Models.Havocable(callee) {
		return &termError{&Termination{Kind: TermUnsupported, Function: callee.Name,
			Message: fmt.Sprintf("call to external function '%s', which augur does not model", callee.Name)}}
	}
	m.noteHavoc(callee.Name)
	if len(res) == 0 {
		return nil
	}
	for i := range res {
		res[i] = Value{}
	}
	switch in.Ty.Kind {
	case ir.KPtr:
		p, err := m.Malloc(t, havocBlock, in.Loc, "")
		SetResult(res, p)
		return err
	case ir.KInt:
		name := m.inputName("havoc_" + callee.Name)
		if m.sym == nil {
			SetResult(res, m.cfg.Inputs[name]&ir.Mask(in.Ty.Bits))
			return nil
		}
		m.sym.seed(name, m.cfg.Inputs[name], true) // the replayed value, if any, is the path to follow first
		res[0] = Value{Sym: m.sym.B.Variable(name, in.Ty.Bits)}
	}
	return nil // floating-point and aggregate results stay zero
}

// noteHavoc records that name was havocked in this execution.
func (s *state) noteHavoc(name string) {
	i := sort.SearchStrings(s.havocked, name)
	if i < len(s.havocked) && s.havocked[i] == name {
		return
	}
	out := make([]string, 0, len(s.havocked)+1) // forks share the old slice
	out = append(append(append(out, s.havocked[:i]...), name), s.havocked[i:]...)
	s.havocked = out
}
