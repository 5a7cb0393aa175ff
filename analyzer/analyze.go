// Package analyzer runs one analysis of a loaded program, the pipeline
// the CLI and the language server share: the exploration of symbolic
// inputs, detection over many schedules, and the classification of every
// race, into a Result both render (analyzer/output/report). Loading the
// program (analyzer/frontend/load) comes before it; reports, fixes and
// their verification (analyzer/output) after.
package analyzer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/detect/tsan"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/resolve"
	"augur/analyzer/frontend/srctext"
	"augur/analyzer/judge/classify"
	"augur/analyzer/judge/farm"
	"augur/analyzer/judge/history"
	"augur/analyzer/judge/pattern"
	"augur/analyzer/output/evidence"
	"augur/analyzer/output/fix"
)

// Options configure one analysis of a loaded program: detection over
// several schedules, then the classification of every race, then (when
// inputs are symbolic) an exploration of the input space for failures not
// tied to a race. `augur analyze` and the language server both fill it.
type Options struct {
	// Run is the template of every execution: argv (argv[0] included),
	// stdin, the virtual file system and the budgets.
	Run vm.Config
	// AutoInstructions makes the instruction budget follow the program
	// (race.Options.AutoInstructions): detection's first execution has
	// none, and the later ones, and classification's, a multiple of what
	// it ran. Run.MaxInstructions is then the budget of the exploration
	// of symbolic inputs, which runs before any execution is measured.
	AutoInstructions bool
	// Sources are the program's files, and Build how they were compiled:
	// evidence names both, so a replay rebuilds the same program.
	Sources []string
	// Resolved says which of Sources augur took from the project to
	// complete the program, and what it left out (the report says).
	Resolved  *resolve.Result
	Build     build.Options
	Schedules int // base detection executions (default 5)
	// Directed bounds the executions after the base ones: on explored
	// inputs and race-directed (0: Schedules; negative: none).
	Directed int
	Seed     uint64
	// DetectOnly leaves every race unclassified.
	DetectOnly bool
	// Classifier is "portend" (the default) or "replay-analyzer" (the
	// PLDI 2007 baseline).
	Classifier string
	// MemoryModel is sequential consistency (the default) or weak
	// (Portend+'s weak ordering): classification and the exploration of
	// inputs then follow every value the model lets a read return.
	MemoryModel memmodel.Model
	Ma, Mp      int // post-race schedules per primary; primary paths (multipath)
	// SymArgs, SymStdin and SymFiles make inputs symbolic (see vm.Config).
	SymArgs  []int
	SymStdin int
	SymFiles map[string]int
	// SymInputs says what is symbolic when no Sym* field names anything:
	// "auto" (or "") the inputs given, around their values, and one short
	// argument for a program given none (inputs.go); "none" nothing but
	// what the program marks itself.
	SymInputs string
	// Searcher, MaxPaths and ExploreTimeout bound the exploration of
	// symbolic inputs for failures.
	Searcher       string
	MaxPaths       int
	ExploreTimeout time.Duration
	// ExploreTime is how long detection may go on exploring schedules after
	// its plan (race.Explore): PCT over the accesses of the races found,
	// while new schedules keep finding new behaviour. 0 sets no time of
	// its own: the exploration ends on its counts or on its instructions
	// (ExploreInstructions), at the same schedule on any machine, within
	// the analysis's Timeout. A time ends it wherever the machine got to,
	// so its results then depend on the machine's load (the editor's
	// saves, which add up over a history, use one). Negative turns the
	// exploration off.
	ExploreTime time.Duration
	// ExploreInstructions bounds the instructions that exploration's
	// schedules interpret in all (race.Explore.Instructions), and as much
	// the plans on explored inputs and the race-directed runs, each
	// (race.Options.StageInstructions): 0 follows the program (each has
	// what its first schedule ran, at least race.ExploreFloor unless that
	// was race.LongRun or more),
	// race.Unbounded sets none. Ending by it, a stage ends at the same
	// execution on any machine.
	ExploreInstructions uint64
	// EvidenceDir, when set, receives the evidence of every harmful race.
	EvidenceDir string
	// Workers classify races in parallel (0: one per CPU).
	Workers int
	// Farm is where classification jobs run: "" in a pool of Workers
	// goroutines; FarmEmbedded through a NATS server embedded in the
	// process, with Workers worker goroutines (the code path of a farm of
	// machines, analyzer/judge/farm); or a NATS URL (nats://HOST:PORT), whose
	// `augur worker` processes run them.
	Farm string
	// ReadFile reads a source file for what the analysis takes from its
	// text: `augur:ignore` comments and the names of racing memory (nil:
	// the file on disk).
	ReadFile func(path string) ([]byte, error)
	// History, when set, is the file where the analyses of this program
	// keep what they learned (analyzer/judge/history): each analysis tries new
	// schedules, keeps the races earlier ones found, and adds up k.
	// Results then depend on the analyses before; "" (the command line's
	// default) keeps every analysis independent.
	History string
	// Timeout is the wall-time budget of the whole analysis (0: none);
	// Deadline, when set, is when it runs out (a caller that also counts
	// the build sets it before building), otherwise Analyze starts the
	// clock. When it runs out the analysis stops and keeps what it found
	// (Result.Stopped).
	Timeout  time.Duration
	Deadline time.Time
	// Focus are access locations (file:line:col) to preempt at from the
	// first PCT schedule on, as if an earlier analysis had found races
	// there: a fix's verification points the analysis of the changed
	// program at where the original raced.
	Focus []string
	// TSan are ThreadSanitizer's data race warnings about this program
	// (`--tsan-report`): their races are directed at and classified like
	// augur's own (package tsan).
	TSan []tsan.Warning
}

