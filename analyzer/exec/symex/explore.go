package symex

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"time"

	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/solver"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Options configure an exploration.
type Options struct {
	// Run is the template of the initial state: concrete arguments (the
	// seed), budgets per path, SymArgs. Its output is discarded.
	Run      vm.Config
	Searcher string
	Seed     uint64
	// MaxPaths stops after this many completed paths (0: DefaultMaxPaths).
	MaxPaths int
	// MaxLive bounds the pending states; forks past it are refused.
	MaxLive int
	// Timeout bounds the whole exploration (0: none).
	Timeout time.Duration
	// SolverTimeout bounds each solver query (0: 5s).
	SolverTimeout time.Duration
	// MaxMemory stops exploring when the Go heap exceeds it (0: 4 GiB).
	MaxMemory uint64
	// Weak explores under the weak memory model: a read with several
	// visible values forks like a symbolic branch.
	Model memmodel.Model
	// AllSchedules forks at every scheduling decision (switching threads
	// at shared accesses too), so every interleaving is explored, within
	// MaxForks.
	AllSchedules bool
	// MaxForks bounds the states weak reads and schedule forks create
	// (0: 100,000 each).
	MaxForks int
	// MaxPathCalls and MaxCalls are the solver budget in calls of Z3 (0:
	// none), per path and in all: past them a path follows one solution
	// of its constraint (vm.Symbolic).
	MaxPathCalls, MaxCalls int
	// SeedBudget, when set, gives the instruction budget of every path
	// run after the seed's own (the given inputs') from what that one ran
	// to its exit, when that is less than Run.MaxInstructions: another
	// input that makes the program run ten times longer (a grid's size)
	// is not run to the budget of an unknown program.
	SeedBudget func(instructions uint64) uint64
	// PathsBudget, when set, gives from the same count the instructions
	// the paths after the seed's may run in all: a program whose options
	// each run the whole workload (pigz's -k, -f, -p) costs a bounded
	// multiple of one run, not one run per option. The path that reaches
	// it is stopped there, and the exploration ends.
	PathsBudget func(instructions uint64) uint64
	// SeedRan, when set, is told the seed's path's peak footprint as soon
	// as it ran, whatever its end: the exploration goes on meanwhile.
	SeedRan func(footprint uint64)
}

// DefaultMaxPaths is Options.MaxPaths when it is 0.
const DefaultMaxPaths = 1000

// Inputs are the concrete inputs of a path.
type Inputs struct {
	Args  []string          `json:"args"`
	Stdin string            `json:"stdin,omitempty"`
	Files map[string]string `json:"files,omitempty"`
	Vars  map[string]uint64 `json:"vars,omitempty"` // every input variable, by name
}

// Path is one explored path.
type Path struct {
	Term         *vm.Termination
	Inputs       Inputs
	Output       []vm.OutputEvent
	Constraints  []*expr.Expr
	Instructions uint64
	// Coverage is what the path touched in memory (SelectInputs).
	Coverage Coverage
	// Seed is set on the path the exploration's root takes itself: the
	// one its given inputs take, with those inputs.
	Seed bool
	// Contended is set on a path whose inputs point an access they choose
	// at memory another thread touched or a lock it held
	// (vm.Machine.Contended): race detection runs it early.
	Contended bool
	// DrainedStdin is set on a path that read its standard input to the
	// end (vm.Library.StdinDrained).
	DrainedStdin bool
}

// Failed reports whether the path ended in a failure: not an exit, not
// pruned, not stopped by a budget of the analysis's own (a path that runs
// past its instructions is the analysis's limit, not the program's
// failure).
func (p *Path) Failed() bool {
	switch p.Term.Kind {
	case vm.TermExit, vm.TermPruned, vm.TermBudget, vm.TermCanceled:
		return false
	}
	return true
}

