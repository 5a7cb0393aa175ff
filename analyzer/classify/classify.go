// Package classify predicts the consequences of each data race, after
// Portend+ (shared/papers/000_*, section 4): it replays the execution that
// exposed the race to just before the first racing access, takes a
// checkpoint, and runs the primary order (as recorded) and the alternate
// order (the other thread's access first) to completion, under several
// post-race schedules, comparing their outcomes and outputs.
package classify

import (
	"errors"
	"fmt"

	"augur/analyzer/category"
	"augur/analyzer/ir"
	_ "augur/analyzer/libc" // the C library's models, for the machines this package runs
	"augur/analyzer/memmodel"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/symex"
	"augur/analyzer/vm"
)

// Category is a race's classification; package category holds what is
// known about each.
type Category = category.Category

// The categories, as the classifier names them.
const (
	SpecViolated   = category.SpecViolated
	OutputDiffers  = category.OutputDiffers
	Harmless       = category.Harmless
	SingleOrdering = category.SingleOrdering
	Unclassified   = category.Unclassified
)

// Options configure classification.
type Options struct {
	// Run is the execution template: the same arguments, input and budgets
	// as the detection run the races came from.
	Run vm.Config
	// Ma is the number of post-race schedules tried per primary (default
	// 2): round robin, then seeded random ones.
	Ma   int
	Seed uint64
	// BudgetFactor bounds the instructions the alternate may take to reach
	// the second access, as a multiple of what the primary took (default 5).
	BudgetFactor uint64
	// Mp is the number of primary paths explored with symbolic inputs
	// (multipath, default 5) when Run marks inputs symbolic (SymArgs,
	// SymStdin, SymFiles) or the program calls augur_make_symbolic.
	Mp int
	// Symbolic turns multipath on.
	Symbolic bool
	// Model is the memory model to classify under. Under the weak model: from the race on, reads
	// return any value the model allows, each in a state of its own, and
	// both orders are judged on all their states.
	Model memmodel.Model
	// Search is how many more pairs a race that showed no harm under its
	// Ma post-race schedules is tried under, each with PCT after the race
	// switching threads at Focus and at the race's own accesses (the harm
	// search, see search.go; 0: DefaultSearch, negative: none). Focus are
	// the access locations detection's exploration switched at.
	Search int
	Focus  []string
}

// Verdict is the classification of one race, as plain data: it refers to
// its race by id and holds no pointer into the analysis that made it, so
// it can be encoded (EncodeVerdict) and made in another process.
type Verdict struct {
	RaceID   string   `json:"race"`
	Category Category `json:"category"`
	K        int      `json:"k"`                 // primary/alternate pairs that agreed (k-witness-harmless)
	Stage    string   `json:"stage"`             // which stage decided
	Reason   string   `json:"reason" loc:"text"` // why, in a sentence
	// Failure is the failing outcome of a spec-violated race, in Order
	// ("primary" or "alternate").
	Failure *vm.Termination `json:"failure,omitempty"`
	Order   string          `json:"order,omitempty"`
	// Outputs are what the primary and the alternate printed in the pair
	// that decided (for a harmful verdict: the harmful execution's output
	// on its side), or in the last pair.
	Outputs [2]Printed `json:"outputs"`
	// Trace is the schedule of the harmful execution: replaying it
	// reproduces Failure or the differing output (the evidence).
	Trace *sched.Trace `json:"trace,omitempty"`
	// Actions are what the harmful execution did to its scheduling beyond
	// its policy's decisions, in order: a replay must do the same there.
	Actions []Action `json:"actions,omitempty"`
	// Points are where the two racing accesses happen in the harmful
	// execution, in the order they happen there.
	Points [2]vm.StopPoint `json:"points"`
	// Inputs are the concrete inputs of the harmful execution when
	// multipath found it on another input than the recorded one, or the
	// race was found on one.
	Inputs *symex.Inputs `json:"inputs,omitempty"`
	// PreemptAccesses is set when the execution switched threads at
	// shared accesses from its start (its race was found so): a replay
	// must too.
	PreemptAccesses bool `json:"preempt_accesses,omitempty"`
	// MemoryModel is the model the race was classified under. Under the
	// weak model, WeakChoices
	// are the reads of the harmful execution that returned an older value
	// than the latest (a replay repeats them), WeakObserved the writes of
	// other threads it did see (to explain the consequence), AllOutputs
	// every distinct output the explored executions printed, and States
	// how many executions were explored.
	MemoryModel  memmodel.Model  `json:"memory_model"`
	WeakChoices  []vm.WeakChoice `json:"weak_choices,omitempty"`
	WeakObserved []vm.WeakWrite  `json:"weak_observed,omitempty"`
	AllOutputs   []string        `json:"all_outputs,omitempty"`
	States       int             `json:"states,omitempty"`
	// Budget is set when the verdict is unclassified because an execution
	// ran out of the analysis's time or memory budget; BudgetMessage says
	// which and how.
	Budget        vm.Budget `json:"budget,omitempty"`
	BudgetMessage string    `json:"budget_message,omitempty"`
	// Seconds is how long classifying the race took, measured where its
	// job ran (Job.Run). It is not part of the encoding, which is the same
	// in every run of the same job: a farm's result carries it beside.
	Seconds float64 `json:"-"`
}