// Observer is told how an analysis progresses. Every callback runs on the
// goroutine that called Analyze, one at a time; any may be nil.
type Observer struct {
	// Progress reports a stage ("detecting", "classifying", "exploring")
	// and how far it is, done out of total.
	Progress func(stage string, done, total int)
	// Detected is called once detection is over, with every race still
	// unclassified.
	Detected func(*Result)
	// Classified is called when race i has its verdict, and again if the
	// verdict changes once every race has one (classify.Attribute).
	Classified func(r *Result, i int)
}

// Result is what an analysis found. Races, Verdicts and Evidence are
// parallel: Verdicts[i] stays nil until race i is classified (or for
// ever with DetectOnly), Evidence[i] is "" unless evidence was written.
type Result struct {
	Detection *race.Result
	Races     []*race.Race
	Verdicts  []*classify.Verdict
	Evidence  []string
	// InputFailures are the failures the exploration of inputs found that
	// detection did not, each run again on its inputs for a schedule to
	// replay; FailureEvidence are the evidence files of the failures, by
	// FailureKey. Both are empty unless evidence is written.
	InputFailures   []*race.Failure
	FailureEvidence map[string]string
	Ignored         []*race.Race  // races silenced by `augur:ignore`
	Exploration     *symex.Result // nil without symbolic inputs
	Options         *Options      // what produced the result
	Elapsed         time.Duration
	// Warnings are problems that did not stop the analysis (evidence that
	// could not be written), one sentence each.
	Warnings []string
	// Stopped is set when the analysis ran out of its time budget before
	// it was done, with what it was doing then: the results are partial.
	Stopped *Stop
	// Cuts are the parts a budget left out of an analysis that went on
	// (the rest of a race's harm search, its later occurrences, the runs
	// that give the input exploration's failures a schedule): each makes
	// the analysis incomplete without stopping it.
	Cuts []Stop
	// TSan gives the races that ThreadSanitizer warnings (Options.TSan)
	// reported the warnings' indices; TSanMissed are the warnings augur
	// did not reproduce, with why (tsan.Locate, tsan.Match).
	TSan       map[*race.Race][]int
	TSanMissed []tsan.Miss
	// Patterns are the benign patterns the harmless and single-ordering
	// races follow, with their evidence, parallel to Races (nil: none).
	Patterns []*pattern.Pattern
	// Fixes are the fixes proposed for each race, verified or rejected,
	// parallel to Races (fixcheck.Suggest; nil when it did not run).
	Fixes [][]fix.Fix
	// SymbolicInputs describe the inputs the exploration made symbolic
	// ("argv[1] (2 bytes)"), empty when it made none.
	SymbolicInputs []string
	// LongInputsLeftOut counts the explored inputs detection did not run
	// on because the exploration's run of them went past its instruction
	// budget, past the first maxLongInputs such (raceInputs).
	LongInputsLeftOut int
}