// Stats describe an exploration.
type Stats struct {
	Paths            int
	Pruned           int
	Forks            int
	ForksRefused     int
	Queries          int
	Z3Calls          int
	CacheHits        int
	ModelHits        int
	SolverTimeouts   int
	FloatConcretized int
	// PointerTargetsGivenUp counts symbolic pointers with more possible
	// target objects than were followed.
	PointerTargetsGivenUp int
	// Pinned counts the paths that went on along one solution of their
	// constraint, past the solver budget.
	Pinned int
	// WeakForks and ScheduleForks count the states forked at reads with
	// several visible values and at scheduling decisions.
	WeakForks     int
	ScheduleForks int
	StaleReads    int
	Instructions  uint64
	Elapsed       time.Duration
	StoppedBy     string // "" when every path was explored
	// PathBudget is the instruction budget the paths after the given
	// inputs' had, set from what that one ran (Options.SeedBudget); 0
	// when they had Run.MaxInstructions.
	PathBudget uint64
	// PathsBudget is what the paths after the given inputs' could run in
	// all (Options.PathsBudget; 0: no such budget).
	PathsBudget uint64
	PeakLive    int    // most pending states at once
	PeakHeap    uint64 // Go heap in use when PeakLive was reached (sampled)
}

// Result is what an exploration found.
type Result struct {
	Paths    []*Path
	Failures []*Path
	Stats    Stats
	// Symbolic holds the builder and solver the paths' terms belong to,
	// for comparing their outputs (SameOutput).
	Symbolic *vm.Symbolic
}

