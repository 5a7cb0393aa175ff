package analyzer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/output/evidence"
)

// Failures are every failure of the analysis that can have evidence: the
// ones detection's schedules reached (with their schedules), then the
// ones the exploration of inputs found, made concrete (inputFailures).
// Calls augur cannot follow are gaps in the analysis, not failures.
func (res *Result) Failures() []*race.Failure {
	var out []*race.Failure
	if res.Detection != nil {
		for _, f := range res.Detection.Failures {
			if f.Kind != vm.TermUnsupported {
				out = append(out, f)
			}
		}
	}
	return append(out, res.InputFailures...)
}

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
	for _, f := range res.Failures() {
		seen[FailureKey(f.Kind, f.Message, f.Loc)] = true
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
		key := FailureKey(t.Kind, t.Message, t.Loc)
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
		ukey := FailureKey(u.Kind, u.Message, u.Loc)
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
	if res.Options.EvidenceDir != "" {
		res.writeFailureEvidence()
	}
}

// writeFailureEvidence saves the evidence of every failure when an
// evidence directory is set (FailureEvidence), as `augur replay` reads it,
// and removes the program's failure evidence of earlier analyses: the
// directory holds the failures of the latest.
func (res *Result) writeFailureEvidence() {
	dir := res.Options.EvidenceDir
	res.FailureEvidence = nil
	if dir == "" {
		return
	}
	pattern := filepath.Join(dir, "failure-*-"+evidence.ProgramKey(res.Options.Sources)+".json")
	old, _ := filepath.Glob(pattern)
	defer func() {
		kept := map[string]bool{}
		for _, path := range res.FailureEvidence {
			kept[path] = true
		}
		for _, path := range old {
			if !kept[path] {
				os.Remove(path)
			}
		}
	}()
	for _, f := range res.Failures() {
		key := FailureKey(f.Kind, f.Message, f.Loc)
		ev, err := res.withBuild(evidence.FromFailure(f, res.Options.Sources, res.Options.Run))
		if err == nil {
			// The program's key in the name, as for races: one directory
			// serves many programs.
			path := filepath.Join(dir, "failure-"+key+"-"+evidence.ProgramKey(res.Options.Sources)+".json")
			if err = ev.Write(path); err == nil {
				if res.FailureEvidence == nil {
					res.FailureEvidence = map[string]string{}
				}
				res.FailureEvidence[key] = path
				continue
			}
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("evidence for the %s at %s: %v", f.Kind, f.Loc, err))
	}
}

// FailureKey names a failure by what it is (race.FailureID), as the
// report lists each failure once, for the name of its evidence file.
func FailureKey(kind vm.TermKind, message string, loc ir.Loc) string {
	h := sha256.Sum256([]byte(race.FailureID(kind, message, loc)))
	return kind.String() + "-" + hex.EncodeToString(h[:4])
}

// withBuild records in evidence just made how the program was built
// (Options.Build's flags and client programs), so that a replay builds
// it the same way.
func (res *Result) withBuild(ev *evidence.Evidence, err error) (*evidence.Evidence, error) {
	if err != nil {
		return nil, err
	}
	if err := ev.Program.SetBuild(res.Options.Build.Flags, res.Options.Build.FileFlags); err != nil {
		return ev, err
	}
	return ev, ev.Program.SetClients(res.Options.Build.Clients)
}
