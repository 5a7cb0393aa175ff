package classify

import (
	"fmt"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Reexecute runs prog from its start under cfg, whose policy replays a
// recorded schedule, doing each of actions at its point as the recorded
// execution did (a yield, a change of preemption points, the steady
// clock). It returns the machine, the result, and why the run ended
// before an action's point ("" when it did not). started, when set, is
// given the machine before it runs (a monitor that reads through it). A
// verdict's evidence replays through it, in its self-check here and in
// `augur replay`.
func Reexecute(prog *ir.Program, cfg vm.Config, actions []Action, started func(*vm.Machine)) (*vm.Machine, *vm.Result, string) {
	cfg.Models = libc.Models()
	m, err := vm.New(prog, cfg)
	if err != nil {
		return nil, nil, err.Error()
	}
	if started != nil {
		started(m)
	}
	for i, a := range actions {
		// Actions at the same point are done together: the execution
		// stands there already.
		if i == 0 || a.At != actions[i-1].At {
			at := a.At
			m.StopBefore(&at)
			if r := m.Run(); r.Term.Kind != vm.TermPaused {
				return m, r, fmt.Sprintf("the execution ended (%s) before the point where it did %q", r.Term.Kind, a.Do)
			}
			m.StopBefore(nil)
		}
		switch a.Do {
		case "yield":
			m.Yield()
		case "preempt-accesses":
			m.SetPreemptAccesses(true)
		case "preempt-at":
			m.SetPreemptAt(a.Locs)
		case "steady-clock":
			m.SetSteadyClock()
		case "grant":
			m.GrantAccess(a.At.Thread)
		}
	}
	return m, m.Run(), ""
}

// orderWatch sees the racing accesses of a replayed execution happen:
// which of its two points were reached, in what order, and the memory
// each touched.
type orderWatch struct {
	points [2]vm.StopPoint
	// racing, when set, picks the race's access among those a point's
	// instruction makes (a modeled call, snprintf, reads its format before
	// it writes the racing buffer).
	racing func(*vm.Access) bool
	seen   int // how many points were reached
	order  [2]int
	mem    [2]span
	locs   [2]ir.LocID
}

// racingAccess picks the accesses to r's memory: those to an object of
// r's object's size. (The racing bytes may be others in another
// occurrence of the race: one pop of a stack races on one node's link,
// another on the next node's.)
func racingAccess(r *race.Race) func(*vm.Access) bool {
	return func(a *vm.Access) bool { return a.Obj != nil && a.Obj.Size == r.ObjSize }
}

// span is the memory one access touched.
type span struct {
	obj       uint32
	off, size uint64
}

func (s span) overlaps(t span) bool {
	return s.obj == t.obj && s.off < t.off+max(t.size, 1) && t.off < s.off+max(s.size, 1)
}

func (w *orderWatch) Access(a *vm.Access) {
	for i, p := range w.points {
		if w.reached(i) || a.Thread != p.Thread || !p.Reached(a.Count, a.Site.Loc) || w.racing != nil && !w.racing(a) {
			continue
		}
		w.order[w.seen] = i
		w.seen++
		w.locs[i] = a.Site.Loc
		if a.Obj != nil {
			w.mem[i] = span{obj: a.Obj.ID, off: a.Off, size: a.Size}
		}
		return
	}
}

func (w *orderWatch) reached(i int) bool {
	for j := 0; j < w.seen; j++ {
		if w.order[j] == i {
			return true
		}
	}
	return false
}

func (w *orderWatch) Sync(vm.SyncEvent) {}

// refuseVerdicts, when set (by a test), is asked first by verify, and a
// reason it gives is verify's answer: the classification's handling of a
// verdict that does not hold is tested on programs whose verdicts do.
var refuseVerdicts func(v *Verdict) string

// verify replays the harmful execution of v, a spec-violated or
// output-differs verdict on race r, from the program's start, as its
// evidence will: it stands only if the replay shows the racing accesses
// in the order it claims (the second never coming is that order too: the
// execution ended first), on the same memory, and the outcome it claims
// (the same failure at the same place, or the same output). It returns
// why not, or "".
func verify(prog *ir.Program, r *race.Race, v *Verdict, opts Options) string {
	if v.Trace == nil {
		return "it has no schedule to replay"
	}
	if refuseVerdicts != nil {
		if why := refuseVerdicts(v); why != "" {
			return why
		}
	}
	cfg := r.Inputs.Apply(opts.Run)
	if v.Inputs != nil {
		in := race.Inputs(*v.Inputs)
		cfg = in.Apply(opts.Run)
	}
	cfg.Stdout, cfg.Stderr, cfg.StdinReader, cfg.StdoutLineBuffered = nil, nil, nil, false
	cfg.SymArgs, cfg.SymStdin, cfg.SymFiles, cfg.Symbolic = nil, 0, nil, nil
	cfg.PreemptAccesses = cfg.PreemptAccesses || v.PreemptAccesses
	cfg.PreemptAt, cfg.PreemptAfterReads = v.Trace.PreemptAt, v.Trace.PreemptAfterReads
	cfg.Policy = &sched.Replay{Trace: v.Trace}
	cfg.Weak = nil
	if v.MemoryModel == memmodel.Weak {
		cfg.Weak = &vm.Weak{Choices: v.WeakChoices}
	}
	w := &orderWatch{points: v.Points, racing: racingAccess(r)}
	cfg.Monitor = w
	_, res, mismatch := Reexecute(prog, cfg, v.Actions, nil)
	switch {
	case mismatch != "":
		return "its replay " + mismatch
	case res.Term.Kind == vm.TermReplay:
		return "its replay left the recorded schedule: " + res.Term.Message
	case w.seen == 0:
		return "its replay reached neither racing access"
	case w.order[0] != 0:
		return "its replay made the racing accesses in the other order"
	case w.seen == 2 && !w.mem[0].overlaps(w.mem[1]):
		return "its replay's racing accesses touched different memory"
	}
	// The first access made, the other may never come: the execution
	// ended (in the failure, or with the output) before it.
	if v.Category == SpecViolated {
		if t := v.Failure; res.Term.Kind != t.Kind || res.Term.Loc != t.Loc {
			return fmt.Sprintf("its replay ended in %s at %s, not %s at %s", res.Term.Kind, res.Term.Loc, t.Kind, t.Loc)
		}
		return ""
	}
	want := v.Outputs[1]
	if v.Order == "primary" {
		want = v.Outputs[0]
	}
	if !sameOutput(res, want) {
		return "its replay printed other output or left other files"
	}
	return ""
}
