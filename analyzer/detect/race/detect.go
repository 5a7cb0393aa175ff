package race

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/internal/memo"
)

// Options configure detection over several schedules.
type Options struct {
	// Schedules is how many executions the base plan runs (at least 1):
	// round robin first; then schedules that reorder the acquisitions and
	// wake-ups seen in it (at most half of the rest); then PCT schedules
	// seeded from Seed.
	Schedules int
	Seed      uint64
	// Depth is the PCT bug depth (default 3).
	Depth int
	// Directed is how many race-directed executions may follow the base
	// plan of each input, one per potential race (Candidate) the
	// executions saw (0: Schedules; negative: none). The whole plan runs
	// at most (Schedules+Directed) x (1+len(Inputs)) executions.
	Directed int
	// Inputs are other inputs worth running the program on, from an
	// exploration of its symbolic inputs: each gets the base plan and its
	// share of the exploration's schedules, and races, candidates and
	// failures found there carry them.
	Inputs []*Inputs
	// Beside, when set, supplies Inputs from work that runs beside the
	// plan on the analysis's own inputs, which needs none of them.
	Beside Beside
	// Room, when set, shares the memory budget with that work until it
	// has measured the program (vm.Room): detection's executions start
	// at once, and one that must make room runs again later.
	Room *vm.Room
	// Prior is what earlier analyses of the same program learned
	// (History): the pairs that were races, tried first, and the pairs
	// already tried in vain, not tried again.
	Prior *Prior
	// Run is the template of every execution: arguments, input, budgets.
	// Its Policy and Monitor are set per schedule; its output is discarded.
	Run vm.Config
	// AutoInstructions makes the instruction budget follow the program:
	// the first (round-robin) execution on the analysis's own inputs has
	// none (the time budget bounds it, and a loop that makes no progress
	// ends as a hang), and every later one gets AutoFactor times what it
	// ran, at least AutoFloor (Result.InstructionBudget).
	AutoInstructions bool
	// MutexBlind makes the detector ignore mutexes (for tests: races on
	// lock-protected data are then reported, and classification must call
	// them single-ordering).
	MutexBlind bool
	// Progress, when set, is told after each execution how many of the
	// executions planned so far have run.
	Progress func(done, total int)
	// Explore, when set, continues after the plan with PCT schedules over
	// the accesses of the races found (see Explore).
	Explore *Explore
	// External are races another detector reported, as pairs of access
	// locations (A, B; external.go).
	External []*Candidate
	// ShadowAll shadows every object from birth: no object is kept
	// private to its thread (private.go). The findings are the same, only
	// slower; tests compare the two.
	ShadowAll bool
	// StageInstructions bounds the instructions the plans on Inputs, and
	// the race-directed runs, each run in all (share.go): 0 follows the
	// program as Explore.Instructions 0 does; Unbounded sets none.
	StageInstructions uint64
}

// Beside is work whose result detection needs only once the plan on the
// analysis's own inputs is over (the exploration of symbolic inputs,
// whose paths are Options.Inputs): it may run on another core meanwhile.
type Beside interface {
	// Wait returns the inputs once the work is done. An error ends
	// detection with it.
	Wait() ([]*Inputs, error)
	// Over reports whether the work is done, without waiting.
	Over() bool
}

// Prior is what earlier detections of a program found, for the next one
// to build on (see History).
type Prior struct {
	// Confirmed are potential races that became races under race-directed
	// scheduling: they are directed first, so the race is found again.
	Confirmed []*Candidate
	// Tried are ids of candidates already directed without a race.
	Tried map[string]bool
	// Focus are access locations of races earlier analyses of this very
	// program found: preemption points of PCT from the first schedule on,
	// before this analysis has seen them race again.
	Focus []string
	// Explored counts the schedules earlier explorations ran: this one's
	// seeds start past theirs, so exploration goes on across saves
	// instead of repeating itself.
	Explored uint64
	// Enumerated is set when an earlier analysis of this very program ran
	// the bounded enumeration: its schedules are the same every time, so
	// this one goes straight to PCT.
	Enumerated bool
	// AllSchedules is set when that enumeration ran every schedule at
	// these points (ExploreStats.AllFocus): PCT on the analysis's input
	// has nothing left there either, unless the focus grows.
	AllSchedules []string
	// Shared are the allocation sites (file:line:col) whose objects
	// earlier analyses had to shadow from birth (private.go): they are
	// from the first execution on, which then need not begin again to
	// learn them. Only the cost depends on them, never a finding: a site
	// an edit moved is learnt again, one that now names another
	// allocation is shadowed for nothing.
	Shared []string
}

// Technique is how detection first found a race.
type Technique string

// The techniques, in the order the plan runs them.
const (
	ByRoundRobin Technique = "round-robin"
	// ByReversal is interleaving generation from one trace (Carril and
	// Tichy, shared/papers/003_*): the round-robin trace replayed with one
	// acquisition or wake-up postponed.
	ByReversal Technique = "sync-reversal"
	ByPCT      Technique = "pct"
	// ByInputs is an execution on inputs the exploration of symbolic
	// inputs found.
	ByInputs Technique = "inputs"
	// ByDirected is race-directed scheduling (shared/papers/004_*).
	ByDirected Technique = "race-directed"
	// ByHistory is a race an earlier analysis of the same program found
	// and this one did not (analyzer/judge/history).
	ByHistory Technique = "history"
)

// Techniques lists them in plan order.
var Techniques = []Technique{ByRoundRobin, ByReversal, ByPCT, ByInputs, ByExternal, ByDirected, ByEnumeration, ByExplore, ByHistory}