// Printed is what an execution wrote on its standard output and error.
type Printed struct {
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}

// printed collects an execution's output events.
func printed(evs []vm.OutputEvent) Printed {
	out, errOut := vm.Streams(evs)
	return Printed{Stdout: string(out), Stderr: string(errOut)}
}

// errEnforce marks an alternate order that could not be reached.
var errEnforce = errors.New("alternate order cannot be enforced")

// Classify decides the category of race r, found in an execution of prog
// with opts.Run's inputs (or r's own) and r.Trace's schedule. When that
// occurrence shows no harm, the race's other occurrences (r.Alternates,
// from other executions) are classified in turn, each under round robin
// after the race (Ma 1): the first harmful verdict is the race's, and the
// pairs of harmless ones add up to its k. The reason says which
// occurrence decided and why it was tried (see worthTrying for which
// are).
func Classify(prog *ir.Program, r *race.Race, opts Options) *Verdict {
	first := classifyOne(prog, r.At(0), opts)
	if len(r.Alternates) == 0 || category.Of(first.Category).Harmful || first.Budget != 0 {
		return first
	}
	steers := steering(prog, r) != ""
	n := len(r.Alternates) + 1
	var kept *Verdict // the harmless verdict to report, when one is
	if first.Category == Harmless {
		kept = first
	}
	others := 0 // harmless occurrences added to kept's k
	one := opts
	one.Ma = 1
	for i := 1; i < n; i++ {
		inst := r.At(i)
		if !worthTrying(inst, r, steers) {
			continue
		}
		w := classifyOne(prog, inst, one)
		why := fmt.Sprintf("occurrence %d of %d (from the %s execution%s), tried because the first %s", i+1, n,
			inst.Technique, onInputs(inst), shownNoHarm(first))
		switch {
		case category.Of(w.Category).Harmful:
			w.Stage += "; " + why
			w.Reason = why + ": " + w.Reason
			return w
		case w.Budget != 0:
			return first // out of time: the first verdict stands
		case w.Category != Harmless:
			continue // unclassified or single-ordering there: it tells nothing more
		case kept == nil:
			kept = w
			kept.Reason = why + ": " + kept.Reason
		default:
			kept.K += w.K
			others++
		}
	}
	if kept == nil {
		return first
	}
	if others > 0 {
		kept.Reason = fmt.Sprintf("%s; %d other occurrence(s) of the race, from other executions, showed no harm either (k counts their pairs too)",
			kept.Reason, others)
	}
	return kept
}

// worthTrying says whether an occurrence of race r can show what the
// first could not, for the cost of classifying it: it is on other inputs,
// or race-directed scheduling found it (its accesses ran back to back),
// or the racing value steers an access (a bounds check, an index, a
// pointer), whose harm hides in one narrow interleaving, or it shows the
// two accesses in the other order than the first (its primary is the
// first's alternate, reached from another prefix). Another base
// schedule's occurrence of a race whose value steers nothing, in the same
// order, is the same race again.
func worthTrying(inst, r *race.Race, steers bool) bool {
	return steers || inst.Inputs != r.Inputs || (inst.Technique == race.ByDirected && r.Technique != race.ByDirected) ||
		inst.First.Loc != r.First.Loc
}

