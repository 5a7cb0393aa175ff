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
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/category"
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
	// AroundInputs makes the inputs of each race's execution symbolic
	// around their values (symex.Around) for multipath: the analysis
	// named no symbolic input, and explores the ones it was given.
	AroundInputs bool
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
	// Alone is set on a spec-violated verdict decided in the recorded
	// order alone, the other order being impossible (primaryAlone): why it
	// is. Its failure came from what ran after the race, and Attribute
	// gives it to another race whose two orders explain it.
	Alone string `json:"alone,omitempty"`
	// Otherwise is, on such a verdict, what the race's other input paths
	// or occurrences showed, which its failure ended the search before
	// (nil when there were none): the verdict Attribute reports when the
	// failure is another race's.
	Otherwise *Verdict `json:"otherwise,omitempty"`
	// Outputs are what the primary and the alternate printed in the pair
	// that decided (for a harmful verdict: the harmful execution's output
	// on its side), or in the last pair, each with its version of the
	// files the two left differently.
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
	// Cut says what a budget left out of a verdict that was decided all
	// the same (the rest of the harm search, the race's later
	// occurrences), and CutBudget which budget: the verdict stands on what
	// ran, and the analysis that holds it is incomplete, so a smaller k on
	// a busier machine reads as a cut rather than as another verdict.
	Cut       string    `json:"cut,omitempty"`
	CutBudget vm.Budget `json:"cut_budget,omitempty"`
	// Paths is how many input paths the race was classified on
	// (multipath; 1 without symbolic inputs).
	Paths int `json:"paths,omitempty"`
	// Seconds is how long classifying the race took, measured where its
	// job ran (Job.Run). It is not part of the encoding, which is the same
	// in every run of the same job: a farm's result carries it beside.
	Seconds float64 `json:"-"`
}

// Printed is what an execution wrote on its standard output and error,
// and its version of each file the pair's other order left otherwise
// (files.go).
type Printed struct {
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	Files  []File `json:"files,omitempty"`
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
	v := classifyOccurrences(prog, r, opts)
	if v.Cut != "" && v.Budget == 0 {
		v.Reason += "; the analysis's budget cut it short: " + v.Cut
	}
	return v
}

// classifyOccurrences is Classify before the reason says what a budget
// cut.
func classifyOccurrences(prog *ir.Program, r *race.Race, opts Options) *Verdict {
	first := classifyOne(prog, r.At(0), opts)
	if len(r.Alternates) == 0 || first.Category == SpecViolated || first.Budget != 0 {
		return first
	}
	if first.Category == OutputDiffers {
		return failingOccurrence(prog, r, opts, first)
	}
	one := opts
	one.Ma = 1
	return laterOccurrences(r, first, steering(prog, r) != "", func(inst *race.Race) *Verdict {
		return classifyOne(prog, inst, one)
	})
}

// laterOccurrences classifies the occurrences of r after the first (whose
// verdict, first, showed no harm) with classify, in turn, skipping those
// worthTrying rules out: the first harmful verdict is the race's, and
// the pairs of harmless ones add up to the k of the first harmless
// verdict. An occurrence cut short by the analysis's budget ends the
// search: what was decided stands, and its reason says k leaves that
// occurrence out, so a smaller k on a busier machine reads as a cut, not
// as a different verdict.
func laterOccurrences(r *race.Race, first *Verdict, steers bool, classify func(*race.Race) *Verdict) *Verdict {
	n := len(r.Alternates) + 1
	var kept *Verdict // the harmless verdict to report, when one is
	if first.Category == Harmless {
		kept = first
	}
	others := 0             // harmless occurrences added to kept's k
	var cut *vm.Termination // what left an occurrence unfinished, when one was
	cutAt := 0
	tried := []*Verdict{first} // the occurrences classified to the end
	var alone *Verdict         // the first one-order failure (oneOrder)
occurrences:
	for i := 1; i < n; i++ {
		inst := r.At(i)
		if !worthTrying(inst, r, steers) {
			continue
		}
		w := classify(inst)
		why := fmt.Sprintf("occurrence %d of %d (from the %s execution%s), tried because the first %s", i+1, n,
			inst.Technique, onInputs(inst), shownNoHarm(first))
		switch {
		case w.Harmful():
			w.Stage += "; " + why
			w.Reason = why + ": " + w.Reason
			if w.Alone != "" {
				if alone == nil {
					alone = w
				}
				continue
			}
			return oneOrder(alone, w)
		case w.Budget != 0:
			cut = &vm.Termination{Kind: vm.TermBudget, Budget: w.Budget, Message: w.BudgetMessage}
			cutAt = i + 1
			break occurrences
		case w.Category != Harmless:
			continue // unclassified or single-ordering there: it tells nothing more
		case kept == nil:
			kept = w
			kept.Reason = why + ": " + kept.Reason
		default:
			kept.K += w.K
			others++
		}
		tried = append(tried, w)
	}
	if kept == nil {
		kept = first
	}
	for _, w := range tried { // a harm search cut in any of them
		kept.keepCut(w)
	}
	if others > 0 {
		kept.Reason = fmt.Sprintf("%s; %d other occurrence(s) of the race, from other executions, showed no harm either (k counts their pairs too)",
			kept.Reason, others)
	}
	if cut != nil {
		kept.cutBy(cut, fmt.Sprintf("occurrence %d of %d was not finished, so k leaves it and any later one out", cutAt, n))
	}
	return oneOrder(alone, kept)
}