// ErrCanceled is returned when Run.Cancel closes during detection.
var ErrCanceled = errors.New("detection canceled")

// Failure is how an execution ended when it did not exit normally: a
// crash, failed assert, abort, deadlock, exhausted budget or unsupported
// construct, found under some schedule.
type Failure struct {
	Kind     vm.TermKind
	Message  string `loc:"text"` // may name locations (ir.Relocate)
	Loc      ir.Loc
	Thread   int
	Stack    []vm.StackFrame
	Threads  map[int][]vm.StackFrame // deadlocks: every blocked thread
	Schedule string                  // which schedule: "round-robin" or "pct seed N"
	Budget   vm.Budget               // the budget a TermBudget failure exhausted
	Function string                  // the unmodeled function a TermUnsupported failure called
	Trace    *sched.Trace            // replays the failure
	Inputs   *Inputs                 // the inputs it happened on, when not the analysis's own
	// PreemptAccesses is set when the execution switched threads at
	// every shared access (race-directed runs): a replay must too.
	PreemptAccesses bool
	// Stdout and Stderr are what the failing execution printed (up to
	// vm.DefaultMaxOutput): a replay must print the same.
	Stdout, Stderr string
}

// Result is what detection found across all schedules.
type Result struct {
	// early counts the race-directed executions merged that ran while the
	// work beside detection went on (directEarly); tests read it.
	early      int
	Races      []*Race
	Inversions []*Inversion
	Failures   []*Failure
	// Shared are the allocation sites whose objects the executions
	// shadowed from birth at the end (Prior.Shared), sorted.
	Shared       []string
	Schedules    int
	Instructions uint64
	Elapsed      time.Duration
	// Stopped is set when the analysis's time budget ran out during
	// detection: the races found until then are kept, Schedules counts the
	// executions that ran (the last one cut short).
	Stopped *vm.Termination
	// Havoc lists the undefined functions some schedule called under
	// vm.UndefinedHavoc, sorted.
	Havoc []string
	// Exit is set when the first execution, on the analysis's own inputs,
	// exited with a nonzero status. With no second thread in any
	// execution (Explore.Ended is EndedOneThread) it is why nothing
	// concurrent was analyzed: the program stopped early, as it does
	// without the arguments, input or files it needs.
	Exit *EarlyExit
	// Missing are the files some schedule looked for that the virtual
	// file system did not hold, by path, each with the first place in
	// source order that looked for it (vm.MissingFile).
	Missing []vm.MissingFile
	// Runs counts the executions of each technique, Found the races each
	// found first.
	Runs, Found map[Technique]int
	// Candidates are the potential races no execution confirmed; Directed
	// the ids of those race-directed scheduling tried (confirmed or not).
	Candidates []*Candidate
	Directed   []string
	// Confirmed are the candidates race-directed scheduling made races.
	Confirmed []*Candidate
	// Explore says how the exploration after the plan went.
	Explore ExploreStats
	// External says what became of each external race (Options.External).
	External []ExternalRun
	// FirstFailure is how long detection ran before it found its first
	// failure (0: none).
	FirstFailure time.Duration
	// Focus are the access locations (file:line:col) of the races and
	// potential races found, sorted: the preemption points exploration
	// ended with, and classification's harm search starts from.
	// PlanFocus are those of the plan alone (before the exploration).
	Focus, PlanFocus []string
	// TimeCut is set when the exploration after the plan ended by time
	// (--explore-time) rather than by its counts: what it found, and the
	// occurrences and focus it added, depend on how fast the machine ran.
	TimeCut bool
	// TooLong is set when the round-robin execution ran out of its
	// instruction or memory budget: the program outruns the analysis's
	// budget under the plainest schedule, so no exploration follows, and
	// the analysis is incomplete. (A loop that provably never ends is a
	// hang, vm.TermHang: a failure, not a budget.)
	TooLong *vm.Termination
	// CutShort counts the later executions that ran out of their
	// instruction or memory budget, and FirstCutShort is the first of
	// them, with its schedule's name: the analysis's limit, not the
	// program's failure, and what they would have done after is unseen.
	CutShort      int
	FirstCutShort *vm.Termination
	CutSchedule   string
	// LongInputs counts the executions on explored inputs (Options.Inputs)
	// that ran out of their instruction or memory budget: an input that
	// makes the program run longer than the budget allows (a grid's size
	// from its arguments) is a limit of the input exploration, reported
	// with it, not a gap in the analysis of the program's own inputs.
	// LongInputSchedule names the first.
	LongInputs        int
	LongInputSchedule string
	// Outputs are the distinct standard outputs of the executions on the
	// analysis's own inputs that exited, in the order first printed, at
	// most MaxOutputs of them; MoreOutputs counts the distinct ones past
	// those. A fix's verification reads them: a changed program whose
	// output still depends on the schedule printed two.
	Outputs     []string
	MoreOutputs int
	// FirstInstructions is what the first execution ran, and
	// InstructionBudget the budget the later ones had when it was set
	// from it (Options.AutoInstructions; 0 otherwise).
	FirstInstructions, InstructionBudget uint64
	// MemoryHint is the first execution's peak footprint, by which
	// parallel work waits for room under the memory budget (vm.Admit).
	MemoryHint uint64
	// InputsShare and DirectedShare are what the plans on the explored
	// inputs and the race-directed runs could run and ran (share.go).
	InputsShare, DirectedShare Share
}