// onInputs names the inputs an occurrence was found on, when not the
// analysis's own.
func onInputs(r *race.Race) string {
	if r.Inputs == nil {
		return ""
	}
	return " on inputs " + r.Inputs.String()
}

// shownNoHarm says why a first verdict led to the other occurrences.
func shownNoHarm(v *Verdict) string {
	switch v.Category {
	case SingleOrdering:
		return "could not enforce the other order"
	case Unclassified:
		return "could not be classified (" + v.Reason + ")"
	}
	return "showed no harm"
}

// classifyOne classifies one occurrence of a race.
func classifyOne(prog *ir.Program, r *race.Race, opts Options) *Verdict {
	if opts.Ma < 1 {
		opts.Ma = 2
	}
	if opts.BudgetFactor == 0 {
		opts.BudgetFactor = 5
	}
	v := &Verdict{RaceID: r.ID, Stage: "single-pre/single-post", MemoryModel: opts.Model,
		PreemptAccesses: opts.Run.PreemptAccesses || r.PreemptAccesses}
	if r.Inputs != nil {
		// Found on other inputs than the analysis's (explored ones): its
		// schedule replays there (replayConfig), and its evidence must
		// say so.
		in := symex.Inputs(*r.Inputs)
		v.Inputs = &in
	}
	if r.Trace == nil {
		return v.unclassified("the race has no recorded schedule to replay")
	}
	deeper := ""
	if opts.Ma > 1 && opts.Ma < deepMa { // Ma 1 asks for round robin alone
		if where := steering(prog, r); where != "" {
			opts.Ma = deepMa
			deeper = fmt.Sprintf(", %d rather than the usual because the value read is %s", deepMa, where)
		}
	}
	if opts.Symbolic {
		return classifyMultipath(prog, r, opts, v)
	}
	checkpoint, cfg, reason := replayToRace(prog, r, opts)
	if checkpoint == nil {
		if t := opts.Run.Expired(); t != nil {
			return v.stoppedVerdict(t)
		}
		return v.unclassified(reason)
	}
	// How far the primary goes from the first access to the second.
	probe := checkpoint.Fork()
	start := probe.Instructions()
	probe.StopBefore(&r.SecondAt)
	if res := probe.Run(); res.Term.Kind != vm.TermPaused {
		if stopped(res.Term) {
			return v.stoppedVerdict(res.Term)
		}
		return v.unclassified(replayEnded(res.Term, "second"))
	}
	gap := max(probe.Instructions()-start, 1000)
	pairs := newPairRunner(checkpoint, r, opts, opts.Ma, postRacePlan(opts), gap, cfg.MaxInstructions)
	defer pairs.stop()
	for i := 0; i < opts.Ma; i++ {
		primary, alt, err := pairs.get(i)
		if err != nil {
			if i == 0 {
				return v.singleOrdering(err)
			}
			continue
		}
		if v.judge(judging{model: opts.Model}, primary, alt) {
			if i > 0 {
				v.Stage = fmt.Sprintf("multischedule (post-race schedule %d of %d%s)", i+1, opts.Ma, deeper)
			}
			return v
		}
		v.K++
	}
	searched := ""
	if opts.Search >= 0 && opts.Model != memmodel.Weak {
		decided, tried := v.searchHarm(checkpoint, r, opts, gap, cfg.MaxInstructions)
		if decided {
			return v
		}
		if tried > 0 {
			searched = fmt.Sprintf("; a harm search of %d PCT post-race schedules found no failure of its own either", tried)
		}
	}
	v.Category = Harmless
	v.Reason = fmt.Sprintf("both orders ran to the same outcome and output under %d post-race schedules%s%s", v.K, deeper, searched)
	if opts.Model == memmodel.Weak {
		v.Reason = fmt.Sprintf("both orders reached the same outcomes and outputs under %d post-race schedules, "+
			"%d executions in all with every value the weak memory model lets each read return", v.K, v.States)
	}
	if v.K > 1 {
		v.Stage = "multischedule"
	}
	return v
}