// analysis is one run of Analyze's stages: the result they fill, and
// what they hand each other that the result does not keep.
type analysis struct {
	*Result
	// explored are the inputs of the exploration's paths detection runs
	// its plan on (raceInputs).
	explored []*race.Inputs
}

// Stop says how an analysis was cut short by a budget.
type Stop struct {
	// Budget is the budget that ran out; NoBudget when something failed
	// (Message says what).
	Budget  vm.Budget
	Message string
	// Stage is what the analysis was doing: "detecting" (Done of Total
	// schedules ran), "classifying" (Done of Total races classified) or
	// "exploring".
	Stage       string
	Done, Total int
}

// ErrCanceled is returned when the analysis's context ends before it does.
var ErrCanceled = errors.New("analysis canceled")

// Analyze runs the whole analysis of prog. It stops early, with
// ErrCanceled, when ctx is done. A panic anywhere in the analysis is
// recovered, so a long-lived caller (the language server) survives it:
// once something was found, the result keeps it and says it stopped
// early (Stopped, with the panic and where it happened; its stack among
// the warnings); before that, it is an error carrying the stack.
func Analyze(ctx context.Context, prog *ir.Program, opts Options, obs Observer) (res *Result, err error) {
	// stage is what the analysis is doing, for a panic's report; progress
	// may be reported from classification's goroutines.
	var stage atomic.Value
	stage.Store("starting")
	var beside *inputsBeside // the exploration of inputs, beside detection
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			if beside != nil {
				beside.settle()
			}
			if res == nil || res.Detection == nil && res.Exploration == nil {
				res, err = nil, fmt.Errorf("internal error in the analysis: %v\n%s", p, stack)
				return
			}
			now := stage.Load().(string)
			res.Stopped = &Stop{Stage: now, Message: fmt.Sprintf("internal error in augur (please report it): %v", p)}
			res.Warnings = append(res.Warnings, fmt.Sprintf("internal error while %s: %v\n%s", now, p, stack))
			err = nil
		}
	}()
	start := time.Now()
	if opts.Schedules == 0 {
		opts.Schedules = 5
	}
	cfg := opts.Run
	cfg.Cancel = ctx.Done()
	// One account for the analysis's executions: the memory backstop
	// charges them for their own growth, not for analyses beside them.
	cfg.Account = &vm.MemoryAccount{}
	if opts.Timeout > 0 && opts.Deadline.IsZero() {
		opts.Deadline = start.Add(opts.Timeout)
	}
	cfg.Deadline, cfg.TimeBudget = opts.Deadline, opts.Timeout
	if cfg.LockQuantumAfter == 0 {
		cfg.LockQuantumAfter = sched.AnalysisQuantumAfter
	}
	// The seed of each symbolic argument is the argument given in its
	// place, or the empty string: detection runs on that seed.
	for len(cfg.Args) < 1+len(opts.SymArgs) {
		cfg.Args = append(cfg.Args, "")
	}
	opts.Run = cfg
	progress := func(now string, done, total int) {
		stage.Store(now)
		if obs.Progress != nil {
			obs.Progress(now, done, total)
		}
	}
	prior, hist, histErr := history.Open(opts.History, prog, opts.Schedules, opts.settingsKey())
	opts.Seed += hist.Offset() // new schedules in every stage
	// opts is complete here: the stages read it from the result and do not
	// change it, so a fix's verification can analyze again with a copy.
	res = &Result{Options: &opts}
	a := &analysis{Result: res}
	if histErr != nil {
		res.Warnings = append(res.Warnings, histErr.Error())
	}
	// Inputs are explored when flags make some symbolic, and when the
	// program reads inputs itself (__VERIFIER_nondet_*, augur_make_symbolic,
	// or undefined functions under --undefined=havoc). The failures the
	// exploration finds are reported, and the inputs of its paths are
	// where detection looks for races the seed input hides. Detection's
	// plan on the given inputs, which needs none of them, runs beside it
	// (inputsBeside).
	if roots := opts.inputRoots(prog); len(roots) > 0 {
		progress("exploring", 0, len(roots))
		beside = exploreBeside(ctx, a, prog, roots, progress)
		beside.flush()
		if beside.Over() && res.Stopped != nil { // it ran out of a budget before detection could start
			return a.stoppedExploring(prog, cfg, start), nil
		}
	}
	if len(opts.Focus) > 0 {
		if prior == nil {
			prior = &race.Prior{}
		}
		prior.Focus = append(prior.Focus, opts.Focus...)
	}
	progress("detecting", 0, opts.Schedules)
	tsanPairs, tsanMissed := tsan.Locate(prog, opts.TSan)
	res.TSanMissed = tsanMissed
	dopts := race.Options{Schedules: opts.Schedules, Directed: opts.Directed, Seed: opts.Seed, Run: cfg,
		AutoInstructions: opts.AutoInstructions, Prior: prior, Explore: opts.explore(start), StageInstructions: opts.ExploreInstructions, External: tsan.External(tsanPairs),
		Progress: func(done, total int) {
			if beside != nil {
				beside.flush()
			}
			progress("detecting", done, total)
		}}
	if beside != nil {
		dopts.Beside, dopts.Room = beside, beside.room
	}
	det, err := race.Detect(prog, dopts)
	if beside != nil {
		// Detection may end before it waited (an error, a budget): the
		// exploration is over before the result is read.
		if _, werr := beside.Wait(); err == nil {
			err = werr
		}
		if res.Stopped != nil { // the exploration ran out of a budget: detection did too
			return a.stoppedExploring(prog, cfg, start), nil
		}
	}
	if errors.Is(err, ErrCanceled) {
		return nil, err
	}
	if errors.Is(err, race.ErrCanceled) || ctx.Err() != nil {
		return nil, ErrCanceled
	}
	if err != nil {
		return nil, err
	}
	hist.Recall(det)
	res.Detection = det
	if t := det.Stopped; t != nil {
		res.Stopped = &Stop{Budget: t.Budget, Message: t.Message, Stage: "detecting", Done: det.Schedules, Total: opts.Schedules}
	}
	src := srctext.New(opts.ReadFile)
	nameRaces(src, prog, det.Races)
	for _, r := range det.Races {
		if src.Silenced(r.MarkerSites()...) {
			res.Ignored = append(res.Ignored, r)
			continue
		}
		res.Races = append(res.Races, r)
	}
	found, missed := tsan.Match(tsanPairs, res.Races, res.Ignored, det.External)
	res.TSan, res.TSanMissed = found, append(res.TSanMissed, missed...)
	res.Verdicts = make([]*classify.Verdict, len(res.Races))
	res.Evidence = make([]string, len(res.Races))
	if obs.Detected != nil {
		obs.Detected(res)
	}
	if !opts.DetectOnly && len(res.Races) > 0 && res.Stopped == nil {
		if err := a.classify(ctx, prog, progress, obs.Classified, hist); err != nil {
			if errors.Is(err, ErrCanceled) || ctx.Err() != nil {
				return nil, err
			}
			// The races detected stay: the report says which were not
			// classified and why, rather than losing them all.
			decided := 0
			for _, v := range res.Verdicts {
				if v != nil {
					decided++
				}
			}
			res.Stopped = &Stop{Message: "classification failed: " + err.Error(), Stage: "classifying",
				Done: decided, Total: len(res.Races)}
			if t := opts.Run.Expired(); t != nil { // the farm's wait ran past the time budget: say that
				res.Stopped.Budget, res.Stopped.Message = t.Budget, t.Message
			}
		}
	}
	res.Patterns = make([]*pattern.Pattern, len(res.Races))
	for i, v := range res.Verdicts {
		res.Patterns[i] = pattern.Recognize(prog, res.Races[i], v)
	}
	a.failureEvidence(prog, cfg)
	if err := hist.Save(res.Races, res.Verdicts); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// explore searches the input space (symex) from each of roots, the