// The budget of the executions after the first under AutoInstructions:
// AutoFactor times the first's instructions, at least AutoFloor. Another
// schedule may take longer than round robin (a spin waits for a thread
// PCT runs late), but not ten times as long without looping.
const (
	AutoFactor = 10
	AutoFloor  = 10_000_000
)

// Detect runs prog under the plan opts describe with a race detector and
// merges what the executions find. It is deterministic for given options.
func Detect(prog *ir.Program, opts Options) (*Result, error) {
	if opts.Schedules < 1 {
		opts.Schedules = 1
	}
	if opts.Depth == 0 {
		opts.Depth = 3
	}
	if opts.Directed == 0 {
		opts.Directed = opts.Schedules
	}
	if opts.Prior == nil {
		opts.Prior = &Prior{}
	}
	d := &detection{prog: prog, opts: opts, res: &Result{Runs: map[Technique]int{}, Found: map[Technique]int{}},
		seenInv: map[string]bool{}, seenFail: map[string]bool{}, seenCand: map[string]bool{}, raced: map[string]bool{},
		behaviour: map[behaviour]bool{}, long: map[string]bool{}, single: map[string]bool{}, unrun: map[string]bool{}}
	d.total = opts.Schedules
	for _, l := range opts.Prior.Focus {
		d.addFocus(l)
	}
	d.shared.add(sitesAt(prog, opts.Prior.Shared))
	for _, c := range opts.External {
		d.addFocus(c.A)
		d.addFocus(c.B)
	}
	err := d.base()
	if err == nil {
		err = d.inputs()
	}
	if err == nil {
		err = d.external()
	}
	if err == nil {
		err = d.directed()
	}
	if err == nil {
		d.res.PlanFocus = d.focus()
		err = d.enumerate()
	}
	if err == nil {
		err = d.explore()
	}
	if err != nil {
		return nil, err
	}
	return d.finish(), nil
}

// detection is one Detect in progress.
type detection struct {
	prog  *ir.Program
	opts  Options
	res   *Result
	start time.Time
	races [][]*Race
	// seenInv, seenFail and seenCand deduplicate what executions report;
	// raced holds the candidate ids of the races found.
	seenInv, seenFail, seenCand, raced map[string]bool
	// printed holds a hash of each distinct output (Result.Outputs).
	printed    map[[sha256.Size]byte]bool
	cands      []*Candidate
	total, ran int
	stop       bool
	// focused are the access locations of the races and candidates seen
	// (the exploration's preemption points); steps estimates how many
	// scheduling decisions an execution makes, for PCT.
	focused map[string]bool
	steps   int
	// switches is the interleaving coverage of the exploration (cover).
	switches map[[2]string]bool
	// allAt is the focus at which this analysis's enumeration, or an
	// earlier one of the same program (Prior.AllSchedules), ran every
	// schedule (nil: none did): PCT over the same focus on the same input
	// has nothing left to find.
	allAt []string
	// first and occurrences are each race's first occurrence and how many
	// there were (see occurrence).
	first       map[string]*Race
	occurrences map[string]int
	byTechnique map[kept]bool // the occurrences kept, by race, technique and first access
	// behaviour holds the (race, inputs, locksets) seen.
	behaviour map[behaviour]bool
	// long holds the explored inputs an execution ran out of its budget
	// on (Inputs.Key): a race-directed execution there would too.
	long map[string]bool
	// firstRan is what the first execution on the analysis's own inputs
	// ran: the measure of the exploration's budget (Explore.budget).
	firstRan uint64
	// mostRan is the most an execution of the exploration has run, for
	// sizing its batches (affordable).
	mostRan uint64
	// threaded is set once an execution created a second thread: until
	// then every schedule is the same execution (a policy only chooses
	// among runnable threads), and the plans and the exploration skip
	// what would repeat it. single holds the explored inputs (Inputs.Key)
	// on which the plan's first execution had one thread, unrun those
	// the inputs' share left out (share.go).
	threaded bool
	// forkJoin is set when the plan's first execution on the analysis's
	// own inputs is the only one they have (execution.only): the
	// exploration of schedules after the plan has nothing to run.
	forkJoin bool
	// forkJoinOutput is set when that execution's threads printed while
	// two of them lived: other schedules run them the same way but may
	// interleave their output otherwise (ExploreStats.OutputOrder).
	forkJoinOutput bool
	single         map[string]bool
	unrun          map[string]bool
	// shared holds the allocation sites whose objects executions shadow
	// from birth (private.go): learnt from executions that could not
	// vouch for an object's private phase, which then ran again.
	shared sharedSites
	// early holds the race-directed executions run while the work beside
	// detection went on, by candidate id (directEarly).
	early map[string]*execution
	// gathering are where the threads of the first execution on the
	// analysis's own inputs met (sched.Trace.Gathering): the places
	// where the exploration's gathering schedules hold threads.
	gathering []string
	// pctp is the exploration's PCT phase once begun (pct), enumerated
	// what the bounded enumeration's own executions ran: PCT's beside it
	// count toward the exploration's instructions, not the enumeration's
	// half (enumerationBudget).
	pctp       *pctPhase
	enumerated uint64
}

// base runs the base plan on the analysis's own inputs.
func (d *detection) base() error {
	d.start = time.Now()
	return d.plan(nil)
}