// Action is a change to an execution at a point: "yield" (a scheduling
// decision there, to hold the thread that stands at its access),
// "preempt-accesses" (access preemption starts there), "preempt-at" (the
// accesses at Locs become the preemption points there, vm.SetPreemptAt)
// or "steady-clock" (the clock stops counting instructions there,
// vm.SetSteadyClock).
type Action struct {
	At   vm.StopPoint `json:"at"`
	Do   string       `json:"do"`
	Locs []string     `json:"locs,omitempty"`
}

// postRace is what both orders of a pair do after the race: it sets the
// machine's schedule for the rest of the run and returns the actions a
// replay must repeat.
type postRace interface {
	apply(m *vm.Machine) []Action
}

// postSchedule is step i of the post-race plan.
type postSchedule struct {
	plan *sched.Plan
	i    int
}

// apply sets m's schedule for the rest of its run (a policy of its own,
// so both orders make the same choices) and returns the action that
// starts access preemption, if it does.
func (p postSchedule) apply(m *vm.Machine) []Action {
	step := p.plan.Step(p.i, nil)
	m.SetPolicy(step.Policy)
	if !step.PreemptAccesses {
		return nil
	}
	m.SetPreemptAccesses(true)
	cur := m.Current()
	return []Action{{At: vm.StopPoint{Thread: cur, Count: m.ThreadCount(cur)}, Do: "preempt-accesses"}}
}

// runPair runs both orders of r from the checkpoint under the i-th
// post-race schedule: round robin at synchronization points first, then
// seeded random choices at every preemption point, shared accesses
// included. gap is how far the primary goes from the first access to the
// second; the alternate may take BudgetFactor times that to get there.
func runPair(pm, am *vm.Machine, r *race.Race, opts Options, post postRace, gap, budget uint64) (primary, alt outcome, err error) {
	// From the race on the clock is an input: both orders read the same
	// times (vm.Machine.SetSteadyClock), so a printed duration does not
	// make them differ.
	steady := Action{At: r.FirstAt, Do: "steady-clock"}
	pm.SetSteadyClock()
	am.SetSteadyClock()
	primary = runPrimary(pm, r, post, budget)
	primary.actions = append([]Action{steady}, primary.actions...)
	alt, err = runAlternate(am, r, post, opts.BudgetFactor*gap, budget)
	alt.actions = append([]Action{steady}, alt.actions...)
	return primary, alt, err
}

// replayConfig is the execution template of a race's replays: the inputs
// and the recorded schedule of the execution that found it, then round
// robin; no output, no monitor.
func replayConfig(r *race.Race, opts Options) vm.Config {
	cfg := r.Inputs.Apply(opts.Run)
	cfg.PreemptAccesses = cfg.PreemptAccesses || r.PreemptAccesses
	cfg.Stdout, cfg.Stderr, cfg.StdinReader, cfg.Monitor, cfg.StdoutLineBuffered = nil, nil, nil, nil, false
	cfg.Policy = &sched.ReplayPrefix{Trace: r.Trace, Fallback: sched.RoundRobin{}}
	if opts.Model == memmodel.Weak {
		cfg.Weak = &vm.Weak{MaxForks: maxWeakStates}
	}
	return cfg
}

// replayToRace replays the execution that found r to just before its
// first racing access: the pre-race checkpoint. It returns nil and why
// when the replay does not get there.
func replayToRace(prog *ir.Program, r *race.Race, opts Options) (*vm.Machine, vm.Config, string) {
	cfg := replayConfig(r, opts)
	m, err := vm.New(prog, cfg)
	if err != nil {
		return nil, cfg, err.Error()
	}
	m.StopBefore(&r.FirstAt)
	if res := m.Run(); res.Term.Kind != vm.TermPaused {
		return nil, cfg, replayEnded(res.Term, "first")
	}
	return m, cfg, ""
}