// symbolic templates of inputRoots, for failures, and for the inputs
// detection then runs its plan on (analysis.explored).
//
// seedRan, when set, is told the peak footprint of the first path, the
// given inputs', as soon as it ran.
func (res *analysis) explore(ctx context.Context, prog *ir.Program, roots []vm.Config, progress func(string, int, int), seedRan func(uint64)) error {
	opts := res.Options
	progress("exploring", 0, len(roots))
	var own *symex.Path
	for i := 0; i < len(roots); i++ {
		root := roots[i]
		timeout := opts.ExploreTimeout
		if !opts.Deadline.IsZero() {
			left := time.Until(opts.Deadline)
			if timeout == 0 || left < timeout {
				timeout = max(left, time.Millisecond)
			}
		}
		perPath, all := opts.solverBudgetOf()
		var seedBudget, pathsBudget func(uint64) uint64
		if opts.AutoInstructions {
			// Each path ten times the seed's, and all of them ten times
			// too, at least what maxPaths paths of the floor would run (so
			// a short program's exploration ends by its path count).
			seedBudget = func(n uint64) uint64 { return max(race.AutoFactor*n, race.AutoFloor) }
			paths := uint64(opts.maxPathsOf())
			if paths == 0 {
				paths = symex.DefaultMaxPaths
			}
			pathsBudget = func(n uint64) uint64 { return max(race.AutoFactor*n, paths*race.AutoFloor) }
		}
		var ran func(uint64)
		if i == 0 {
			ran = seedRan
		}
		ex, err := symex.Explore(prog, symex.Options{Run: root, Searcher: opts.Searcher,
			Seed: opts.Seed, MaxPaths: opts.maxPathsOf(), Timeout: timeout, Model: opts.MemoryModel,
			MaxPathCalls: perPath, MaxCalls: all, SeedBudget: seedBudget, PathsBudget: pathsBudget, SeedRan: ran})
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ErrCanceled
		}
		if i == 0 {
			for _, p := range ex.Paths {
				if p.Seed {
					own = p
				}
			}
			if r, ok := opts.stdinRoot(root, ex); ok {
				roots = append(roots, r)
			}
		}
		res.Exploration = symex.Merge(res.Exploration, ex)
		for _, in := range symex.Describe(root) {
			// Standard input given to a program that takes arguments is
			// symbolic in the own root and in the invented argument's
			// (the argument may be the option that reads it): one input.
			if !slices.Contains(res.SymbolicInputs, in) {
				res.SymbolicInputs = append(res.SymbolicInputs, in)
			}
		}
		progress("exploring", i+1, len(roots))
		if t := opts.Run.Expired(); t != nil {
			res.Stopped = &Stop{Budget: t.Budget, Message: t.Message, Stage: "exploring"}
			break
		}
	}
	res.explored, res.LongInputsLeftOut = raceInputs(res.Exploration.Paths, own)
	return nil
}