// plan runs the base plan (round robin, sync reversals, PCT) on inputs
// in (nil: the analysis's own), merged in order: round robin first (it
// measures the program, and the reversals come from its trace), then the
// reversals together on every core (each depends on that trace alone),
// then each PCT schedule in turn, as it also switches at the accesses the
// schedules before it saw race (run side by side, a PCT schedule would
// miss the races of the one before and the failures they lead to), but
// for those of a program of more than FloorRun instructions, which run
// side by side too (sideBySide).
func (d *detection) plan(in *Inputs) error {
	plan := sched.DetectionPlan(d.opts.Schedules, d.opts.Seed)
	plan.Depth, plan.Acquires = d.opts.Depth, libc.Models().ReordersAt
	var first *sched.Trace
	for i := 0; i < d.opts.Schedules && !d.stop; {
		if t := d.opts.Run.Expired(); t != nil {
			d.res.Stopped, d.stop = t, true
			return nil
		}
		if in != nil && d.res.InputsShare.spent() {
			left := d.opts.Schedules - i
			d.res.InputsShare.LeftOut += left
			d.total -= left
			if i == 0 {
				d.unrun[in.Key()] = true
			}
			break
		}
		wave := []sched.Schedule{plan.Step(i, first)}
		for d.sideBySide(techniqueOf(wave[0])) && i+len(wave) < d.opts.Schedules {
			next := plan.Step(i+len(wave), first)
			if techniqueOf(next) != techniqueOf(wave[0]) {
				break
			}
			wave = append(wave, next)
		}
		cfgs := make([]vm.Config, len(wave))
		for k, step := range wave {
			cfgs[k] = in.Apply(d.opts.Run)
			cfgs[k].Policy, cfgs[k].PreemptAccesses = step.Policy, step.PreemptAccesses
			if _, ok := step.Policy.(*sched.PCT); ok {
				cfgs[k].PreemptAt = d.focus() // PCT switches at the accesses seen to race too
			}
		}
		measure := d.opts.AutoInstructions && in == nil && i == 0
		if measure {
			cfgs[0].MaxInstructions = 0
		}
		runs, err := d.executeAll(cfgs, nil, d.workers())
		if err != nil {
			return err
		}
		for k, ex := range runs {
			tech, name := techniqueOf(wave[k]), wave[k].Name
			if in != nil {
				tech, name = ByInputs, name+" on inputs "+in.String()
			}
			found := d.found()
			d.merge(ex, name, tech, in)
			if in != nil {
				d.res.InputsShare.charge(ex.run, found != d.found())
			}
			d.steps = max(d.steps, ex.run.Trace.Len()+1)
		}
		if i == 0 {
			if stop := d.measured(runs[0].run, in, measure); stop {
				break
			}
			if in == nil {
				d.gathering = runs[0].run.Trace.Gathering(gatherPeers)
			}
			if runs[0].run.Threads <= 1 || runs[0].only() {
				// One thread on these inputs, or threads that met only
				// where they were created and joined: every later
				// schedule of the plan would run this execution again.
				d.total -= d.opts.Schedules - 1
				d.single[in.Key()] = true
				if in == nil && runs[0].run.Threads > 1 {
					d.forkJoin, d.forkJoinOutput = true, runs[0].run.OutputOrder
				}
				break
			}
			first = runs[0].run.Trace
		}
		i += len(wave)
	}
	return nil
}

// sideBySide reports whether the plan's schedules of technique tech run
// at once, in a wave on every core: the reversals always (each depends on
// the round-robin trace alone), PCT once the first schedule ran more
// than FloorRun instructions: each then switches at the races the plan's
// schedules before the wave saw, not also at those of the one just
// before it. That sequence is worth a schedule's time when a schedule
// takes milliseconds, not when it takes a good part of a second
// (parallel_sum 2000000: 1.7 s each) or a whole run of a long program
// (pigz compressing 2 MB: 3 s each).
func (d *detection) sideBySide(tech Technique) bool {
	return tech == ByReversal || (tech == ByPCT && d.firstRan > FloorRun)
}

// measured takes what the plan's first execution on inputs in shows:
// the instruction budget of the later ones when measure is set, the
// footprint parallel executions wait for room for, and, on an explored
// input, whether the rest of its plan is worth running (stop).
func (d *detection) measured(run *vm.Result, in *Inputs, measure bool) (stop bool) {
	if measure {
		d.res.FirstInstructions = run.Instructions
		d.res.InstructionBudget = max(AutoFactor*run.Instructions, AutoFloor)
		d.opts.Run.MaxInstructions = d.res.InstructionBudget
	}
	if in == nil {
		d.firstRan = run.Instructions
		// What parallel executions wait for room for (vm.Admit).
		d.opts.Run.MemoryHint = run.PeakFootprint
		d.res.MemoryHint = run.PeakFootprint
		return false
	}
	if run.Term.OutOfInstructions() {
		// Another input that makes the program run longer than the
		// budget (a grid's size from its arguments): every schedule of
		// its plan would run the budget out as well. Its gap is reported
		// once.
		d.total -= d.opts.Schedules - 1
		return true
	}
	return false
}

// techniqueOf is the technique a schedule of the base plan counts under.
func techniqueOf(s sched.Schedule) Technique {
	switch s.Policy.(type) {
	case sched.RoundRobin:
		return ByRoundRobin
	case *sched.Postpone:
		return ByReversal
	}
	return ByPCT
}

// workers is how many executions run at once: the exploration's
// setting, or one per CPU. Results do not depend on it.
func (d *detection) workers() int {
	if d.opts.Explore != nil {
		return d.opts.Explore.workers()
	}
	return runtime.GOMAXPROCS(0)
}