// replayEnded says why a replay stopped before the racing access which.
func replayEnded(t *vm.Termination, which string) string {
	if t.Kind == vm.TermBudget {
		return fmt.Sprintf("replay ran out of budget before the %s racing access: %s", which, t.Message)
	}
	return fmt.Sprintf("replay ended (%s) before the %s racing access", t.Kind, which)
}

// outcome is how one order ended.
type outcome struct {
	res     *vm.Result
	actions []Action
	points  [2]vm.StopPoint
	// spawned are states the run forked after the race (symbolic inputs):
	// other paths of the same order, explored for failures too.
	spawned []*vm.Machine
	m       *vm.Machine
}

// runPrimary runs the recorded order to completion under a post-race
// policy: the replayed schedule up to the second access, then post.
func runPrimary(m *vm.Machine, r *race.Race, post postRace, budget uint64) outcome {
	m.StopBefore(&r.SecondAt)
	if res := m.Run(); res.Term.Kind != vm.TermPaused {
		return outcome{res: res}
	}
	m.StopBefore(nil)
	actions := post.apply(m)
	m.SetWeakReads(true) // from the race on, reads may return older values (weak model only)
	res := m.Run()
	return outcome{res: res, actions: actions, points: [2]vm.StopPoint{r.FirstAt, r.SecondAt}, spawned: m.Spawned(), m: m}
}

// runAlternate holds the first thread until the second reaches the
// instruction of its racing access (within gapBudget instructions), then
// runs to completion under post. It returns errEnforce-wrapped reasons when
// the alternate order cannot be reached: the second thread waits for the
// first (blocked on it, or spinning on a value only it can change).
func runAlternate(m *vm.Machine, r *race.Race, post postRace, gapBudget, budget uint64) (outcome, error) {
	held, other := r.FirstAt.Thread, r.SecondAt.Thread
	m.SetPolicy(&sched.Hold{Thread: held, Fallback: sched.RoundRobin{}})
	var actions []Action
	if m.Current() == held {
		m.Yield() // the held thread stands at its access: switch away
		actions = append(actions, Action{At: r.FirstAt, Do: "yield"})
	}
	m.StopBefore(&vm.StopPoint{Thread: other, Loc: r.SecondLoc, Count: m.ThreadCount(other)})
	m.SetMaxInstructions(m.Instructions() + gapBudget)
	spin := newSpinWatch(m, other)
	m.SetMonitor(spin)
	res := m.Run()
	m.SetMonitor(nil)
	waits := func(how string) error {
		return fmt.Errorf("%w: thread %d %s waiting for thread %d to go first", errEnforce, other, how, held)
	}
	switch {
	case spin.spinning:
		return outcome{}, waits("spins at " + spin.where)
	case res.Term.Kind == vm.TermPaused:
	case res.Term.Kind == vm.TermReplay && errors.Is(res.Term.Err, sched.ErrHeld):
		return outcome{}, waits("blocks")
	case res.Term.Kind == vm.TermBudget && res.Term.Budget.Hang():
		return outcome{}, waits(fmt.Sprintf("runs %d instructions without reaching its racing access", gapBudget))
	default: // failed on the way: the alternate order is harmful
		return outcome{res: res, actions: actions, points: [2]vm.StopPoint{r.SecondAt, r.FirstAt}}, nil
	}
	// The second thread stands at its racing access, the first is held. If
	// after the access it comes back to the access, reading the same memory
	// from the same state, it is spinning on a value only the held thread
	// changes: the other order cannot happen (ad hoc synchronization). A
	// state it comes back to elsewhere says nothing of the race: the
	// access happened, and a loop after it (a server's event loop ticking
	// its clock while the held thread would serve a request) is the
	// program going on without the held thread.
	probe := m.Fork()
	probe.StopBefore(nil)
	watch := newSpinWatch(probe, other)
	watch.at = r.SecondLoc
	probe.SetMonitor(watch)
	probe.Run()
	if watch.spinning {
		return outcome{}, waits("spins at " + watch.where)
	}
	m.StopBefore(nil)
	// The second access is the next access at its location from here.
	secondAt := vm.StopPoint{Thread: other, Count: m.ThreadCount(other), Loc: r.SecondLoc}
	actions = append(actions, post.apply(m)...)
	m.SetMaxInstructions(budget)
	m.SetWeakReads(true)
	res = m.Run()
	return outcome{res: res, actions: actions, points: [2]vm.StopPoint{secondAt, r.FirstAt}, spawned: m.Spawned(), m: m}, nil
}

