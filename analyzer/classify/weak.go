package classify

import (
	"fmt"
	"sort"

	"augur/analyzer/memmodel"
	"augur/analyzer/vm"
)

// maxWeakStates bounds the executions one race's classification forks at
// weak reads (shared by all its pairs).
const maxWeakStates = 4096

// maxWeakPaths bounds the executions of one order judged per pair.
const maxWeakPaths = 512

// judgePair judges one primary/alternate pair under the run's memory
// model.
func (v *Verdict) judgePair(opts Options, p, a outcome) bool {
	if opts.Model == memmodel.Weak {
		return v.judgeWeak(p, a)
	}
	return v.judge(p, a)
}

// weakPath is one execution of an order: the order's own run or a state
// it forked at a weak read.
type weakPath struct {
	res      *vm.Result
	out      vm.OutputDigest // what it printed, stdout and stderr
	choices  []vm.WeakChoice
	observed []vm.WeakWrite
}

// exploreOrder runs every state an order forked (and theirs), up to
// maxWeakPaths, and returns all its executions, the order's own first.
// It keeps what judging needs of each, not the states themselves, so the
// memory of an execution goes as soon as it ends.
func exploreOrder(o outcome) []weakPath {
	path := func(m *vm.Machine, res *vm.Result) weakPath {
		p := weakPath{res: res, out: res.Digest}
		if m != nil {
			p.choices, p.observed = m.WeakChoices(), m.WeakObserved()
		}
		return p
	}
	paths := []weakPath{path(o.m, o.res)}
	work := append([]*vm.Machine(nil), o.spawned...)
	for len(work) > 0 && len(paths) < maxWeakPaths {
		s := work[0]
		work[0] = nil
		work = work[1:]
		res := s.Run()
		work = append(work, s.Spawned()...)
		paths = append(paths, path(s, res))
	}
	return paths
}

// judgeWeak judges a pair under the weak memory model: either order
// failing in any of its executions is spec-violated; the orders differ in
// output when the sets of outputs their executions print differ.
func (v *Verdict) judgeWeak(p, a outcome) bool {
	orders := []struct {
		name  string
		out   outcome
		paths []weakPath
	}{{"alternate", a, exploreOrder(a)}, {"primary", p, exploreOrder(p)}}
	for _, o := range orders {
		for _, path := range o.paths {
			if stopped(path.res.Term) {
				v.stoppedVerdict(path.res.Term)
				return true
			}
		}
	}
	for _, o := range orders {
		v.States += len(o.paths)
		for _, path := range o.paths {
			v.addOutput(path.res.Output)
		}
	}
	if len(v.Outputs[0]) == 0 && len(v.Outputs[1]) == 0 {
		v.Outputs = [2][]vm.OutputEvent{p.res.Output, a.res.Output}
	}
	for _, o := range orders {
		for _, path := range o.paths {
			if t := path.res.Term; harmful(t) {
				v.Category, v.Failure, v.Order = SpecViolated, t, o.name
				v.setEvidence(outcome{res: path.res, actions: o.out.actions, points: o.out.points})
				v.WeakChoices, v.WeakObserved = path.choices, path.observed
				if o.name == "primary" {
					v.Outputs[0] = path.res.Output
				} else {
					v.Outputs[1] = path.res.Output
				}
				v.Reason = fmt.Sprintf("the %s order ends in %s: %s", o.name, t.Kind, t.Message)
				if len(v.WeakChoices) > 0 {
					v.Reason += " (under the weak memory model: some reads returned older values)"
				}
				return true
			}
		}
	}
	sets := [2]map[vm.OutputDigest]bool{{}, {}}
	for i, o := range orders {
		for _, path := range o.paths {
			sets[i][path.out] = true
		}
	}
	// An output one order can print and the other cannot.
	for i, o := range orders {
		for _, path := range o.paths {
			if sets[1-i][path.out] {
				continue
			}
			v.Category, v.Order = OutputDiffers, o.name
			v.setEvidence(outcome{res: path.res, actions: o.out.actions, points: o.out.points})
			v.WeakChoices, v.WeakObserved = path.choices, path.observed
			other := orders[1-i].paths[0].res.Output
			if o.name == "alternate" {
				v.Outputs = [2][]vm.OutputEvent{other, path.res.Output}
			} else {
				v.Outputs = [2][]vm.OutputEvent{path.res.Output, other}
			}
			v.Reason = fmt.Sprintf("the %s order can print output the other order cannot (%d and %d distinct outputs)",
				o.name, len(sets[i]), len(sets[1-i]))
			return true
		}
	}
	return false
}

// addOutput records a distinct stdout of an explored execution.
func (v *Verdict) addOutput(evs []vm.OutputEvent) {
	stdout, _ := vm.Streams(evs)
	out := string(stdout)
	i := sort.SearchStrings(v.AllOutputs, out)
	if i < len(v.AllOutputs) && v.AllOutputs[i] == out {
		return
	}
	v.AllOutputs = append(v.AllOutputs, "")
	copy(v.AllOutputs[i+1:], v.AllOutputs[i:])
	v.AllOutputs[i] = out
}