// extra is how many race-directed executions may follow the base plans:
// Directed for the analysis's own inputs and for each explored input
// whose plan ran in full. An input on which the program ran out of its
// budget, or never made a second thread, shows no potential race of its
// own, and its share would only go to the others' pairs: SPLASH-2 ocean,
// whose argument exploration finds 15 such inputs (a bigger grid, a
// usage message), made 113 race-directed runs of its own input, 41% of
// its detection, and confirmed none.
func (d *detection) extra() int { return max(d.opts.Directed, 0) * len(d.runInputs()) }

// runInputs are the inputs the runs after the base plans go to: the
// analysis's own (nil) first, then each explored input whose plan ran,
// its first execution neither out of its budget nor on one thread.
// Race-directed runs (of potential races and of external races) and the
// exploration's schedules go to these only: on the others every schedule
// would run the budget out or repeat the one execution.
func (d *detection) runInputs() []*Inputs {
	out := []*Inputs{nil}
	for _, in := range d.opts.Inputs {
		if k := in.Key(); !d.long[k] && !d.single[k] && !d.unrun[k] {
			out = append(out, in)
		}
	}
	return out
}

// inputs runs the base plan on each of the other inputs, in the order
// given, until they have run their share of instructions (share.go): an
// input whose path the seed does not take can hide a race, a lock it does
// not hold or a failure, whatever lines it covers.
func (d *detection) inputs() error {
	if b := d.opts.Beside; b != nil {
		if err := d.directEarly(b); err != nil {
			return err
		}
		in, err := b.Wait()
		if err != nil {
			return err
		}
		d.opts.Inputs = in
	}
	d.total += len(d.opts.Inputs) * d.opts.Schedules
	d.res.InputsShare.open(d.stageBudget())
	for _, in := range d.opts.Inputs {
		if d.stop {
			break
		}
		if err := d.plan(in); err != nil {
			return err
		}
	}
	return nil
}

// directed spends the rest of the extra executions on race-directed
// scheduling: the pairs earlier analyses confirmed first, then the
// potential races of this one in the order they were seen, skipping the
// pairs that are races already, those tried before in vain, and those
// seen on an explored input an execution ran out of its budget on, until
// they have run their share of instructions (share.go).
func (d *detection) directed() error {
	budget := d.extra() - d.res.Runs[ByExternal] // the external races' runs are directed too
	queue := d.directedQueue()
	if len(queue) > budget {
		queue = queue[:max(budget, 0)]
	}
	d.total += len(queue)
	share := &d.res.DirectedShare
	share.open(d.stageBudget())
	ahead := map[int]*execution{} // executions run ahead of their turn (runAhead)
	for k, c := range queue {
		if d.stop {
			break
		}
		if share.spent() {
			share.LeftOut = len(queue) - k
			d.total -= share.LeftOut
			break
		}
		if d.raced[c.ID] { // an earlier directed execution found it
			d.res.Directed = append(d.res.Directed, c.ID)
			continue
		}
		if t := d.opts.Run.Expired(); t != nil { // as run says, before an execution
			d.res.Stopped, d.stop = t, true
			d.res.Directed = append(d.res.Directed, c.ID)
			break
		}
		ex, ok := ahead[k]
		if early, ran := d.early[c.ID]; ran && !ok {
			ex, ok = early, true
			d.res.early++
		}
		delete(d.early, c.ID)
		if !ok {
			if err := d.runAhead(queue, k, ahead); err != nil {
				return err
			}
			ex = ahead[k]
		}
		delete(ahead, k)
		found := d.found()
		d.merge(ex, "race-directed "+c.A+" / "+c.B, ByDirected, c.Inputs)
		share.charge(ex.run, found != d.found())
		d.res.Directed = append(d.res.Directed, c.ID)
		if d.raced[c.ID] {
			d.res.Confirmed = append(d.res.Confirmed, c)
		}
	}
	d.early = nil // those whose turn did not come
	return nil
}

// directedQueue lists the candidates of the race-directed stage in its
// order: the pairs earlier analyses confirmed, then the potential races of
// this one in the order they were seen, but the pairs that are races
// already, those tried before in vain, and those seen on an explored input
// an execution ran out of its budget on.
func (d *detection) directedQueue() []*Candidate {
	var queue []*Candidate
	queued := map[string]bool{}
	for _, c := range append(append([]*Candidate(nil), d.opts.Prior.Confirmed...), d.cands...) {
		if queued[c.ID] || d.raced[c.ID] || (d.opts.Prior.Tried[c.ID] && !d.confirmedBefore(c.ID)) || d.long[c.Inputs.Key()] {
			continue
		}
		queued[c.ID] = true
		queue = append(queue, c)
	}
	return queue
}

// directedConfig is the configuration of c's race-directed execution.
func (d *detection) directedConfig(c *Candidate) vm.Config {
	cfg := c.Inputs.Apply(d.opts.Run)
	cfg.Policy, cfg.PreemptAt = sched.NewDirected(c.A, c.B), []string{c.A, c.B}
	return cfg
}

// runAhead runs the race-directed execution of queue[k], and beside it,
// on the other workers, those of the candidates after it not raced yet,
// into ahead by position. Each execution depends on its candidate alone,
// and directed merges them in the queue's order, dropping those whose
// turn does not come (an earlier one raced the pair, or spent the share):
// what detection finds is the sequential loop's, on every core.
func (d *detection) runAhead(queue []*Candidate, k int, ahead map[int]*execution) error {
	var at []int
	var cfgs []vm.Config
	for i := k; i < len(queue) && len(at) < d.workers(); i++ {
		c := queue[i]
		if _, ran := d.early[c.ID]; i > k && (d.raced[c.ID] || ran) {
			continue
		}
		at, cfgs = append(at, i), append(cfgs, d.directedConfig(c))
	}
	runs, err := d.executeAll(cfgs, nil, d.workers())
	if err != nil {
		return err
	}
	for j, i := range at {
		ahead[i] = runs[j]
	}
	return nil
}