// harmful reports the terminations that violate the program's
// specification: crashes, memory errors, failed asserts, aborts, deadlocks
// and hangs (an exhausted instruction budget).
func harmful(t *vm.Termination) bool {
	switch t.Kind {
	case vm.TermCrash, vm.TermAssert, vm.TermAbort, vm.TermDeadlock:
		return true
	case vm.TermBudget:
		return t.Budget.Hang()
	}
	return false
}

// stopped reports an execution the analysis's own limits cut short (its
// time or memory budget, or a cancellation): it says nothing about the
// program, so no verdict may rest on it.
func stopped(t *vm.Termination) bool {
	return t.Kind == vm.TermCanceled || (t.Kind == vm.TermBudget && !t.Budget.Hang())
}

// stoppedVerdict leaves v unclassified because the execution ending in t
// was cut short by a budget.
func (v *Verdict) stoppedVerdict(t *vm.Termination) *Verdict {
	v.Budget, v.BudgetMessage = t.Budget, t.Message
	return v.unclassified("the analysis stopped before deciding: " + t.Message)
}

func (v *Verdict) unclassified(reason string) *Verdict {
	v.Category, v.Reason = Unclassified, reason
	return v
}

func (v *Verdict) singleOrdering(err error) *Verdict {
	v.Category = SingleOrdering
	v.Reason = err.Error()
	return v
}

// spinWatch watches the second thread while the first is held: if it reads
// the same value at the same place from a state (its whole stack) it has
// been in before, and no other thread ran an instruction between, it is
// spinning on something only the held thread changes. A thread that polls
// for what a third thread is still computing (a writer waiting for a
// compressor's block while main is held) comes back to the same state too,
// but the others ran meanwhile: it is waiting for them, and may yet reach
// its access.
type spinWatch struct {
	m      *vm.Machine
	thread int
	// seen maps each state the thread read in to the instructions the
	// other threads had run then (vm.Machine.OthersCount).
	seen map[uint64]uint64
	// at, when set, limits the watch to reads at that source location.
	at       ir.LocID
	spinning bool
	where    string
}

func newSpinWatch(m *vm.Machine, thread int) *spinWatch {
	return &spinWatch{m: m, thread: thread, seen: map[uint64]uint64{}}
}

func (s *spinWatch) Access(a *vm.Access) {
	if s.spinning || a.Thread != s.thread || a.Kind.IsWrite() || (s.at != 0 && a.Site.Loc != s.at) {
		return
	}
	d := s.m.StateDigest(a.Thread) ^ uint64(a.Site.Loc)<<40 ^ uint64(a.Obj.ID)<<20 ^ a.Off
	if b, err := s.m.Memory().Read(ir.Addr(a.Obj.ID, a.Off), a.Size); err == nil {
		for i, x := range b { // the value read: a spin reads the same one
			d ^= uint64(x) << (8 * (i % 8))
		}
		d *= 1099511628211
	}
	others := s.m.OthersCount(a.Thread)
	if at, ok := s.seen[d]; ok && at == others {
		s.spinning = true
		s.where = s.m.Program().Loc(a.Site.Loc).String()
		s.m.StopBefore(&vm.StopPoint{Thread: a.Thread, Count: a.Count + 1})
		return
	}
	s.seen[d] = others
}

func (s *spinWatch) Sync(vm.SyncEvent) {}

// UsesSymbolicInputs reports whether the program marks inputs symbolic
// itself (augur_make_symbolic, klee_make_symbolic, __VERIFIER_nondet_*), so
// classification should explore paths (multipath).
func UsesSymbolicInputs(prog *ir.Program, undefined vm.UndefinedPolicy) bool {
	return vm.MarksInputs(prog, undefined)
}
