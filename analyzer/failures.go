package analyzer

import (
	"fmt"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/output/evidence"
)

// concretize runs each failing path of the exploration of inputs again on
// its concrete inputs, under round robin as the exploration ran it, so
// that the failure has a schedule to replay (InputFailures). A failure
// detection reached already is not run again. One whose concrete run
// ends otherwise keeps its inputs for `augur run --inputs`, and the next
// path to the same failure is tried; a failure none of whose paths ran to
// it concretely gets one warning.
func (res *analysis) concretize(prog *ir.Program, tmpl vm.Config) {
	if res.Exploration == nil {
		return
	}
	seen := map[string]bool{}
	for _, f := range evidence.Failures(res.Detection, res.InputFailures) {
		seen[evidence.FailureKey(f.Kind, f.Message, f.Loc)] = true
	}
	concrete := map[string]*vm.Termination{} // what each failure ran to concretely, by the exploration's key
	missed := map[string]*missedFailure{}    // failures whose paths ran concretely to something else
	var order []string                       // missed's keys in the exploration's order
	defer func() {
		for _, key := range order {
			if concrete[key] == nil {
				res.Warnings = append(res.Warnings, missed[key].String())
			}
		}
	}()
	for i, p := range res.Exploration.Failures {
		t := p.Term
		key := evidence.FailureKey(t.Kind, t.Message, t.Loc)
		if u := concrete[key]; u != nil {
			p.Term = u // another path to the same failure: the report lists it once, as the first ran
			continue
		}
		if seen[key] || t.Kind == vm.TermUnsupported {
			continue
		}
		if stop := tmpl.Expired(); stop != nil {
			// Out of time: this failure and the rest keep their inputs
			// files, which `augur run --inputs` runs.
			res.Cuts = append(res.Cuts, Stop{Budget: stop.Budget, Message: stop.Message,
				Stage: fmt.Sprintf("running the input exploration's failures again for a schedule to replay (failure %d of %d and those after it)",
					i+1, len(res.Exploration.Failures))})
			return
		}
		in := race.Inputs(p.Inputs)
		cfg := in.Apply(tmpl)
		cfg.Stdout, cfg.Stderr, cfg.StdinReader, cfg.Monitor = nil, nil, nil, nil
		cfg.Policy, cfg.PreemptAccesses = sched.RoundRobin{}, false // as the exploration of inputs runs
		cfg.Models = libc.Models()
		m, err := vm.New(prog, cfg)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("evidence for the %s at %s: %v", t.Kind, t.Loc, err))
			continue
		}
		run := m.Run()
		u := run.Term
		if u.Kind != t.Kind || u.Loc != t.Loc {
			if missed[key] == nil {
				missed[key] = &missedFailure{want: t, got: u}
				order = append(order, key)
			}
			missed[key].paths++
			continue
		}
		// The failure is reported as its concrete inputs make it, which
		// is what its evidence replays: the symbolic run's message may
		// name other sizes (an explored argument's buffer is as long as
		// the one it was explored around, the concrete one as the
		// argument). Detection may have reached it so on these inputs
		// already, with evidence of its own.
		p.Term, concrete[key] = u, u
		ukey := evidence.FailureKey(u.Kind, u.Message, u.Loc)
		if seen[ukey] {
			continue
		}
		seen[ukey] = true
		o, e := vm.Streams(run.Output)
		res.InputFailures = append(res.InputFailures, &race.Failure{Kind: u.Kind, Message: u.Message, Loc: u.Loc,
			Thread: u.Thread, Stack: u.Stack, Threads: u.Threads, Schedule: "round-robin, symbolic inputs", Trace: run.Trace,
			Budget: u.Budget, Inputs: &in, Stdout: string(o), Stderr: string(e)})
	}
}

// missedFailure is a failure of the exploration of inputs whose paths'
// concrete inputs ran to something else (got, from the first of them).
type missedFailure struct {
	want, got *vm.Termination
	paths     int
}

func (m *missedFailure) String() string {
	return fmt.Sprintf("evidence for the %s at %s: the inputs of its %d path(s) run concretely to %s at %s; "+
		"augur run --inputs shows that run", m.want.Kind, m.want.Loc, m.paths, m.got.Kind, m.got.Loc)
}

// failureEvidence checks every failure the exploration of inputs found
// by running its inputs concretely (a terminal and the editor report the
// same failures, each with a schedule that replays it), and, when an
// evidence directory is set, saves the evidence of every failure; tmpl
// is the template of its executions.
func (res *analysis) failureEvidence(prog *ir.Program, tmpl vm.Config) {
	res.concretize(prog, tmpl)
	failures := evidence.Failures(res.Detection, res.InputFailures)
	paths, warnings := res.Options.EvidenceStore().Failures(failures)
	res.FailureEvidence, res.Warnings = paths, append(res.Warnings, warnings...)
}
