package analyzer

import (
	"slices"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// The inputs an analysis explores. With --sym-* flags, the inputs they
// name; otherwise (SymInputs "auto", the default) the inputs the program
// was given, symbolic around their values (symex.Around), and, for a
// program run without arguments whose main takes them, one short
// argument too (symex.Invented), and for a program given no standard
// input that reads it, a few bytes of it (stdinRoot); and always the
// inputs the program marks itself (augur_make_symbolic,
// __VERIFIER_nondet_*, havocked calls).
// Every path the exploration finds is then run under the detector with
// its own plan (race.Options.Inputs), and classification makes the same
// inputs symbolic around each race's own (multipath).

// The values of Options.SymInputs.
const (
	SymInputsAuto = "auto"
	SymInputsNone = "none"
)

// autoPaths bounds the paths explored from each root when the inputs are
// symbolic by default: the exploration is a count, so the same program
// and inputs explore the same paths on any machine, and a program with
// many input-dependent branches costs a bounded number of runs.
const autoPaths = 32

// autoInputs reports whether the given inputs are made symbolic by
// default: no --sym-* flag names any, and SymInputs is not "none".
func (o *Options) autoInputs() bool {
	return !o.symbolic() && o.SymInputs != SymInputsNone
}

// inputRoots are the symbolic templates the exploration of inputs starts
// from, the one around the analysis's own inputs first; none when
// nothing is symbolic.
func (o *Options) inputRoots(prog *ir.Program) []vm.Config {
	if o.symbolic() {
		return []vm.Config{o.symbolicRun(false)}
	}
	base := o.Run
	base.PreemptAccesses = false
	marks := classify.UsesSymbolicInputs(prog, o.Run.Undefined)
	if !o.autoInputs() {
		if marks {
			return []vm.Config{base}
		}
		return nil
	}
	// The own root is explored even with nothing symbolic (one run): the
	// invented argument's path is told apart from it by what it covers.
	roots := []vm.Config{symex.Around(base)}
	if len(base.Args) <= 1 && takesArguments(prog) {
		roots = append(roots, symex.Around(symex.Invented(base)))
	}
	if len(roots) == 1 && !symex.Marked(roots[0]) && !marks && !readsStdin(prog) {
		return nil
	}
	return roots
}

// stdinReaders are the C library's functions that read standard input
// without being handed it.
var stdinReaders = map[string]bool{
	"getchar": true, "getchar_unlocked": true, "gets": true, "scanf": true, "__isoc99_scanf": true,
	"vscanf": true, "__isoc99_vscanf": true,
}

// stdinNames are the variables through which code reads standard input
// it is handed: C's stdin, C++'s std::cin and std::wcin.
var stdinNames = []string{"stdin", "_ZSt3cin", "_ZSt4wcin"}

// readsStdin reports whether the program's own code may read standard
// input: it calls a function that reads it implicitly (getchar, scanf),
// reads descriptor 0 (read(0, ...)), or takes the address of stdin or
// std::cin (fgets(line, n, stdin), std::cin >> n). Code in augur's
// runtime, linked whole, and in the C++ headers' stream buffers, compiled
// into every program that includes <iostream>, reads streams in every
// program: only a reference of the program's own counts, so that a
// program with no inputs is not run once more for nothing (stdinRoot).
func readsStdin(prog *ir.Program) bool {
	var addrs []uint64
	for _, name := range stdinNames {
		if g := prog.GlobalByName(name); g != nil {
			addrs = append(addrs, ir.Addr(g.ID, 0))
		}
	}
	for _, f := range prog.Funcs {
		if f.Decl || vm.InRuntime(f.Loc.File) {
			continue
		}
		for _, a := range addrs {
			if slices.Contains(f.Consts, a) {
				return true
			}
		}
		for i := range f.Insts {
			in := &f.Insts[i]
			if in.Op != ir.OpCall || in.Callee == nil {
				continue
			}
			if stdinReaders[in.Callee.Name] {
				return true
			}
			if in.Callee.Name == "read" && len(in.Args) > 0 && int(in.Args[0]) >= f.NumSlots &&
				f.Consts[int(in.Args[0])-f.NumSlots] == 0 {
				return true
			}
		}
	}
	return false
}

// stdinRoot is the root a program given no standard input is explored
// from as well when one of the paths of its own root read it to its end
// (and found nothing): the first such path's arguments, concrete, with a
// few symbolic bytes of standard input (symex.InventedStdin). Only when
// the inputs are symbolic by default, and only after the own root ran, so
// a program that never reads its standard input costs nothing more.
func (o *Options) stdinRoot(own vm.Config, ex *symex.Result) (vm.Config, bool) {
	if !o.autoInputs() || len(own.Stdin) > 0 || own.SymStdin > 0 || own.StdinReader != nil {
		return vm.Config{}, false
	}
	for _, p := range ex.Paths {
		if p.DrainedStdin {
			args := p.Inputs.Args
			if args == nil && len(own.Args) > 1 {
				args = own.Args[1:]
			}
			return symex.InventedStdin(own, args), true
		}
	}
	return vm.Config{}, false
}

// takesArguments reports whether the program's main declares argc.
func takesArguments(prog *ir.Program) bool {
	f := prog.Func("main")
	return f != nil && len(f.Params) > 0
}

// The solver budget of each root when the inputs are symbolic by
// default, in calls of Z3 (vm.Symbolic.MaxPathCalls, MaxCalls). The
// programs of testdata/accuracy make 2 to 15 calls a path and 386 at
// most in all; SPLASH-2 ocean, whose grid size comes from its
// arguments, asks Z3 at nearly every store, about a tenth of a second a
// call, and explored for over fourteen minutes before these budgets.
const (
	autoPathCalls = 128
	autoCalls     = 512
)

// solverBudgetOf is the solver budget of each root: none when the user
// named the symbolic inputs (their exploration is bounded by its time
// and paths, as the user set them).
func (o *Options) solverBudgetOf() (perPath, all int) {
	if o.autoInputs() {
		return autoPathCalls, autoCalls
	}
	return 0, 0
}

// maxPathsOf is the path budget of each root.
func (o *Options) maxPathsOf() int {
	if o.autoInputs() && (o.MaxPaths == 0 || o.MaxPaths > autoPaths) {
		return autoPaths
	}
	return o.MaxPaths
}

// maxRaceInputs bounds the explored inputs detection runs its plan on.
const maxRaceInputs = 16

// maxLongInputs bounds, among them, the inputs on which the exploration's
// own run went past its instruction budget. Detection's run on such an
// input goes as far, to its budget (ten times the first execution), and
// stops there: each costs more than the plan on the analysis's own inputs,
// and shows only a prefix of the program. SPLASH-2 ocean's arguments
// choose its grid, and 9 of the 16 inputs its exploration found were
// bigger grids: their runs were 302 million of its 1.29 billion
// instructions of detection, and found nothing the others did not.
const maxLongInputs = 2

// raceInputs are the inputs detection runs its plan on besides the
// analysis's own: every path of the exploration but the one the given
// inputs take, the paths that reach memory-touching instructions no
// earlier pick reached first (symex.SelectInputs: they show most), then
// those that point an access an input chooses at memory another thread
// touched (Path.Contended), then the others in the order the exploration
// found them (a lock chosen by
// an input, a branch that unlocks early, cover no new line), at most
// maxRaceInputs. own is the path of the analysis's own inputs (nil when
// it was not explored): a path that cannot differ from it (an invented
// argument the program never branched on, covering the same accesses) is
// left out too, and so are the paths past the first maxLongInputs that
// went past their instruction budget; longOut counts those.
func raceInputs(paths []*symex.Path, own *symex.Path) (out []*race.Inputs, longOut int) {
	seen := map[string]bool{}
	long := 0
	add := func(p *symex.Path) {
		if p == own || (own != nil && len(p.Constraints) == 0 && slices.Equal(p.Coverage, own.Coverage)) {
			return
		}
		in := race.Inputs(p.Inputs)
		k := in.Key()
		if seen[k] || len(out) >= maxRaceInputs {
			return
		}
		seen[k] = true
		if p.Term.OutOfInstructions() {
			if long >= maxLongInputs {
				longOut++
				return
			}
			long++
		}
		out = append(out, &in)
	}
	for _, p := range symex.SelectInputs(paths, maxRaceInputs) {
		add(p)
	}
	for _, p := range paths {
		if p.Contended {
			add(p)
		}
	}
	for _, p := range paths {
		add(p)
	}
	return out, longOut
}