// oneOrder returns the verdict of a race whose search met alone, a
// failure in the one possible order (Verdict.Alone; nil when it met
// none), and ended with rest, what the other paths or occurrences
// showed. A two-order failure is the race's own and stands; otherwise a
// one-order failure stands, with rest as what Attribute reports if
// another race explains that failure.
func oneOrder(alone, rest *Verdict) *Verdict {
	if alone == nil || rest != nil && rest.Category == SpecViolated && rest.Alone == "" {
		return rest
	}
	alone.Otherwise = rest
	return alone
}

// failingOccurrence looks among the other occurrences of r, whose first
// showed an output difference, for one where an order fails: a reader
// preempted between reading a pointer and following it, in one
// occurrence, is what makes the other order's free a use after free. The
// first spec-violated verdict is the race's; otherwise the output
// difference stands.
func failingOccurrence(prog *ir.Program, r *race.Race, opts Options, first *Verdict) *Verdict {
	steers := steering(prog, r) != ""
	n := len(r.Alternates) + 1
	var alone *Verdict // the first one-order failure (oneOrder)
	for i := 1; i < n; i++ {
		inst := r.At(i)
		if !worthTrying(inst, r, steers) {
			continue
		}
		w := classifyOne(prog, inst, opts)
		if w.Budget != 0 {
			first.cutBy(&vm.Termination{Kind: vm.TermBudget, Budget: w.Budget, Message: w.BudgetMessage},
				fmt.Sprintf("occurrence %d of %d, tried for a failure behind the output difference, was not finished", i+1, n))
			return oneOrder(alone, first)
		}
		if w.Category == SpecViolated {
			why := fmt.Sprintf("occurrence %d of %d (from the %s execution%s), tried because the first showed an output difference and no failure",
				i+1, n, inst.Technique, onInputs(inst))
			w.Stage += "; " + why
			w.Reason = why + ": " + w.Reason
			if w.Alone == "" {
				return w
			}
			if alone == nil {
				alone = w
			}
		}
	}
	return oneOrder(alone, first)
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

// classifyOne classifies one occurrence of a race: on the inputs it was
// found on, and, when inputs are symbolic, on the other input paths the
// exploration of its execution proposes (multipath, paths.go), each with
// its post-race schedules and harm search (classifyPath). The verdict is
// the most severe any path showed: a failure on one input path makes the
// race spec-violated, whatever the others showed; k counts the harmless
// path and schedule pairs.
func classifyOne(prog *ir.Program, r *race.Race, opts Options) *Verdict {
	if opts.Ma < 1 {
		opts.Ma = 2
	}
	if opts.BudgetFactor == 0 {
		opts.BudgetFactor = 5
	}
	if opts.Mp < 1 {
		opts.Mp = 5
	}
	base := Verdict{RaceID: r.ID, Stage: "single-pre/single-post", MemoryModel: opts.Model,
		PreemptAccesses: opts.Run.PreemptAccesses || r.PreemptAccesses}
	if r.Trace == nil {
		return base.unclassified("the race has no recorded schedule to replay")
	}
	deeper := ""
	if opts.Ma > 1 && opts.Ma < deepMa { // Ma 1 asks for round robin alone
		if where := steering(prog, r); where != "" {
			opts.Ma = deepMa
			deeper = fmt.Sprintf(", %d rather than the usual because the value read is %s", deepMa, where)
		}
	}
	paths := []pathInput{{in: r.Inputs, why: "the inputs it was found on"}}
	if opts.Symbolic || opts.AroundInputs && symex.Marked(replayConfig(r, opts)) {
		paths = append(paths, candidateInputs(prog, r, opts)...)
	}
	return decide(prog, r, opts, base, paths, deeper)
}

// decide classifies r on each input path in turn and keeps the most
// severe verdict: the first spec-violated one ends the search; otherwise
// an output difference, then harmlessness (k adding up over the paths),
// then single ordering, then what could not be decided. A failure in the
// one possible order of a path (Verdict.Alone) does not end it: it is
// the race's verdict unless a later path fails in both orders, and what
// the other paths showed goes with it (oneOrder).
func decide(prog *ir.Program, r *race.Race, opts Options, base Verdict, paths []pathInput, deeper string) *Verdict {
	var differs, harmless, single, other *Verdict
	var cuts []*Verdict // the paths' verdicts, whose cuts the reported one carries
	var alone *Verdict  // the first one-order failure (oneOrder)
	k, agreed, long, singles, others, absent := 0, 0, 0, 0, 0, 0
	for j, p := range paths {
		rr := *r
		rr.Inputs = p.in
		if p.moved {
			occ, cut := relocate(prog, r, opts, p.in)
			if cut && j > 0 {
				long++ // the input makes the program outrun the budget (below)
				continue
			}
			if occ == nil {
				// The input takes the program elsewhere: neither the
				// recorded schedule nor one directed at the race's
				// statements races them there.
				absent++
				continue
			}
			rr = *occ
		}
		w := classifyPath(prog, &rr, opts, base, deeper)
		if j > 0 && (w.Budget == vm.BudgetInstructions || w.Budget == vm.BudgetMemory) {
			// Another input path that makes the program run longer than
			// the budget allows (a grid's size from the arguments): a
			// limit of the input exploration, not of this race's
			// classification on its own inputs.
			long++
			continue
		}
		if w.Budget != 0 {
			if alone != nil { // the one-order failure stands on its own path
				alone.cutBy(&vm.Termination{Kind: vm.TermBudget, Budget: w.Budget, Message: w.BudgetMessage},
					fmt.Sprintf("input path %d of %d was not finished", j+1, len(paths)))
				return alone
			}
			return w // cut short by the analysis's budget: nothing to rest a verdict on
		}
		w.Paths = j + 1
		if len(paths) > 1 {
			w.Stage = fmt.Sprintf("multipath (input path %d of %d, %s): %s", j+1, len(paths), p.why, w.Stage)
		}
		if w.Category == SpecViolated && w.Alone != "" {
			if alone == nil {
				alone = w
			}
			continue
		}
		cuts = append(cuts, w)
		switch w.Category {
		case SpecViolated:
			return w
		case OutputDiffers:
			if differs == nil {
				differs = w
			}
		case Harmless:
			k += w.K
			agreed++
			if harmless == nil {
				harmless = w
			}
		case SingleOrdering:
			singles++
			if single == nil {
				single = w
			}
		default:
			others++
			if other == nil {
				other = w
			}
		}
	}
	var w *Verdict
	switch {
	case differs != nil:
		w = differs
	case harmless != nil:
		harmless.K, harmless.Paths = k, len(paths)
		if len(paths) > 1 {
			harmless.Stage = "multipath multischedule"
			harmless.Reason = fmt.Sprintf("both orders ran to the same outcomes and outputs on %d of %d input paths, %d path and post-race schedule pairs in all%s",
				agreed, len(paths), k, deeper)
			if singles > 0 {
				harmless.Reason += fmt.Sprintf("; on %d the other order could not be enforced", singles)
			}
			if others > 0 {
				harmless.Reason += fmt.Sprintf("; %d could not be classified (first: %s)", others, other.Reason)
			}
		}
		w = harmless
	case single != nil:
		w = single
	default:
		w = other
	}
	if w == nil { // every path classified was the one-order failure's
		return alone
	}
	if !w.Harmful() {
		// A harmful verdict stands on its own path; a harmless one on
		// them all, cuts included.
		for _, p := range cuts {
			w.keepCut(p)
		}
	}
	if long > 0 {
		w.Reason += fmt.Sprintf(" (%d other input path(s) ran out of their instruction or memory budget and were left out)", long)
	}
	if absent > 0 && !w.Harmful() {
		// What a harmless verdict rests on; a harmful one stands on its
		// own path.
		w.Reason += fmt.Sprintf(" (on %d other input path(s) the race was not found again, and they were left out)", absent)
	}
	return oneOrder(alone, w)
}

// classifyPath classifies r on its own inputs (r.Inputs), concretely:
// it replays the execution that found the race to just before the first
// racing access, runs both orders under opts.Ma post-race schedules and
// the harm search, and judges. A failure decides spec-violated, an
// output one order can print and the other cannot output-differs, each
// only once its evidence replays (verify); an alternate order that cannot
// be enforced leaves the recorded order alone, still searched for harm.
//
// A harmful verdict's replay (verify) is an execution from the program's
// start, which would run beside the checkpoint and the pairs this holds.
// When that would not fit under the memory budget (tightMemory), the
// replay waits until they are let go: the path's classification stops at
// the verdict, the replay runs alone, and when it does not hold the
// classification runs again, the same up to there (it is deterministic),
// with that verdict set aside.
func classifyPath(prog *ir.Program, r *race.Race, opts Options, base Verdict, deeper string) *Verdict {
	var failed map[int]string
	for {
		w, pending := classifyPathOnce(prog, r, opts, base, deeper, failed)
		if pending < 0 {
			return w
		}
		if checksAlone != nil {
			checksAlone()
		}
		why := setAside(prog, r, w, opts)
		if why == "" {
			return w
		}
		if failed == nil {
			failed = map[int]string{}
		}
		failed[pending] = why
	}
}

// checksAlone, set by tests only, is called as a verdict's replay runs
// after its path's executions were let go.
var checksAlone func()

// classifyPathOnce is one run of classifyPath's classification. failed
// holds the harmful verdicts, by their number in the order the run meets
// them, whose replay was found not to hold by an earlier run. It returns
// the verdict, and the number of the harmful verdict whose replay is
// still to be checked (-1 when none is: each was checked, or it is not
// harmful).
func classifyPathOnce(prog *ir.Program, r *race.Race, opts Options, base Verdict, deeper string, failed map[int]string) (*Verdict, int) {
	c := &path{prog: prog, r: r, opts: opts, deeper: deeper, failed: failed, pending: -1}
	w := c.classify(base)
	return w, c.pending
}

// classify is the classification of one run of classifyPath.
func (c *path) classify(base Verdict) *Verdict {
	prog, r, opts := c.prog, c.r, c.opts
	v := base
	c.v = &v
	if r.Inputs != nil {
		// Found on, or classified on, other inputs than the analysis's:
		// the schedule replays there (replayConfig), and the evidence
		// must say so.
		in := symex.Inputs(*r.Inputs)
		v.Inputs = &in
	}
	checkpoint, cfg, reason := replayToRace(prog, r, opts)
	if checkpoint == nil {
		if t := opts.Run.Expired(); t != nil {
			return v.stoppedVerdict(t)
		}
		return v.unclassified(reason)
	}
	target := raceTarget(checkpoint, r, r.FirstAt, r.First.Loc)
	if target == nil {
		return v.unclassified("the recorded schedule does not bring the first racing access here on these inputs")
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
	if second := raceTarget(probe, r, r.SecondAt, r.Second.Loc); second == nil || !second.overlaps(*target) {
		return v.unclassified("the recorded schedule does not bring the second racing access to the first's memory on these inputs")
	}
	gap := max(probe.Instructions()-start, 1000)
	c.setup = pairSetup{ckpt: checkpoint, gap: gap, budget: cfg.MaxInstructions, target: target, holds: newHoldShare()}
	c.deferChecks = tightMemory(checkpoint, opts.Run.MaxMemory)
	plan := postRacePlan(opts)
	pairs := newPairRunner(c.setup, r, opts, opts.Ma, plan)
	defer pairs.stop()
	for i := 0; i < opts.Ma; i++ {
		primary, alt, err := pairs.get(i)
		stage := "single-pre/single-post"
		if i > 0 {
			stage = "multischedule"
		}
		if w := c.judge(stage, fmt.Sprintf("post-race schedule %d of %d", i+1, opts.Ma), plan(i), primary, alt, err); w != nil {
			return w
		}
	}
	if w := c.searchHarm(); w != nil {
		return w
	}
	return c.conclude()
}

// raceTarget returns the memory the access at p (of a state standing
// there) touches, when it is an access at loc: the first access's is the
// memory the alternate order must bring the second thread to, not merely
// its line (which may touch another object there); on other inputs than
// the recorded ones, p may be another instruction, and the race is not
// there. nil when the access is not r's.
func raceTarget(at *vm.Machine, r *race.Race, p vm.StopPoint, loc ir.Loc) *span {
	probe := at.Fork()
	w := &orderWatch{points: [2]vm.StopPoint{p, {Thread: -1}}, racing: racingAccess(r)}
	probe.SetMonitor(w)
	probe.StopBefore(&vm.StopPoint{Thread: p.Thread, Count: p.Count + 1})
	probe.Run()
	if !w.reached(0) || w.mem[0].size == 0 || at.Program().Loc(w.locs[0]) != loc {
		return nil
	}
	return &w.mem[0]
}

// Action is a change to an execution at a point: "yield" (a scheduling
// decision there, to hold the thread that stands at its access),
// "preempt-accesses" (access preemption starts there), "preempt-at" (the
// accesses at Locs become the preemption points there, vm.SetPreemptAt),
// "steady-clock" (the clock stops counting instructions there,
// vm.SetSteadyClock) or "grant" (the thread there makes the access it
// stands at without yielding first, vm.GrantAccess).
type Action struct {
	At   vm.StopPoint `json:"at"`
	Do   string       `json:"do"`
	Locs []string     `json:"locs,omitempty"`
}

// switchTo makes spec's policy m's for the rest of its run. Its decisions
// never repeat (its choices are drawn at every point): a long program's
// would fill the trace to its limit, past which no replay could follow
// them. m's trace records none of them, and a replay makes the policy
// again where the recorded decisions end (sched.Spec.Switch).
func switchTo(m *vm.Machine, spec *sched.Spec) {
	p, err := spec.Switch(m.Trace())
	if err != nil {
		panic(err) // the specs are classification's own
	}
	m.SetPolicy(p)
}

// postRace is what both orders of a pair do after the race: it sets the
// machine's schedule for the rest of the run and returns the actions a
// replay must repeat.
type postRace interface {
	apply(m *vm.Machine) []Action
}

// backToBack is implemented by the post-race schedules that may ask the
// alternate order to make the first thread's access right after the
// second's, before anything else runs.
type backToBack interface {
	backToBack() bool
}

// inTurn reports whether post asks for the accesses back to back.
func inTurn(post postRace) bool {
	b, ok := post.(backToBack)
	return ok && b.backToBack()
}

// postSchedule is step i of the post-race plan.
type postSchedule struct {
	plan *sched.Plan
	i    int
}

// backToBack implements backToBack: the second post-race schedule makes
// the two accesses of the alternate order back to back (the check, then
// the update it no longer sees coming); the first lets the second thread
// go on from its access, as the recorded execution would have, and the
// others are random.
func (p postSchedule) backToBack() bool { return p.i == 1 }

// apply sets m's schedule for the rest of its run (a policy of its own,
// so both orders make the same choices) and returns the action that
// starts access preemption, if it does.
func (p postSchedule) apply(m *vm.Machine) []Action {
	step := p.plan.Step(p.i, nil)
	if step.Spec != nil {
		switchTo(m, step.Spec)
	} else {
		m.SetPolicy(step.Policy)
	}
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
// included. s.gap is how far the primary goes from the first access to the
// second; the alternate may take BudgetFactor times that to get there.
func runPair(pm, am *vm.Machine, r *race.Race, opts Options, post postRace, s pairSetup) (primary, alt outcome, err error) {
	// From the race on the clock is an input: both orders read the same
	// times (vm.Machine.SetSteadyClock), so a printed duration does not
	// make them differ.
	steady := Action{At: r.FirstAt, Do: "steady-clock"}
	pm.SetSteadyClock()
	am.SetSteadyClock()
	primary = runPrimary(pm, r, post, s, opts.BudgetFactor)
	primary.actions = append([]Action{steady}, primary.actions...)
	alt, err = runAlternate(am, r, post, s, opts.BudgetFactor)
	alt.actions = append([]Action{steady}, alt.actions...)
	return primary, alt, err
}

// grant lets the first thread of r, standing at its access at the
// checkpoint, make it without yielding there first when it next runs (a
// preemption point of access preemption): both orders of a pair do, so
// that the alternate, which releases it after the second access, passes
// no point the tight primary did not. (A run that replays the recorded
// schedule past the access must not: the recorded thread yielded there.)
func grant(m *vm.Machine, r *race.Race) Action {
	m.GrantAccess(r.FirstAt.Thread)
	return Action{At: r.FirstAt, Do: "grant"}
}

// runPrimaryOnly runs the recorded order of r alone from the checkpoint
// under post, for a race whose other order cannot be enforced (the error
// it returns says so). The schedule after the race starts right after the
// first access, not the second: the one possible order is searched at the
// race's own points, and what lies between the two accesses (a decrement,
// then an unlock the other thread's free may precede) is where its harm
// is.
func runPrimaryOnly(pm *vm.Machine, r *race.Race, post postRace, budget uint64) (primary, alt outcome, err error) {
	pm.SetSteadyClock()
	actions := []Action{{At: r.FirstAt, Do: "steady-clock"}}
	second := vm.StopPoint{Thread: r.SecondAt.Thread, Loc: r.SecondLoc, Count: pm.ThreadCount(r.SecondAt.Thread)}
	pm.StopBefore(&vm.StopPoint{Thread: r.FirstAt.Thread, Count: r.FirstAt.Count + 1})
	if res := pm.Run(); res.Term.Kind != vm.TermPaused {
		return outcome{res: res, actions: actions}, outcome{}, errEnforce
	}
	pm.StopBefore(nil)
	actions = append(actions, post.apply(pm)...)
	pm.SetWeakReads(true)
	// Stop where the second thread makes its access, to know that it did:
	// a failure before it is not this order's consequence (beforeSecond).
	pm.StopBefore(&second)
	res := pm.Run()
	made := res.Term.Kind == vm.TermPaused
	if made {
		pm.StopBefore(nil)
		res = pm.Run()
	}
	return outcome{res: res, actions: actions, points: [2]vm.StopPoint{r.FirstAt, second}, m: pm, beforeSecond: !made},
		outcome{}, errEnforce
}

// replayConfig is the execution template of a race's replays: the inputs
// and the recorded schedule of the execution that found it, then round
// robin; no output, no monitor.
func replayConfig(r *race.Race, opts Options) vm.Config {
	cfg := r.Inputs.Apply(opts.Run)
	cfg.Models = libc.Models()
	if opts.AroundInputs {
		cfg = symex.Around(cfg)
	}
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
//
// Another race of the same execution may have replayed it to a point
// before this one (replays): the replay then goes on from there.
func replayToRace(prog *ir.Program, r *race.Race, opts Options) (*vm.Machine, vm.Config, string) {
	cfg := replayConfig(r, opts)
	key, shared := executionKey(cfg, r.Trace)
	var m *vm.Machine
	if shared {
		kept, exact := replays.from(prog.Key(), key, r.FirstAt, cfg.Cancel)
		if exact {
			return kept, cfg, ""
		}
		m = kept
	}
	if m == nil {
		var err error
		if m, err = vm.New(prog, cfg); err != nil {
			return nil, cfg, err.Error()
		}
	}
	stops := []vm.StopPoint{r.FirstAt}
	if shared {
		// Milestones on the way, for the races whose accesses come
		// before this one's but after the states kept so far.
		stops = append(milestones(m, r.FirstAt), r.FirstAt)
	}
	for _, at := range stops {
		m.StopBefore(&at)
		if res := m.Run(); res.Term.Kind != vm.TermPaused {
			return nil, cfg, replayEnded(res.Term, "first")
		}
		if shared {
			replays.put(prog.Key(), key, at, m, opts.Run.MaxMemory)
		}
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
	// beforeSecond marks a run of the recorded order that ended before
	// the second thread made its access (runPrimaryOnly; runPrimary when
	// the second thread failed on its way there). Against an alternate
	// that ran, such a failure is the first access's consequence; when
	// the recorded order is the only one possible, the order never
	// happened in the run, and how it ended is the program's doing
	// (another race's), not this race's (primaryAlone).
	beforeSecond bool
}

// judged is o as a path keeps it once its pair is judged (path.outs):
// what it printed and how it ended, without its states. A state holds
// what the program came to hold after the race, and a path kept every
// harmless pair's: four executions of a program that allocates 80 MiB
// after the race, beside the pairs running, took 717 MiB of RSS under a
// 256 MiB budget.
func (o outcome) judged() outcome {
	o.m, o.spawned = nil, nil
	return o
}

// runPrimary runs the recorded order to completion under a post-race
// policy. It makes the first access and then holds the first thread until
// the second makes its access (the tight primary): the two orders of a
// pair then differ in nothing but the order of the two accesses, and
// what the first thread did between them in the recorded execution (a
// free, a print) counts neither way. When the second thread cannot get
// there without the first (it waits for it), it replays the recorded
// schedule up to the second access instead. Then post.
func runPrimary(m *vm.Machine, r *race.Race, post postRace, s pairSetup, budgetFactor uint64) outcome {
	if m.WeakModel() {
		return runRecorded(m, r, post, s.budget)
	}
	first := r.FirstAt
	st := s.holds.get(primaryOrder, m, func(m *vm.Machine) heldState { return primaryHold(m, r, budgetFactor*s.gap, s.target) })
	tight, h := st.m, st.h
	if st.early != nil {
		return outcome{res: st.early, points: [2]vm.StopPoint{first, r.SecondAt}, m: tight}
	}
	if st.err != nil || h.at == nil {
		if h.failed != nil { // the second thread failed on its way: the failure stands as the recorded order's
			return outcome{res: h.failed, actions: h.actions, points: [2]vm.StopPoint{first, r.SecondAt}, m: tight, beforeSecond: true}
		}
		return runRecorded(m, r, post, s.budget)
	}
	actions := append([]Action{st.granted, {At: vm.StopPoint{Thread: first.Thread, Count: first.Count + 1}, Do: "yield"}}, h.actions...)
	tight.StopBefore(nil)
	actions = append(actions, post.apply(tight)...)
	actions = append(actions, firstGoesOn(tight, post, first.Thread, r.SecondAt.Thread)...)
	tight.SetMaxInstructions(s.budget)
	res := tight.Run()
	return outcome{res: res, actions: actions, points: [2]vm.StopPoint{first, *h.at}, spawned: tight.Spawned(), m: tight}
}

// primaryHold makes the first access on a fork of m and then holds the
// first thread until the second makes its access (holdUntilSecond): the
// primary's part before its post-race schedule. m itself is left as it
// was, for runRecorded.
func primaryHold(m *vm.Machine, r *race.Race, gapBudget uint64, target *span) heldState {
	tight := m.Fork()
	first := r.FirstAt
	st := heldState{m: tight, granted: grant(tight, r)}
	tight.StopBefore(&vm.StopPoint{Thread: first.Thread, Count: first.Count + 1})
	if res := tight.Run(); res.Term.Kind != vm.TermPaused {
		st.early = res
		return st
	}
	st.h, st.err = holdUntilSecond(tight, r, sched.RoundRobin{}, gapBudget, target)
	return st
}

// firstGoesOn makes the first thread run next, where both accesses are
// made, when post asks for the accesses back to back: the primary's
// second thread and the alternate's first (standing at at) give way to
// it with the same forced decision, so the post-race schedule's own
// decisions fall at the same points in both orders.
func firstGoesOn(m *vm.Machine, post postRace, first, at int) []Action {
	if !inTurn(post) {
		return nil
	}
	m.SetPolicy(&sched.First{Thread: first, Then: m.Policy()})
	m.Yield()
	return []Action{{At: vm.StopPoint{Thread: at, Count: m.ThreadCount(at)}, Do: "yield"}}
}

// runRecorded runs the recorded order as the execution that found the
// race ran it, up to the second access, then under post.
func runRecorded(m *vm.Machine, r *race.Race, post postRace, budget uint64) outcome {
	m.StopBefore(&r.SecondAt)
	if res := m.Run(); res.Term.Kind != vm.TermPaused {
		return outcome{res: res}
	}
	if !m.WeakModel() {
		// Past the second access, on the recorded schedule: with access
		// preemption a thread stands at its access once before it yields
		// and once when it makes it, and the schedule after the race must
		// start when both accesses are made. (Under the weak model the
		// second access is left to the weak reads, as before.)
		m.StopBefore(&vm.StopPoint{Thread: r.SecondAt.Thread, Count: r.SecondAt.Count + 1})
		if res := m.Run(); res.Term.Kind != vm.TermPaused {
			return outcome{res: res, points: [2]vm.StopPoint{r.FirstAt, r.SecondAt}, m: m}
		}
	}
	m.StopBefore(nil)
	actions := post.apply(m)
	m.SetWeakReads(true) // from the race on, reads may return older values (weak model only)
	m.SetMaxInstructions(budget)
	res := m.Run()
	return outcome{res: res, actions: actions, points: [2]vm.StopPoint{r.FirstAt, r.SecondAt}, spawned: m.Spawned(), m: m}
}

// held is how holding the first thread back went (holdUntilSecond).
type held struct {
	// at is where the second thread made its racing access (nil: it
	// stands before it, with no memory to tell it by).
	at      *vm.StopPoint
	actions []Action
	// failed is the second thread's failure on its way to its access.
	failed *vm.Result
	spin   *spinWatch
}

// holdUntilSecond runs m with the first thread of r held, the others
// chosen by among, until the second thread makes its access at the
// second access's location to the race's memory (target; with no target,
// until it stands at that location), within gapBudget instructions. It
// returns errEnforce-wrapped reasons when the second thread cannot get
// there without the first: it blocks on it, spins on a value only it can
// change, or runs out of the instructions it may take.
func holdUntilSecond(m *vm.Machine, r *race.Race, among sched.Policy, gapBudget uint64, target *span) (held, error) {
	first, other := r.FirstAt.Thread, r.SecondAt.Thread
	m.SetPolicy(&sched.Hold{Thread: first, Fallback: among})
	var h held
	if m.Current() == first {
		m.Yield() // the held thread stands at (or right after) its access: switch away
		h.actions = append(h.actions, Action{At: vm.StopPoint{Thread: first, Count: m.ThreadCount(first)}, Do: "yield"})
	}
	h.spin = newSpinWatch(m, other)
	arrive := &arrival{m: m, spin: h.spin, thread: other, loc: r.SecondLoc, target: target}
	if target == nil {
		m.StopBefore(&vm.StopPoint{Thread: other, Loc: r.SecondLoc, Count: m.ThreadCount(other)})
	}
	m.SetMaxInstructions(m.Instructions() + gapBudget)
	m.SetMonitor(arrive)
	res := m.Run()
	m.SetMonitor(nil)
	h.at = arrive.at
	waits := func(how string) error {
		return fmt.Errorf("%w: thread %d %s waiting for thread %d to go first", errEnforce, other, how, first)
	}
	switch {
	case h.spin.spinning:
		return h, waits("spins at " + h.spin.where)
	case res.Term.Kind == vm.TermPaused:
		return h, nil
	case res.Term.Kind == vm.TermReplay && errors.Is(res.Term.Err, sched.ErrHeld):
		return h, waits("blocks")
	case res.Term.Kind == vm.TermHang || res.Term.OutOfInstructions():
		return h, waits(fmt.Sprintf("runs %d instructions without reaching its racing access", gapBudget))
	}
	h.failed = res
	return h, nil
}

// runAlternate holds the first thread until the second makes the racing
// access of its location to the race's memory (holdUntilSecond), then
// runs to completion under post. It returns errEnforce-wrapped reasons
// when the alternate order cannot be reached: the second thread waits for
// the first (blocked on it, or spinning on a value only it can change).
func runAlternate(m *vm.Machine, r *race.Race, post postRace, s pairSetup, budgetFactor uint64) (outcome, error) {
	first, other := r.FirstAt.Thread, r.SecondAt.Thread
	st := s.holds.get(alternateOrder, m, func(m *vm.Machine) heldState { return alternateHold(m, r, budgetFactor*s.gap, s.target) })
	if st.err != nil {
		return outcome{}, st.err
	}
	m, h := st.m, st.h
	actions := append([]Action{st.granted}, h.actions...)
	if h.failed != nil {
		// It failed on the way, its racing access not made: a failure of
		// the schedule that holds the first thread, which verify refuses
		// as this race's consequence.
		return outcome{res: h.failed, actions: actions, points: [2]vm.StopPoint{r.SecondAt, r.FirstAt}}, nil
	}
	m.StopBefore(nil)
	secondAt := vm.StopPoint{Thread: other, Count: m.ThreadCount(other), Loc: r.SecondLoc}
	if h.at != nil {
		secondAt = *h.at // made already, at exactly this count
	}
	m.SetMaxInstructions(s.budget)
	if inTurn(post) && h.at != nil {
		// The first thread makes its access right after the second's,
		// before the schedule after the race starts: both orders then
		// stand where both accesses are made, with the first thread to go
		// on (firstGoesOn), and the post-race schedule's decisions fall
		// at the same points in both.
		m.SetPolicy(&sched.Only{Thread: first})
		m.Yield()
		actions = append(actions, Action{At: vm.StopPoint{Thread: other, Count: m.ThreadCount(other)}, Do: "yield"})
		m.StopBefore(&vm.StopPoint{Thread: first, Count: r.FirstAt.Count + 1})
		if res := m.Run(); res.Term.Kind != vm.TermPaused {
			return outcome{res: res, actions: actions, points: [2]vm.StopPoint{secondAt, r.FirstAt}, m: m}, nil
		}
		m.StopBefore(nil)
	}
	actions = append(actions, post.apply(m)...)
	if h.at != nil {
		actions = append(actions, firstGoesOn(m, post, first, first)...)
	}
	m.SetWeakReads(true)
	res := m.Run()
	return outcome{res: res, actions: actions, points: [2]vm.StopPoint{secondAt, r.FirstAt}, spawned: m.Spawned(), m: m}, nil
}

// alternateHold holds the first thread of r on m until the second makes
// its access (holdUntilSecond): the alternate's part before its post-race
// schedule. The second thread then stands at its racing access (or has
// just made it), the first is held. If it comes back to the access,
// reading the same memory from the same state, it is spinning on a value
// only the held thread changes: the other order cannot happen (ad hoc
// synchronization). A state it comes back to elsewhere says nothing of the
// race: the access happened, and a loop after it (a server's event loop
// ticking its clock while the held thread would serve a request) is the
// program going on without the held thread.
func alternateHold(m *vm.Machine, r *race.Race, gapBudget uint64, target *span) heldState {
	first, other := r.FirstAt.Thread, r.SecondAt.Thread
	st := heldState{m: m, granted: grant(m, r)}
	st.h, st.err = holdUntilSecond(m, r, sched.RoundRobin{}, gapBudget, target)
	if st.err != nil || st.h.failed != nil {
		return st
	}
	probe := m.Fork()
	probe.StopBefore(nil)
	watch := newSpinWatch(probe, other)
	watch.at = r.SecondLoc
	probe.SetMonitor(watch)
	probe.Run()
	if watch.spinning {
		st.err = fmt.Errorf("%w: thread %d spins at %s waiting for thread %d to go first", errEnforce, other, watch.where, first)
	}
	return st
}

// arrival watches the second thread while the first is held: it stops
// the run right after the second thread's access to the race's memory at
// the second access's location, and passes every access to the spin
// watch.
type arrival struct {
	m      *vm.Machine
	spin   *spinWatch
	thread int
	loc    ir.LocID
	target *span
	at     *vm.StopPoint // where the access was made, once it was
}

func (w *arrival) Access(a *vm.Access) {
	w.spin.Access(a)
	if w.target == nil || w.at != nil || a.Thread != w.thread || a.Site.Loc != w.loc || a.Obj == nil {
		return
	}
	if !w.target.overlaps(span{obj: a.Obj.ID, off: a.Off, size: a.Size}) {
		return // the same line on other memory: not the race's access
	}
	w.at = &vm.StopPoint{Thread: a.Thread, Count: a.Count}
	w.m.StopBefore(&vm.StopPoint{Thread: a.Thread, Count: a.Count + 1})
}

func (w *arrival) Sync(vm.SyncEvent) {}

// WatchedThread implements vm.ThreadMonitor: an arrival and its spin
// watch look at the other thread's accesses only.
func (w *arrival) WatchedThread() int { return w.thread }

// harmful reports the terminations that violate the program's
// specification: crashes, memory errors, failed asserts, aborts, deadlocks
// and hangs (a loop proven endless, vm.TermHang; a run that only ran out
// of instructions is the analysis's limit, not the program's failure).
func harmful(t *vm.Termination) bool {
	switch t.Kind {
	case vm.TermCrash, vm.TermAssert, vm.TermAbort, vm.TermDeadlock, vm.TermHang:
		return true
	}
	return false
}

// stopped reports an execution the analysis's own limits cut short (its
// time or memory budget, or a cancellation): it says nothing about the
// program, so no verdict may rest on it.
func stopped(t *vm.Termination) bool {
	return t.Kind == vm.TermCanceled || t.Kind == vm.TermBudget
}

// stoppedVerdict leaves v unclassified because the execution ending in t
// was cut short by a budget.
func (v *Verdict) stoppedVerdict(t *vm.Termination) *Verdict {
	v.Budget, v.BudgetMessage = t.Budget, t.Message
	return v.unclassified("the analysis stopped before deciding: " + t.Message)
}

// cutBy records that the budget that ended t left what out of v. Every
// cut is kept: a harm search cut in one occurrence and a later occurrence
// left out are two different things the verdict did not see.
func (v *Verdict) cutBy(t *vm.Termination, what string) {
	v.addCut(fmt.Sprintf("%s (%s)", what, t.Message), t.Budget)
}

// keepCut carries the cuts of another verdict (an input path's, an
// occurrence's) over to v, the verdict that will be reported.
func (v *Verdict) keepCut(from *Verdict) {
	if from != nil && from != v && from.Cut != "" {
		v.addCut(from.Cut, from.CutBudget)
	}
}

// addCut appends cut to v's cuts unless v says it already; CutBudget
// stays the budget of the first, the one the report names.
func (v *Verdict) addCut(cut string, b vm.Budget) {
	switch {
	case v.Cut == "":
		v.Cut, v.CutBudget = cut, b
	case !strings.Contains(v.Cut, cut):
		v.Cut += "; " + cut
	}
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
	// The states seen since the other threads last ran (epoch: what they
	// had run then, vm.Machine.OthersCount), which are the only ones a
	// spin can come back to: reads counts the reads seen (place, memory
	// and value) and states holds the thread's whole state at some of
	// their repeats. A spin reads the same place, memory and value for
	// ever, so the state need not be hashed at every repeat, which cost a
	// compressor (reading table entries again and again) a third of its
	// classification: it is hashed at the 2nd sight of a read when the
	// thread wrote nothing since the 1st (a spin that only reads is found
	// at its 4th read there), and at the 4th, 8th, 16th, ... whatever it
	// wrote (a spin that writes the same values is found at its 8th).
	// writes counts the thread's writes; looked counts the reads the
	// watch was shown, which places them in its windows (spinWindow).
	epoch  uint64
	reads  map[uint64]spinRead
	states map[uint64]bool
	writes uint64
	looked uint64
	// at, when set, limits the watch to reads at that source location.
	at       ir.LocID
	spinning bool
	where    string
}

// A spin watch looks at the first spinWindow reads it is shown, then at
// spinWindow reads of every spinPeriod, each window from nothing. A spin
// reads the same few places for ever, so it is found within the window
// it is in or the next one, a few hundred thousand instructions later at
// most; a thread that computes while the other is held (a compressor's
// thread: a hundred million reads of its tables) is looked at a
// sixteenth of the time. Watching every read kept a map lookup and a
// frequent hash of the thread's stack on each, a third of pbzip2's
// classification (docs/performance.md). A window also bounds the reads
// and states a watch keeps.
const (
	spinWindow = 1 << 11
	spinPeriod = 1 << 15
)

// spinRead is how often a spin watch saw a read, and the thread's writes
// when it last did.
type spinRead struct {
	n      uint32
	writes uint64
}

func newSpinWatch(m *vm.Machine, thread int) *spinWatch {
	return &spinWatch{m: m, thread: thread, reads: map[uint64]spinRead{}, states: map[uint64]bool{}}
}

func (s *spinWatch) Access(a *vm.Access) {
	if s.spinning || a.Thread != s.thread {
		return
	}
	if a.Kind.IsWrite() {
		s.writes++
		return
	}
	if s.at != 0 && a.Site.Loc != s.at {
		return
	}
	k := s.looked % spinPeriod
	s.looked++
	if k >= spinWindow {
		return
	}
	if others := s.m.OthersCount(a.Thread); others != s.epoch || k == 0 {
		s.epoch = others
		clear(s.reads)
		clear(s.states)
	}
	r := uint64(a.Site.Loc)<<40 ^ uint64(a.Obj.ID)<<20 ^ a.Off
	if b, err := s.m.Memory().Read(ir.Addr(a.Obj.ID, a.Off), a.Size); err == nil {
		for i, x := range b { // the value read: a spin reads the same one
			r ^= uint64(x) << (8 * (i % 8))
		}
		r *= 1099511628211
	}
	seen := s.reads[r]
	n, quiet := seen.n+1, seen.writes == s.writes
	s.reads[r] = spinRead{n: n, writes: s.writes}
	if n < 2 || n&(n-1) != 0 || (n == 2 && !quiet) {
		return
	}
	d := s.m.StateDigest(a.Thread) ^ r
	if s.states[d] {
		s.spinning = true
		s.where = s.m.Program().Loc(a.Site.Loc).String()
		s.m.StopBefore(&vm.StopPoint{Thread: a.Thread, Count: a.Count + 1})
		return
	}
	s.states[d] = true
}

func (s *spinWatch) Sync(vm.SyncEvent) {}

// WatchedThread implements vm.ThreadMonitor.
func (s *spinWatch) WatchedThread() int { return s.thread }

// UsesSymbolicInputs reports whether the program marks inputs symbolic
// itself (augur_make_symbolic, klee_make_symbolic, __VERIFIER_nondet_*), so
// classification should explore paths (multipath).
func UsesSymbolicInputs(prog *ir.Program, undefined vm.UndefinedPolicy) bool {
	return libc.Models().MarksInputs(prog, undefined)
}

// Harmful reports whether v is a verdict of a harmful category
// (spec-violated or output-differs); a race not classified yet (nil) is
// not.
func (v *Verdict) Harmful() bool { return v != nil && category.Of(v.Category).Harmful }
