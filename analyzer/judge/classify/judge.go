package classify

import (
	"fmt"
	"sort"

	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
)

// Judging a pair of orders (section 4 of the Portend+ paper) is an ordered
// list of checks. Each order's checks are asked of the alternate first, then
// of the primary; the pair's checks follow; the first check that decides
// makes the verdict. A new check is added to orderChecks or pairChecks, and
// nowhere else: it sees every execution of the pair whatever the memory
// model or input mode.

// orderChecks are asked of each order of a pair.
var orderChecks = []func(*pair, *order) bool{
	cutShort, // an execution the analysis's own budget stopped: no verdict
	fails,    // an execution that violates the specification: spec-violated
}

// pairChecks are asked of the pair once neither order has decided.
// Under sequential consistency output is compared over all the pairs of
// an input path once they have run (path.outputsDiffer): one pair's two
// schedules after the race can differ by more than the race.
var pairChecks = []func(*pair) bool{
	unfollowed,        // an execution augur could not follow to its end: no verdict
	weakOutputsDiffer, // under the weak model, output one order can print and the other cannot
}

// judging is how the pairs of one classification are judged: under which
// memory model.
type judging struct {
	model memmodel.Model
}

// execution is one run of an order: the order's own, or a state it forked
// after the race (a weak read's older value).
type execution struct {
	res      *vm.Result
	choices  []vm.WeakChoice
	observed []vm.WeakWrite
}

// order is one order of a pair with all its executions.
type order struct {
	name  string // "alternate" or "primary"
	out   outcome
	execs []execution // the order's own run first
}

// pair is what the checks look at.
type pair struct {
	v      *Verdict
	j      judging
	orders [2]order // the alternate, then the primary
}

// judge runs the checks on one primary/alternate pair and reports whether
// the verdict is final.
func (v *Verdict) judge(j judging, p, a outcome) bool {
	pr := &pair{v: v, j: j, orders: [2]order{
		{name: "alternate", out: a, execs: j.executions(a)},
		{name: "primary", out: p, execs: j.executions(p)},
	}}
	pr.record()
	for i := range pr.orders {
		for _, check := range orderChecks {
			if check(pr, &pr.orders[i]) {
				return true
			}
		}
	}
	for _, check := range pairChecks {
		if check(pr) {
			return true
		}
	}
	return false
}

// executions runs what an order forked after the race and returns all its
// executions: under the weak model every state its reads forked (and
// theirs), up to a bound.
func (j judging) executions(o outcome) []execution {
	if j.model == memmodel.Weak {
		return exploreOrder(o)
	}
	return []execution{{res: o.res}}
}

// record counts the pair's executions and keeps the distinct outputs they
// printed, and the outputs of the pair's own runs.
func (pr *pair) record() {
	v := pr.v
	v.Outputs = pairOutputs(pr.orders[1].out.res, pr.orders[0].out.res)
	for _, o := range pr.orders {
		v.States += len(o.execs)
		for _, e := range o.execs {
			v.addOutput(e.res.Output)
		}
	}
}

// cutShort decides when an execution of o was stopped by the analysis's
// time, memory or instruction budget: nothing can be said of the race
// then. (A run that loops for good is not stopped: it ends in a hang.)
func cutShort(pr *pair, o *order) bool {
	for _, e := range o.execs {
		if stopped(e.res.Term) {
			pr.v.stoppedVerdict(e.res.Term)
			return true
		}
	}
	return false
}

// unfollowed decides when an execution of either order stopped at
// something augur does not model (a call to an undefined function): what
// the program does after it is unknown, so neither "same outcome" nor
// "different output" can be said. A failure in the other order was
// already decided by fails, which comes first.
func unfollowed(pr *pair) bool {
	for _, o := range pr.orders {
		for _, e := range o.execs {
			if t := e.res.Term; t.Kind == vm.TermUnsupported {
				pr.v.unclassified(fmt.Sprintf("augur could not follow the %s order to its end: %s", o.name, t.Message))
				return true
			}
		}
	}
	return false
}

// fails decides spec-violated when an execution of o crashes, fails an
// assertion, aborts, deadlocks or hangs; that execution is the evidence.
func fails(pr *pair, o *order) bool {
	v := pr.v
	for _, e := range o.execs {
		t := e.res.Term
		if !harmful(t) {
			continue
		}
		v.Category, v.Failure, v.Order = SpecViolated, t, o.name
		v.setEvidence(o, e)
		v.Reason = fmt.Sprintf("the %s order ends in %s: %s", o.name, t.Kind, t.Message)
		if len(v.WeakChoices) > 0 {
			v.Reason += " (under the weak memory model: some reads returned older values)"
		}
		return true
	}
	return false
}

// weakOutputsDiffer decides output-differs under the weak model, when one
// order can print output the other cannot, compared as the sets of
// outputs of all the states each order reached.
func weakOutputsDiffer(pr *pair) bool {
	if pr.j.model != memmodel.Weak {
		return false
	}
	return outputSetsDiffer(pr)
}

// outputSetsDiffer finds an execution whose output the other order prints
// in none of its executions.
func outputSetsDiffer(pr *pair) bool {
	sets := [2]map[vm.OutputDigest]bool{{}, {}}
	for i, o := range pr.orders {
		for _, e := range o.execs {
			sets[i][e.res.Digest] = true
		}
	}
	for i := range pr.orders {
		o := &pr.orders[i]
		for _, e := range o.execs {
			if sets[1-i][e.res.Digest] {
				continue
			}
			v := pr.v
			v.Category = OutputDiffers
			v.setEvidence(o, e)
			other := pr.orders[1-i].out.res
			if o.name == "primary" {
				v.Outputs = pairOutputs(e.res, other)
			} else {
				v.Outputs = pairOutputs(other, e.res)
			}
			verb := "print output"
			if noun, isPrinted := outputNoun(e.res, other); !isPrinted {
				verb = "leave " + noun + " with contents"
			}
			v.Reason = fmt.Sprintf("the %s order can %s the other order cannot (%d and %d distinct outputs)",
				o.name, verb, len(sets[i]), len(sets[1-i]))
			return true
		}
	}
	return false
}

// setEvidence keeps what replaying the harmful execution e of order o
// needs, and its output as that order's.
func (v *Verdict) setEvidence(o *order, e execution) {
	v.Order = o.name
	v.Trace, v.Actions, v.Points = e.res.Trace, o.out.actions, o.out.points
	v.WeakChoices, v.WeakObserved = e.choices, e.observed
	side := &v.Outputs[1]
	if o.name == "primary" {
		side = &v.Outputs[0]
	}
	p := printed(e.res.Output)
	side.Stdout, side.Stderr = p.Stdout, p.Stderr
}

// addOutput records a distinct stdout of an explored execution.
func (v *Verdict) addOutput(evs []vm.OutputEvent) {
	out := printed(evs).Stdout
	i := sort.SearchStrings(v.AllOutputs, out)
	if i < len(v.AllOutputs) && v.AllOutputs[i] == out {
		return
	}
	v.AllOutputs = append(v.AllOutputs, "")
	copy(v.AllOutputs[i+1:], v.AllOutputs[i:])
	v.AllOutputs[i] = out
}