// Explore runs every path of prog reachable with its symbolic inputs,
// within the budgets.
func Explore(prog *ir.Program, opts Options) (*Result, error) {
	if opts.MaxPaths == 0 {
		opts.MaxPaths = DefaultMaxPaths
	}
	if opts.SolverTimeout == 0 {
		opts.SolverTimeout = 5 * time.Second
	}
	if opts.MaxMemory == 0 {
		opts.MaxMemory = 4 << 30
	}
	search, err := NewSearcher(opts.Searcher, opts.Seed)
	if err != nil {
		return nil, err
	}
	// The time budget stops the path running too, not only the next one
	// from starting: one path of a program whose stores all go to
	// addresses an input chooses can take longer than the whole budget.
	start := time.Now()
	stop, release := withDeadline(opts.Run.Cancel, opts.Timeout)
	defer release()
	slv := solver.New(opts.SolverTimeout)
	slv.Cancel = stop
	sym := vm.NewSymbolic(slv)
	sym.MaxPathCalls, sym.MaxCalls = opts.MaxPathCalls, opts.MaxCalls
	if opts.MaxLive > 0 {
		sym.MaxForks = opts.MaxLive * 4
	}
	cfg := opts.Run
	cfg.Stdout, cfg.Stderr, cfg.StdinReader, cfg.StdoutLineBuffered = nil, nil, nil, false
	cfg.Symbolic = sym
	cfg.Cancel = stop
	if cfg.Monitor == nil {
		cfg.Monitor = newAccessCoverage(prog)
	}
	// Searchers other than depth-first interleave states: a state pauses
	// after each fork and rejoins the queue, so breadth-first really
	// explores level by level.
	cfg.PauseAtFork = opts.Searcher != "" && opts.Searcher != "dfs"
	maxForks := opts.MaxForks
	if maxForks == 0 {
		maxForks = 100000
	}
	var weak *vm.Weak
	var schedules *vm.ScheduleForks
	if opts.Model == memmodel.Weak {
		weak = &vm.Weak{MaxForks: maxForks}
		cfg.Weak = weak
	}
	if opts.AllSchedules {
		schedules = &vm.ScheduleForks{MaxForks: maxForks}
		cfg.ScheduleForks = schedules
		cfg.PreemptAccesses = true
	}
	cfg.Models = libc.Models()
	root, err := vm.New(prog, cfg)
	if err != nil {
		return nil, err
	}
	root.SetWeakReads(opts.Model == memmodel.Weak)
	res := &Result{Symbolic: sym}
	search.Add(root)
	var ms runtime.MemStats
	lastSample := 1
	var budget uint64       // the paths' instruction budget from the seed's (SeedBudget)
	var total, spent uint64 // what the paths after the seed's may run and ran (PathsBudget)
	for search.Len() > 0 {
		if len(res.Paths) >= opts.MaxPaths {
			res.Stats.StoppedBy = fmt.Sprintf("path budget (%d)", opts.MaxPaths)
			break
		}
		if opts.Run.Canceled() {
			res.Stats.StoppedBy = "cancellation"
			break
		}
		if opts.Timeout > 0 && time.Since(start) > opts.Timeout {
			res.Stats.StoppedBy = fmt.Sprintf("time budget (%s)", opts.Timeout)
			break
		}
		if len(res.Paths)%64 == 63 {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > opts.MaxMemory {
				res.Stats.StoppedBy = fmt.Sprintf("memory budget (%d MiB)", opts.MaxMemory>>20)
				break
			}
		}
		if total > 0 && spent >= total {
			res.Stats.StoppedBy = fmt.Sprintf("instruction budget (%d)", total)
			break
		}
		m := search.Next()
		b := budget
		if total > 0 && (b == 0 || b > total-spent) {
			b = total - spent
		}
		if b > 0 && (m.MaxInstructions() == 0 || m.MaxInstructions() > b) {
			m.SetMaxInstructions(b)
		}
		run := m.Run()
		if run.Term.Kind == vm.TermCanceled || opts.Timeout > 0 && time.Since(start) > opts.Timeout && run.Term.Kind == vm.TermSolver {
			// Stopped midway by the budget: not a path.
			continue
		}
		spawned := m.Spawned()
		if opts.MaxLive > 0 && search.Len()+len(spawned) > opts.MaxLive {
			keep := max(0, opts.MaxLive-search.Len())
			sym.Stats.ForksRefused += len(spawned) - keep
			spawned = spawned[:keep]
		}
		search.Add(spawned...)
		if run.Term.Kind == vm.TermPaused {
			search.Add(m)
		}
		if n := search.Len(); n > res.Stats.PeakLive {
			res.Stats.PeakLive = n
			if n >= 2*lastSample {
				runtime.ReadMemStats(&ms)
				res.Stats.PeakHeap, lastSample = ms.HeapAlloc, n
			}
		}
		if run.Term.Kind == vm.TermPaused {
			continue
		}
		res.Stats.Instructions += run.Instructions
		if m != root {
			spent += run.Instructions
		}
		if run.Term.Kind == vm.TermPruned {
			res.Stats.Pruned++
			continue
		}
		p := &Path{Term: run.Term, Output: run.Output, Constraints: m.PathConstraint(), Instructions: run.Instructions, Seed: m == root, Contended: m.Contended(),
			DrainedStdin: m.Library() != nil && m.Library().StdinDrained()}
		if c, ok := m.Monitor().(*accessCoverage); ok {
			p.Coverage = c.keys()
		}
		if p.Inputs, err = InputsOf(sym, m, cfg); err != nil {
			p.Term = &vm.Termination{Kind: vm.TermSolver, Message: err.Error()}
		}
		res.Paths = append(res.Paths, p)
		if p.Seed && opts.SeedRan != nil {
			opts.SeedRan(run.PeakFootprint)
		}
		if p.Seed && opts.SeedBudget != nil && run.Term.Kind == vm.TermExit {
			budget = opts.SeedBudget(run.Instructions)
			res.Stats.PathBudget = budget
			if max := opts.Run.MaxInstructions; max != 0 && max < budget {
				res.Stats.PathBudget = max // the smaller applies (above)
			}
			if opts.PathsBudget != nil {
				total = opts.PathsBudget(run.Instructions)
				res.Stats.PathsBudget = total
			}
		}
		if p.Failed() {
			res.Failures = append(res.Failures, p)
		}
	}
	st := &res.Stats
	st.Paths = len(res.Paths)
	st.Forks, st.ForksRefused, st.FloatConcretized = sym.Stats.Forks, sym.Stats.ForksRefused, sym.Stats.FloatConcretized
	st.PointerTargetsGivenUp, st.Pinned = sym.Stats.PointerTargetsGivenUp, sym.Stats.Pinned
	if weak != nil {
		st.WeakForks, st.StaleReads = weak.Stats.Forks, weak.Stats.StaleReads
		st.ForksRefused += weak.Stats.ForksRefused
	}
	if schedules != nil {
		st.ScheduleForks = schedules.Forks
		st.ForksRefused += schedules.ForksRefused
	}
	st.Queries, st.Z3Calls, st.CacheHits, st.ModelHits, st.SolverTimeouts = sym.S.Stats.Queries, sym.S.Stats.Z3Calls,
		sym.S.Stats.CacheHits, sym.S.Stats.ModelHits, sym.S.Stats.Timeouts
	st.Elapsed = time.Since(start)
	return res, nil
}