func (d *detection) confirmedBefore(id string) bool {
	for _, c := range d.opts.Prior.Confirmed {
		if c.ID == id {
			return true
		}
	}
	return false
}

// run runs one execution under cfg's policy with a detector and merges
// what it found. It returns nil when the execution was not run (the time
// budget had run out).
func (d *detection) run(cfg vm.Config, name string, tech Technique, in *Inputs) (*vm.Result, error) {
	if t := d.opts.Run.Expired(); t != nil {
		d.res.Stopped, d.stop = t, true
		return nil, nil
	}
	ex, err := d.execute(cfg)
	if err != nil {
		return nil, err
	}
	d.merge(ex, name, tech, in)
	return ex.run, nil
}

// execution is one finished execution and what its detector found.
type execution struct {
	run *vm.Result
	// policy is the one the execution ran under, with what it recorded.
	policy  sched.Policy
	preempt bool
	// What the detector found; the detector itself (its shadow memory)
	// is not kept, so a batch of executions holds only their findings.
	races []*Race
	cands []*Candidate
	invs  []*Inversion
	// steps are what each step of a bounded schedule touched, for the
	// enumeration's reduction.
	steps []step
	// redo names the allocation sites whose objects' private phase the
	// detector could not vouch for: its findings are incomplete.
	redo []ir.LocID
	// starts is how many times the execution began (complete): more than
	// once when its detector learnt sites to shadow from birth.
	starts int
	// noRoom is set when the execution was abandoned to make room for the
	// work beside detection (Options.Room): it runs again (complete).
	noRoom bool
	// met is the detector's Met: how the threads met other than where
	// they were created and joined ("" nowhere).
	met string
}

// only reports whether ex, an execution of two threads or more, is the
// only one its inputs have, so that no other schedule is worth running on
// them: it ran to the program's exit, its threads met only where one
// created or joined another (no other synchronization, no atomic access,
// no call whose effects the monitor does not see: vm.Result.Unordered)
// and raced nowhere. Then each read of another thread's write is ordered
// after it by creation and joins, which every schedule keeps, and no
// write between them can move: every schedule makes each thread read the
// same values, so run the same way, to the same end.
func (ex *execution) only() bool {
	run := ex.run
	return run.Threads > 1 && run.Term.Kind == vm.TermExit && run.Unordered == "" && ex.met == "" &&
		len(ex.races) == 0 && len(ex.cands) == 0 && len(ex.invs) == 0
}

// execute runs one execution under cfg with a detector of its own. It
// touches no state of d's but its options and the sites shadowed from
// birth, so executions may run in parallel (explore).
func (d *detection) execute(cfg vm.Config) (*execution, error) {
	return d.complete(cfg, nil)
}

// complete runs the execution st (nil: one under cfg from the program's
// start) to its end. When its detector cannot vouch for an object's
// private phase (Detector.Redo), the execution is abandoned there and runs
// again from the start, with those allocation sites shadowed from birth,
// under a copy of cfg's policy as it was before any decision (again): the
// machine makes the same execution, and its detector now sees all of it.
// One abandoned to make room for the work beside detection (noRoom, which
// only an execution that can run again shares: enterRoom) runs again the
// same way, and is not counted as a start.
func (d *detection) complete(cfg vm.Config, st *started) (*execution, error) {
	again := cfg
	if st != nil {
		again = st.again
	} else {
		again.Policy = rerunnable(cfg.Policy)
	}
	for starts := 1; ; starts++ {
		ex, err := d.finish1(cfg, st)
		if err != nil || len(ex.redo) == 0 && !ex.noRoom {
			if ex != nil {
				ex.starts = starts
			}
			return ex, err
		}
		if again.Policy == nil {
			return nil, fmt.Errorf("execution under %s: objects kept private, and no way to run it again", cfg.Policy.Name())
		}
		if ex.noRoom {
			starts-- // thrown away to make room (Options.Room), not a start
		}
		d.shared.add(ex.redo)
		cfg, st = again, nil
		cfg.Policy = rerunnable(again.Policy) // again's own stays unused, for the next
	}
}

// finish1 runs st, or when it is nil a new execution under cfg, to its
// end.
func (d *detection) finish1(cfg vm.Config, st *started) (*execution, error) {
	if st == nil {
		defer d.enterRoom(&cfg)()
		var err error
		if st, err = d.begin(cfg); err != nil {
			return nil, err
		}
	}
	return st.finish(cfg)
}

// enterRoom prepares an execution under cfg from the program's start to
// share the memory budget with the work beside detection (Options.Room):
// it waits until the execution may start and returns the function to
// call when it ended. An execution that cannot run again waits until the
// sharing is over and does not share.
func (d *detection) enterRoom(cfg *vm.Config) (leave func()) {
	room := d.opts.Room
	if room == nil {
		return func() {}
	}
	if !canRerun(cfg.Policy) {
		room.WaitOpen()
		return func() {}
	}
	cfg.Room = room.Speculative
	return room.Enter()
}

// rerunnable returns a copy of the policy p that has made no decision
// when p has not (a fork), p itself when it keeps no state, and nil when
// neither can be had (canRerun): such an execution keeps no object
// private.
func rerunnable(p sched.Policy) sched.Policy {
	if f, ok := p.(sched.Forker); ok {
		return f.Fork()
	}
	if canRerun(p) {
		return p
	}
	return nil
}