// stoppedExploring ends an analysis whose exploration of inputs ran out
// of a budget: the failures it found, with their evidence, and no
// detection.
func (res *analysis) stoppedExploring(prog *ir.Program, cfg vm.Config, start time.Time) *Result {
	res.failureEvidence(prog, cfg)
	res.Elapsed = time.Since(start)
	return res.Result
}

// classify decides every race's category, reporting each as it arrives.
// A race history knows gets the verdicts of earlier analyses added to its
// own (hist.Merge).
func (res *analysis) classify(ctx context.Context, prog *ir.Program, progress func(string, int, int),
	each func(*Result, int), hist *history.History) error {
	opts := res.Options
	n := len(res.Races)
	done := 0
	progress("classifying", 0, n)
	record := func(i int, v *classify.Verdict) {
		if ctx.Err() != nil {
			return
		}
		res.Verdicts[i] = hist.Merge(res.Races[i], v)
		path, err := opts.EvidenceStore().Race(res.Races[i], res.Verdicts[i])
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("evidence for race %s: %v", res.Races[i].ID, err))
		}
		res.Evidence[i] = path
		done++
		if each != nil {
			each(res.Result, i)
		}
		progress("classifying", done, n)
	}
	defer func() {
		// Verdicts left undecided by the time budget say so; the analysis
		// is partial from the first of them.
		var stop *classify.Verdict
		decided := 0
		for i, v := range res.Verdicts {
			switch {
			case v == nil:
			case v.Budget != 0: // time, memory, or instructions in both orders
				if stop == nil {
					stop = v
				}
			default:
				decided++
				if v.Cut != "" {
					res.Cuts = append(res.Cuts, Stop{Budget: v.CutBudget, Message: v.Cut,
						Stage: fmt.Sprintf("classifying race %s", res.Races[i].ID)})
				}
			}
		}
		if stop != nil && res.Stopped == nil {
			res.Stopped = &Stop{Budget: stop.Budget, Message: stop.BudgetMessage, Stage: "classifying", Done: decided, Total: n}
		}
	}()
	jobs, err := res.jobs(prog)
	if err != nil {
		return err
	}
	// An interrupt (Run.Interrupt) stops the classification: jobs are
	// plain data and do not carry it, so it cancels them here, and the
	// verdicts they gave until then stay.
	cctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-opts.Run.Interrupt:
			stop()
		case <-cctx.Done():
		}
	}()
	if opts.Farm == "" {
		classify.ClassifyEach(prog, jobs, opts.Workers, cctx.Done(), record)
	} else if err := farmOut(cctx, prog, jobs, *opts, record); err != nil && cctx.Err() == nil {
		return err
	}
	if ctx.Err() != nil {
		return ErrCanceled
	}
	res.attribute(each)
	if opts.Run.Interrupted() && done < n && res.Stopped == nil {
		res.Stopped = &Stop{Budget: vm.BudgetTime, Message: vm.InterruptedMessage, Stage: "classifying", Done: done, Total: n}
	}
	return nil
}

