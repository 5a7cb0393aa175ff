package evidence

import (
	"fmt"

	"augur/analyzer/ir"
	"augur/analyzer/memmodel"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// Step is one event of a replayed interleaving: a scheduling decision or
// one of the two racing accesses.
type Step struct {
	Thread int
	Loc    ir.Loc
	What   string
	Racing int // 1 or 2 for the racing accesses (in the order they happen), 0 otherwise
}

// Transcript is what a replay did.
type Transcript struct {
	Steps      []Step
	Result     *vm.Result
	Reproduced bool
	Mismatch   string // why not, when not
}

// logger records scheduling decisions as steps while replaying.
type logger struct {
	sched.Policy
	steps *[]Step
	prog  *ir.Program
	locs  map[string]ir.Loc
}

func (l *logger) Pick(p sched.Point, runnable []int) (int, error) {
	next, err := l.Policy.Pick(p, runnable)
	if err == nil {
		what := p.What
		if what == "" {
			what = "preemption point"
		}
		*l.steps = append(*l.steps, Step{Thread: p.Thread, Loc: l.loc(p.Loc), What: fmt.Sprintf("%s; thread %d runs next", what, next)})
	}
	return next, err
}

func (l *logger) loc(s string) ir.Loc {
	if l.locs == nil {
		l.locs = map[string]ir.Loc{}
		for _, loc := range l.prog.Locs {
			l.locs[loc.String()] = loc
		}
	}
	return l.locs[s]
}

// marker marks the racing accesses as they happen.
type marker struct {
	m      *vm.Machine
	points [2]vm.StopPoint
	steps  *[]Step
	done   [2]bool
}

func (k *marker) Access(a *vm.Access) {
	for i, p := range k.points {
		at := a.Count == p.Count
		if p.Loc != 0 { // the first access at that location from that point on
			at = a.Site.Loc == p.Loc && a.Count >= p.Count
		}
		if !k.done[i] && a.Thread == p.Thread && at {
			k.done[i] = true
			kind := "read"
			if a.Kind.IsWrite() {
				kind = "write"
			}
			*k.steps = append(*k.steps, Step{Thread: a.Thread, Loc: k.m.Program().Loc(a.Site.Loc),
				What: fmt.Sprintf("racing access %d: %s", i+1, kind), Racing: i + 1})
		}
	}
}

func (k *marker) Sync(vm.SyncEvent) {}

// Replay re-executes the evidence's execution of prog under lim (the
// caller's time and memory budgets) and checks its outcome.
func Replay(prog *ir.Program, ev *Evidence, lim vm.Limits) *Transcript {
	tr := &Transcript{}
	cfg := vm.Config{Args: ev.Inputs.Argv, Env: ev.Inputs.Env, Stdin: []byte(ev.Inputs.Stdin), MaxInstructions: ev.Inputs.MaxInstructions,
		Inputs: ev.Inputs.Vars, Undefined: ev.Inputs.Undefined, PreemptAccesses: ev.Inputs.PreemptAccesses, Limits: lim}
	if len(ev.Inputs.Files) > 0 {
		cfg.Files = map[string][]byte{}
		for n, d := range ev.Inputs.Files {
			cfg.Files[n] = []byte(d)
		}
	}
	if ev.MemoryModel == memmodel.Weak {
		// Reads return the latest value but where the evidence says they
		// returned an older one.
		cfg.Weak = &vm.Weak{Choices: ev.WeakReads}
	}
	cfg.Policy = &logger{Policy: &sched.Replay{Trace: ev.Schedule}, steps: &tr.Steps, prog: prog}
	mk := &marker{points: ev.Points, steps: &tr.Steps}
	cfg.Monitor = mk
	m, err := vm.New(prog, cfg)
	if err != nil {
		tr.Mismatch = err.Error()
		return tr
	}
	mk.m = m
	res := m.Run
	// Repeat the scheduling changes the execution made, at their points.
	for _, a := range ev.Actions {
		at := a.At
		m.StopBefore(&at)
		if r := res(); r.Term.Kind != vm.TermPaused {
			tr.Result = r
			tr.Mismatch = fmt.Sprintf("the execution ended (%s) before the point where it did %q", r.Term.Kind, a.Do)
			return tr
		}
		m.StopBefore(nil)
		switch a.Do {
		case "yield":
			m.Yield()
		case "preempt-accesses":
			m.SetPreemptAccesses(true)
		}
	}
	tr.Result = res()
	tr.check(ev)
	return tr
}

// check compares the outcome with the evidence's.
func (tr *Transcript) check(ev *Evidence) {
	t := tr.Result.Term
	out, errOut := streams(tr.Result.Output)
	switch {
	case t.Kind.String() != ev.Expected.Termination:
		tr.Mismatch = fmt.Sprintf("ended in %s (%s), evidence says %s", t.Kind, t.Message, ev.Expected.Termination)
	case ev.Expected.Line != 0 && (t.Loc.Line != ev.Expected.Line || t.Message != ev.Expected.Message):
		tr.Mismatch = fmt.Sprintf("failed at %s (%s), evidence says line %d (%s)", t.Loc, t.Message, ev.Expected.Line, ev.Expected.Message)
	case out != ev.Expected.Stdout || errOut != ev.Expected.Stderr:
		tr.Mismatch = "printed different output than the evidence records"
	default:
		tr.Reproduced = true
	}
}