// withDeadline returns a channel closed when cancel is or once d has
// passed (never by time when d is 0), and the function that releases its
// timer.
func withDeadline(cancel <-chan struct{}, d time.Duration) (<-chan struct{}, func()) {
	if d <= 0 {
		return cancel, func() {}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	timer := time.NewTimer(d)
	go func() {
		defer timer.Stop()
		select {
		case <-cancel:
		case <-timer.C:
		case <-done:
			return
		}
		close(stop)
	}()
	return stop, func() { close(done) }
}

// InputsOf solves a finished state's path constraint into concrete inputs:
// argv strings for the symbolic arguments and the value of every input
// variable (unconstrained ones keep their seed value).
func InputsOf(sym *vm.Symbolic, m *vm.Machine, cfg vm.Config) (Inputs, error) {
	return InputsFor(sym, m.PathConstraint(), cfg)
}

// InputsFor solves the constraints pc into concrete inputs, as InputsOf
// does a state's path constraint.
func InputsFor(sym *vm.Symbolic, pc []*expr.Expr, cfg vm.Config) (Inputs, error) {
	var model expr.Assignment
	if !expr.Satisfies(sym.Seed, pc) {
		// The seed takes another path: ask the solver for inputs that take
		// this one. (A path the seed takes keeps the seed's values, so the
		// concrete run's own path has the inputs it was given.)
		var sat bool
		var err error
		model, sat, err = sym.S.Model(pc)
		if err != nil {
			return Inputs{}, err
		}
		if !sat {
			return Inputs{}, fmt.Errorf("path constraint unsatisfiable")
		}
	}
	vars := map[string]uint64{}
	for name, v := range sym.Seed {
		vars[name] = v
	}
	for name, v := range model {
		vars[name] = v
	}
	in := Inputs{Vars: vars}
	args := append([]string(nil), cfg.Args...)
	for len(args) < 1+len(cfg.SymArgs) {
		args = append(args, "")
	}
	// Each symbolic input's first n bytes are variables; the rest of its
	// seed stays as it was (vm.Machine.SymbolicBytes).
	bytesOf := func(name string, seed []byte, n int) []byte {
		b := make([]byte, max(n, len(seed)))
		copy(b, seed)
		for i := 0; i < n; i++ {
			b[i] = byte(vars[fmt.Sprintf("%s[%d]", name, i)])
		}
		return b
	}
	for i, n := range cfg.SymArgs {
		b := bytesOf(fmt.Sprintf("arg%d", i+1), []byte(args[i+1]), n)
		if end := bytes.IndexByte(b, 0); end >= 0 {
			b = b[:end] // the program sees the string up to its first NUL
		}
		args[i+1] = string(b)
	}
	if len(args) > 0 {
		in.Args = args[1:]
	}
	if cfg.SymStdin > 0 {
		in.Stdin = string(bytesOf("stdin", cfg.Stdin, cfg.SymStdin))
	}
	for name, n := range cfg.SymFiles {
		if in.Files == nil {
			in.Files = map[string]string{}
		}
		in.Files[name] = string(bytesOf(name, cfg.Files[name], n))
	}
	return in, nil
}

// SortedVars lists input variables in name order, for stable reports.
func (in Inputs) SortedVars() []string {
	names := make([]string, 0, len(in.Vars))
	for n := range in.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