// attribute gives one-order failures to the races that explain them
// (classify.Attribute), once every race has its verdict: a verdict it
// changes loses its evidence, which showed a failure no longer this
// race's, and is reported again.
func (res *analysis) attribute(each func(*Result, int)) {
	name := func(i int) string {
		r := res.Races[i]
		return fmt.Sprintf("the race on %s (%s against %s)", r.Object, r.First.Loc, r.Second.Loc)
	}
	for _, i := range classify.Attribute(res.Verdicts, name) {
		if res.Evidence[i] != "" {
			if err := res.Options.EvidenceStore().Forget(res.Races[i]); err != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("evidence for race %s: %v", res.Races[i].ID, err))
			}
			res.Evidence[i] = ""
		}
		if each != nil {
			each(res.Result, i)
		}
	}
}

// FarmEmbedded is the Farm of an analysis that classifies through a NATS
// server embedded in its own process.
const FarmEmbedded = "embedded"

// farmGrace is how long a farm's coordinator waits for verdicts past the
// analysis's deadline: the workers' executions stop at that deadline
// themselves (it travels in each job), so only their last messages are
// still on the way.
const farmGrace = 30 * time.Second

// farmOut classifies the jobs through a farm (analyzer/judge/farm).
func farmOut(ctx context.Context, prog *ir.Program, jobs []classify.Job, opts Options, record func(int, *classify.Verdict)) error {
	if !opts.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, opts.Deadline.Add(farmGrace))
		defer cancel()
	}
	if opts.Farm == FarmEmbedded {
		_, err := farm.ClassifyLocal(ctx, prog, jobs, opts.Workers, record)
		return err
	}
	f, err := farm.Connect(ctx, opts.Farm, farm.Config{})
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Classify(ctx, prog, jobs, record)
	return err
}

// jobs are the classification jobs of the result's races: plain data, so
// the same job could be run by another process holding the program.
func (res *analysis) jobs(prog *ir.Program) ([]classify.Job, error) {
	opts := res.Options
	copts, err := res.classifyOptions(prog)
	if err != nil {
		return nil, err
	}
	ref := classify.RefOf(prog)
	jobs := make([]classify.Job, len(res.Races))
	for i, r := range res.Races {
		if res.Detection.TimeCut {
			// What the exploration found depends on how long it ran: the
			// verdict rests on the plan's occurrences (race.FromPlan).
			r = r.FromPlan()
		}
		jobs[i] = classify.NewJob(ref, r, copts, opts.Classifier)
	}
	return jobs, nil
}

// classifyOptions are the options the result's races are classified
// with.
func (res *analysis) classifyOptions(prog *ir.Program) (classify.Options, error) {
	opts := res.Options
	switch opts.Classifier {
	case "", "portend":
		focus := res.Detection.Focus
		if res.Detection.TimeCut {
			focus = res.Detection.PlanFocus // the exploration's depends on how long it ran
		}
		return classify.Options{Run: res.detectedBudget(opts.symbolicRun(true)), Ma: opts.Ma, Mp: opts.Mp, Seed: opts.Seed, Focus: focus,
			Symbolic: opts.symbolic() || classify.UsesSymbolicInputs(prog, opts.Run.Undefined), Model: opts.MemoryModel,
			AroundInputs: opts.autoInputs()}, nil
	case "replay-analyzer":
		if opts.MemoryModel == memmodel.Weak {
			return classify.Options{}, fmt.Errorf("the replay-analyzer baseline supports sequential consistency only")
		}
		return classify.Options{Run: res.detectedBudget(opts.Run)}, nil
	}
	return classify.Options{}, fmt.Errorf("unknown classifier %q (want portend or replay-analyzer)", opts.Classifier)
}