// canRerun reports whether an execution under p can run again from the
// start (rerunnable): p can be copied, or keeps no state.
func canRerun(p sched.Policy) bool {
	switch p.(type) {
	case sched.Forker, sched.RoundRobin, sched.Quantum:
		return true
	}
	return false
}

// started is an execution ready to run: its machine and its detector,
// and the footprints monitor between them when the enumeration's
// reduction records steps. A fork of a paused one (snapshot.go) is one
// too.
type started struct {
	m   *vm.Machine
	det *Detector
	fp  *footprints
	// again is the configuration that runs the same execution from the
	// program's start, its policy unused (complete); nil policy: none.
	again vm.Config
}

// begin sets up an execution under cfg from the program's start.
func (d *detection) begin(cfg vm.Config) (*started, error) {
	cfg.Stdout, cfg.Stderr, cfg.StdoutLineBuffered = nil, nil, false
	st := &started{det: New()}
	st.det.mutexBlind = d.opts.MutexBlind
	cfg.Monitor = st.det
	if b, ok := cfg.Policy.(*sched.Bounded); ok && d.opts.Explore != nil && !d.opts.Explore.NoReduction {
		st.fp = newFootprints(st.det, b) // for the enumeration's reduction
		cfg.Monitor = st.fp
	}
	if !d.opts.ShadowAll && canRerun(cfg.Policy) {
		st.det.ownsFrom(d.shared.get())
	}
	cfg.Models = libc.Models()
	m, err := vm.New(d.prog, cfg)
	if err != nil {
		return nil, err
	}
	st.m = m
	st.det.Bind(m)
	return st, nil
}

// finish runs the execution to its end and collects what it found.
func (st *started) finish(cfg vm.Config) (*execution, error) {
	run := st.m.Run()
	if run.Term.NoRoom() {
		return &execution{noRoom: true}, nil // abandoned (complete)
	}
	det := st.det
	if redo := det.Redo(); len(redo) > 0 {
		return &execution{redo: redo}, nil // abandoned (complete)
	}
	if run.Term.Kind == vm.TermCanceled {
		return nil, ErrCanceled
	}
	ex := &execution{run: run, policy: st.m.Policy(), preempt: cfg.PreemptAccesses, races: det.Races(), cands: det.Candidates(),
		invs: det.Inversions(), met: det.Met()}
	if st.fp != nil {
		ex.steps = st.fp.steps
	}
	return ex, nil
}

// merge adds what an execution found to the result, and reports whether
// any of it was new: a race, potential race, lock-order inversion or
// failure not seen before.
func (d *detection) merge(ex *execution, name string, tech Technique, in *Inputs) (fresh bool) {
	res, run := d.res, ex.run
	d.ran++
	d.threaded = d.threaded || run.Threads > 1
	res.Runs[tech]++
	res.Instructions += run.Instructions
	res.Havoc = union(res.Havoc, run.Havoc)
	res.Missing = unionMissing(res.Missing, run.Missing)
	var keep []*Race
	inputs := in.Key()
	for _, r := range ex.races {
		r.Trace, r.Inputs, r.Technique, r.PreemptAccesses = run.Trace, in, tech, ex.preempt
		id := RaceCandidateID(r)
		d.raced[id] = true
		// A race seen on an input it was not seen on before, or with other
		// locks held at its accesses, is new behaviour: the schedules that
		// reach it there are worth going on with.
		if b := behaviourOf(id, inputs, r); !d.behaviour[b] {
			d.behaviour[b], fresh = true, true
		}
		d.addFocus(locText.Get(r.First.Loc))
		d.addFocus(locText.Get(r.Second.Loc))
		keep = append(keep, d.occurrence(r)...)
	}
	d.races = append(d.races, keep)
	for _, c := range ex.cands {
		if !d.seenCand[c.ID] {
			d.seenCand[c.ID], fresh = true, true
			d.addFocus(c.A)
			d.addFocus(c.B)
			c.Inputs = in
			d.cands = append(d.cands, c)
		}
	}
	if d.opts.Progress != nil {
		d.opts.Progress(d.ran, d.total)
	}
	for _, inv := range ex.invs {
		if !d.seenInv[inv.ID] {
			d.seenInv[inv.ID], fresh = true, true
			res.Inversions = append(res.Inversions, inv)
		}
	}
	if t := run.Term; t.Kind == vm.TermBudget && t.Budget == vm.BudgetTime {
		res.Stopped, d.stop = t, true // the analysis's clock, not the program: no failure
		return fresh
	}
	if t := run.Term; t.Kind == vm.TermBudget { // instructions or memory: time returned above
		switch {
		case tech == ByRoundRobin && d.ran == 1:
			res.TooLong = t
		case in != nil:
			if res.LongInputs++; res.LongInputSchedule == "" {
				res.LongInputSchedule = name
			}
			d.long[in.Key()] = true
		case res.TooLong == nil:
			if res.CutShort++; res.FirstCutShort == nil {
				res.FirstCutShort, res.CutSchedule = t, name
			}
		}
		return fresh // the analysis's limit, not a failure of the program
	}
	if run.Term.Kind == vm.TermExit && in == nil {
		d.notePrinted(run.Output)
		if tech == ByRoundRobin && d.ran == 1 {
			res.Exit = earlyExit(run)
		}
	}
	if t := run.Term; t.Kind != vm.TermExit {
		key := FailureID(t.Kind, t.Message, t.Loc)
		if !d.seenFail[key] {
			d.seenFail[key], fresh = true, true
			if len(res.Failures) == 0 {
				res.FirstFailure = max(time.Since(d.start), time.Nanosecond)
			}
			o, e := vm.Streams(run.Output)
			res.Failures = append(res.Failures, &Failure{Kind: t.Kind, Message: t.Message, Loc: t.Loc, Thread: t.Thread,
				Stack: t.Stack, Threads: t.Threads, Schedule: name, Trace: run.Trace, Budget: t.Budget, Function: t.Function,
				Inputs: in, PreemptAccesses: ex.preempt, Stdout: string(o), Stderr: string(e)})
		}
	}
	return fresh
}

