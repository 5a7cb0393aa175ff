package classify

import (
	"fmt"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// path is the classification of a race on one input path in progress
// (classifyPath): the verdict it builds, what its pairs printed, and the
// harmful verdicts whose replay did not hold.
type path struct {
	prog   *ir.Program
	r      *race.Race
	opts   Options
	v      *Verdict
	deeper string
	// single is why the alternate order cannot be enforced (the first
	// pair says, and it is the same for every pair: the post-race
	// schedule starts after it); nil when it can.
	single error
	// outs are the harmless pairs, for comparing what each order can print
	// over all of them (outputsDiffer).
	outs []pairOutcome
	// discarded are the harmful verdicts whose evidence did not replay to
	// what they claimed, with why (verify).
	discarded []string
	searched  int
	// early counts the runs of the one possible order that failed before
	// the second access was made (outcome.beforeSecond).
	early int
	// setup is what the pairs run from, for the runs that check a pair
	// (reorderedOnly).
	setup pairSetup
	// reordered counts the pairs whose output differed only as the
	// schedule reorders it anyway (reorderedOnly).
	reordered int
	// deferChecks is set when a harmful verdict's replay does not fit
	// beside what the path holds (tightMemory): the first harmful
	// verdict met ends the run unchecked, and pending is its number
	// (-1 before). failed holds the numbers of the verdicts earlier
	// runs found not to hold, with why; checks counts the verdicts met.
	deferChecks bool
	pending     int
	failed      map[int]string
	checks      int
}

// pairOutcome is how both orders of one pair ended.
type pairOutcome struct {
	primary, alt outcome
	schedule     string
	post         postRace
}

// judge judges a pair run under post, the post-race schedule named
// sched, by the stage named stage; it returns the verdict when the pair
// decides one that holds.
func (c *path) judge(stage, sched string, post postRace, primary, alt outcome, err error) *Verdict {
	if err != nil {
		if c.single == nil && len(c.outs) == 0 {
			c.single = err
		}
		if c.single == nil {
			return nil // a pair that could not be enforced after others were: it shows nothing
		}
		return c.primaryAlone(primary, stage, sched)
	}
	w := *c.v
	w.Stage = stage
	// Both orders failing the same way, under the same schedule after the
	// race, is the program's failure (another race's), not this race's
	// consequence: the pair agrees.
	if sameFailure(primary, alt) {
		c.v.K++
		return nil
	}
	if !w.judge(judging{model: c.opts.Model}, primary, alt) {
		*c.v = w // what the pair recorded (its outputs, its states)
		c.outs = append(c.outs, pairOutcome{primary: primary.judged(), alt: alt.judged(), schedule: sched, post: post})
		c.v.K++
		return nil
	}
	if w.Category == SpecViolated || w.Category == OutputDiffers {
		if !c.holds(&w) {
			return nil
		}
		w.Stage = fmt.Sprintf("%s (%s)", stage, sched)
	}
	return &w
}

// primaryAlone decides spec-violated when the recorded order, the only
// one possible, fails under a post-race schedule: ad hoc synchronization
// orders the race, but what follows it in that order can still crash. A
// run that failed before the second access was made does not decide: the
// order did not happen in it (testdata/accuracy/last_publishes.c).
func (c *path) primaryAlone(primary outcome, stage, sched string) *Verdict {
	t := primary.res.Term
	switch t.Kind {
	case vm.TermCrash, vm.TermAssert, vm.TermAbort, vm.TermDeadlock, vm.TermHang:
	default:
		return nil
	}
	if primary.beforeSecond {
		c.early++
		return nil
	}
	w := *c.v
	w.Category, w.Failure, w.Order, w.Alone = SpecViolated, t, "primary", c.single.Error()
	w.Trace, w.Actions, w.Points = primary.res.Trace, primary.actions, primary.points
	w.Outputs = [2]Printed{printed(primary.res.Output)}
	w.Reason = fmt.Sprintf("only the recorded order is possible (%v), and it ends in %s: %s", c.single, t.Kind, t.Message)
	if !c.holds(&w) {
		return nil
	}
	w.Stage = fmt.Sprintf("%s (the one possible order, %s)", stage, sched)
	return &w
}

// holds reports whether harmful verdict w replays to what it claims; when
// it does not, it is kept among the discarded, with why.
//
// When the replay has to wait (deferChecks), holds says the first
// verdict not yet checked holds, and records it as pending: the caller
// returns it as the path's verdict, and classifyPath checks it once the
// path's executions are let go.
func (c *path) holds(w *Verdict) bool {
	n := c.checks
	c.checks++
	if why, ok := c.failed[n]; ok {
		c.discarded = append(c.discarded, why)
		return false
	}
	if c.deferChecks {
		c.pending = n
		return true
	}
	why := setAside(c.prog, c.r, w, c.opts)
	if why != "" {
		c.discarded = append(c.discarded, why)
	}
	return why == ""
}

// setAside checks the verdict w by replaying its evidence (verify), and
// returns why it is set aside, with the category it claimed; "" when it
// holds.
func setAside(prog *ir.Program, r *race.Race, w *Verdict, opts Options) string {
	if why := verify(prog, r, w, opts); why != "" {
		return fmt.Sprintf("%s, as %s", why, w.Category)
	}
	return ""
}

// tightMemory reports whether a replay from the program's start, which
// comes to hold at least what the checkpoint holds, does not fit beside
// it under the memory budget max (0: none). It is decided from the
// checkpoint's footprint, so it is the same on every run.
func tightMemory(ckpt *vm.Machine, max uint64) bool {
	return max != 0 && 2*ckpt.Footprint() > max
}

// conclude decides once no pair did: single-ordering when the alternate
// could not be enforced, output-differs when one order printed what the
// other printed under none of its schedules, k-witness-harmless
// otherwise.
func (c *path) conclude() *Verdict {
	v := c.v
	if c.single == nil && c.opts.Model != memmodel.Weak {
		if w := c.outputsDiffer(); w != nil {
			return w
		}
	}
	notes := ""
	if c.searched > 0 {
		notes += fmt.Sprintf("; a harm search of %d PCT post-race schedules found no failure of its own either", c.searched)
	}
	if c.early > 0 {
		runs := "1 run"
		if c.early > 1 {
			runs = fmt.Sprintf("%d runs", c.early)
		}
		notes += fmt.Sprintf("; %s in the one possible order failed before thread %d made its access: the program's failure (another race's), not this order's",
			runs, c.r.SecondAt.Thread)
	}
	if len(c.discarded) > 0 {
		notes += "; harmful executions set aside because their replay did not show what they claimed: " + countedList(c.discarded)
	}
	if c.single != nil {
		v.singleOrdering(c.single)
		v.Reason += notes
		return v
	}
	v.Category = Harmless
	v.Reason = fmt.Sprintf("both orders ran to the same outcome and output under %d post-race schedules%s%s", v.K, c.deeper, notes)
	if c.reordered > 0 {
		v.Reason = fmt.Sprintf("both orders ran to the same outcome under %d post-race schedules%s, and to the same output in %d; "+
			"in the other %d the output differed only in an order the schedule decides: each order printed the other's output too "+
			"when steered toward it%s", v.K, c.deeper, v.K-c.reordered, c.reordered, notes)
	}
	if c.opts.Model == memmodel.Weak {
		v.Reason = fmt.Sprintf("both orders reached the same outcomes and outputs under %d post-race schedules, "+
			"%d executions in all with every value the weak memory model lets each read return", v.K, v.States)
	}
	if v.K > 1 {
		v.Stage = "multischedule"
	}
	return v
}

// outputsDiffer looks for a pair whose two orders printed different
// output that the other order cannot print: the race's consequence. The
// two orders of a pair differ in nothing but the order of the two
// accesses (runPrimary makes them back to back in the primary too,
// runAlternate holds the first thread until the second's) and run under
// the same schedule after them; a difference that remains, each order
// printing what the other did once steered toward it, is output the
// schedule reorders anyway (reorderedOnly). (Comparing only the sets of
// outputs over all the pairs would call a lost update harmless as soon as
// a later occurrence of the race lost one in a primary run, and would
// call every program whose output follows the schedule output-differs.)
func (c *path) outputsDiffer() *Verdict {
	for _, p := range c.outs {
		if p.alt.res.Digest == p.primary.res.Digest {
			continue
		}
		reordered, unmatched := c.reorderedOnly(p)
		if reordered {
			c.reordered++
			continue
		}
		w := *c.v
		w.Category = OutputDiffers
		w.Outputs = pairOutputs(p.primary.res, p.alt.res)
		ord := &order{name: "alternate", out: p.alt, execs: []execution{{res: p.alt.res}}}
		w.setEvidence(ord, ord.execs[0])
		w.Reason = "under the same schedule after the race, " + unmatched
		if !c.holds(&w) {
			continue
		}
		w.Stage = fmt.Sprintf("%s (%s)", w.Stage, p.schedule)
		return &w
	}
	return nil
}

// countedList joins reasons, each once, with how often it came: "its
// replay ... (3 times); ...".
func countedList(reasons []string) string {
	n := map[string]int{}
	var order []string
	for _, r := range reasons {
		if n[r] == 0 {
			order = append(order, r)
		}
		n[r]++
	}
	for i, r := range order {
		if n[r] > 1 {
			order[i] = fmt.Sprintf("%s (%d times)", r, n[r])
		}
	}
	return strings.Join(order, "; ")
}