// AutoExploreInstructions is Run.MaxInstructions under AutoInstructions:
// the budget of the executions that run before any is measured (the
// exploration of symbolic inputs).
const AutoExploreInstructions = 200_000_000

// detectedBudget returns cfg with the instruction budget detection set
// from the program's first execution, when it set one, and the memory
// that execution reached, by which parallel jobs wait for room.
func (res *analysis) detectedBudget(cfg vm.Config) vm.Config {
	if d := res.Detection; d != nil {
		if d.InstructionBudget != 0 {
			cfg.MaxInstructions = d.InstructionBudget
		}
		cfg.MemoryHint = d.MemoryHint
	}
	return cfg
}

// EvidenceStore is where the analysis writes its evidence: the evidence
// directory, for the program's sources built and run as the options say.
func (o *Options) EvidenceStore() evidence.Store {
	return evidence.Store{Dir: o.EvidenceDir, Sources: o.Sources, Run: o.Run, Build: o.Build}
}

// NoExploreLimit is an ExploreInstructions that sets no budget.
const NoExploreLimit = race.Unbounded

// ExploreAuto is the explore-time setting "auto": no time of the
// exploration's own (Options.ExploreTime 0).
const ExploreAuto time.Duration = -1

// ExploreSetting is the ExploreTime of a user's setting (the command
// line's --explore-time, augur.toml's explore-time), where ExploreAuto
// sets no time and 0 turns exploration off.
func ExploreSetting(d time.Duration) time.Duration {
	switch {
	case d == ExploreAuto:
		return 0
	case d <= 0:
		return -1
	}
	return d
}

// explore is the exploration detection runs after its plan, nil when it
// is off; an analysis started at start.
func (o *Options) explore(start time.Time) *race.Explore {
	d := o.ExploreTime
	if d < 0 {
		return nil
	}
	x := &race.Explore{Instructions: o.ExploreInstructions, Workers: o.Workers}
	if d > 0 {
		x.Until = start.Add(d)
	}
	return x
}

// symbolic reports whether any input is symbolic.
func (o *Options) symbolic() bool {
	return len(o.SymArgs) > 0 || o.SymStdin > 0 || len(o.SymFiles) > 0
}

// symbolicRun is the execution template with the symbolic inputs set;
// preempt keeps the access preemption of detection (classification), the
// exploration of inputs runs without it.
func (o *Options) symbolicRun(preempt bool) vm.Config {
	cfg := o.Run
	cfg.SymArgs, cfg.SymStdin, cfg.SymFiles = o.SymArgs, o.SymStdin, o.SymFiles
	if !preempt {
		cfg.PreemptAccesses = false
	}
	return cfg
}

// settingsKey fingerprints the options verdicts depend on besides the
// program and the schedules: a history made under others does not apply.
func (o *Options) settingsKey() string {
	h := sha256.New()
	r := o.Run
	fmt.Fprintf(h, "%q\x00%q\x00%q\x00%v\x00%d\x00%v\x00%v\x00%s\x00%d\x00%d\x00%s\x00%d\x00%v\x00%v\x00",
		r.Args, r.Env, r.Stdin, r.Inputs, r.MaxInstructions, r.PreemptAccesses, r.Undefined,
		o.MemoryModel, o.Ma, o.Mp, o.Classifier, o.SymStdin, o.SymArgs, o.autoInputs())
	fmt.Fprintf(h, "%v\x00", o.AutoInstructions)
	names := make([]string, 0, len(r.Files)+len(o.SymFiles))
	for n := range r.Files {
		names = append(names, n)
	}
	for n := range o.SymFiles {
		names = append(names, "sym:"+n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "%q=%x,%d\x00", n, sha256.Sum256(r.Files[strings.TrimPrefix(n, "sym:")]), o.SymFiles[strings.TrimPrefix(n, "sym:")])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