// MaxOutputs bounds the distinct outputs a Result keeps.
const MaxOutputs = 8

// notePrinted adds an execution's standard output to Result.Outputs when
// no execution printed it before.
func (d *detection) notePrinted(output []vm.OutputEvent) {
	stdout, _ := vm.Streams(output)
	h := sha256.Sum256(stdout)
	if d.printed[h] {
		return
	}
	if d.printed == nil {
		d.printed = map[[sha256.Size]byte]bool{}
	}
	d.printed[h] = true
	if len(d.res.Outputs) < MaxOutputs {
		d.res.Outputs = append(d.res.Outputs, string(stdout))
	} else {
		d.res.MoreOutputs++
	}
}

// kept identifies the occurrences occurrence keeps beyond the first few:
// the first of a race's for each technique and first access.
type kept struct {
	race  string
	tech  Technique
	first ir.Loc
}

// occurrence returns r when it is one of the first 1+MaxAlternates
// occurrences of its race, or the first its technique found in its order
// of the accesses, the ones
// Merge chooses from (the race and its alternates); a later one only adds
// to the first's count of instances.
// Thousands of explored executions then hold memory for a few
// occurrences of each race, not for every execution's schedule.
func (d *detection) occurrence(r *Race) []*Race {
	if d.first == nil {
		d.first, d.occurrences, d.byTechnique = map[string]*Race{}, map[string]int{}, map[kept]bool{}
	}
	d.occurrences[r.ID]++
	// The first of each technique in each order is kept too: Merge
	// prefers alternates in the other order, or that another technique
	// found, which show the race from another prefix.
	tech := kept{r.ID, r.Technique, r.First.Loc}
	if d.occurrences[r.ID] > 1+MaxAlternates && d.byTechnique[tech] {
		d.first[r.ID].Instances += r.Instances
		return nil
	}
	d.byTechnique[tech] = true
	if d.first[r.ID] == nil {
		d.first[r.ID] = r
	}
	return []*Race{r}
}

// finish merges the races of every execution and counts what each
// technique found first.
func (d *detection) finish() *Result {
	res := d.res
	res.Shared = siteNames(d.prog, d.shared.get())
	res.Races = Merge(d.races...)
	for _, r := range res.Races {
		res.Found[r.Technique]++
	}
	for _, c := range d.cands {
		if !d.raced[c.ID] {
			res.Candidates = append(res.Candidates, c)
		}
	}
	res.Schedules = d.ran
	res.Focus = d.focus()
	res.Elapsed = time.Since(d.start)
	return res
}

// EarlyExit is a nonzero exit: its status, and the last line the program
// wrote to standard error before it (what a user reads first: a usage
// message, a file that could not be opened).
type EarlyExit struct {
	Status int
	Stderr string
}

// earlyExit is run's EarlyExit, or nil when it did not exit nonzero.
func earlyExit(run *vm.Result) *EarlyExit {
	if run.Term.Kind != vm.TermExit || run.Term.Status == 0 {
		return nil
	}
	_, stderr := vm.Streams(run.Output)
	lines := strings.Split(strings.TrimRight(string(stderr), "\n"), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 200 {
		last = last[:200] + "..."
	}
	return &EarlyExit{Status: run.Term.Status, Stderr: last}
}

// unionMissing merges two lists of missing files sorted by path, keeping
// for each path the place that comes first in source order, so the
// result does not depend on the order executions finish in.
func unionMissing(a, b []vm.MissingFile) []vm.MissingFile {
	if len(b) == 0 {
		return a
	}
	at := map[string]ir.Loc{}
	for _, f := range append(append([]vm.MissingFile(nil), a...), b...) {
		if l, ok := at[f.Path]; !ok || locBefore(f.At, l) {
			at[f.Path] = f.At
		}
	}
	out := make([]vm.MissingFile, 0, len(at))
	for p, l := range at {
		out = append(out, vm.MissingFile{Path: p, At: l})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// locBefore orders source places by file, line and column.
func locBefore(a, b ir.Loc) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// union merges two sorted lists of names.
func union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// behaviour identifies what an occurrence of a race on some inputs
// shows: the race (its candidate id), the inputs (Inputs.Key), and the
// locks each access held.
type behaviour struct{ race, inputs, firstLocks, secondLocks string }

// behaviourOf is race r's behaviour, r having candidate id id and
// occurred on the inputs whose key is inputs. Every schedule finds the
// races it found before, so this is built without formatting.
func behaviourOf(id, inputs string, r *Race) behaviour {
	return behaviour{id, inputs, lockList(r.First.Locks), lockList(r.Second.Locks)}
}

// lockList joins lock names into one string, allocating only for two or
// more.
func lockList(locks []string) string {
	switch len(locks) {
	case 0:
		return ""
	case 1:
		return locks[0]
	}
	return strings.Join(locks, "\x00")
}

// locText remembers the text of access locations, which detection asks
// for every race of every schedule.
var locText = memo.New(ir.Loc.String)
