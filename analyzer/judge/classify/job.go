package classify

import (
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/ir"
)

// Job is the classification of one race as plain data: which program (by
// fingerprint, and where its bitcode is), the race with the schedule that
// found it, and the options. A process that holds the same program makes
// the same verdict from it as the process that made the job (Run), so
// classification can move to other processes or machines; EncodeJob and
// DecodeJob carry it there.
type Job struct {
	Program ProgramRef `json:"program"`
	Race    *race.Race `json:"race"`
	Options JobOptions `json:"options"`
}

// ProgramRef names a loaded program: Key is its fingerprint (ir.Program.Key,
// code and locations), Bitcode the files it was linked from and Names the
// source each was compiled from (bitcode.LoadNamed), so another process can load
// the same program and check that it did.
type ProgramRef struct {
	Key     string            `json:"key"`
	Bitcode []string          `json:"bitcode,omitempty"`
	Names   map[string]string `json:"names,omitempty"`
}

// RefOf returns prog's reference.
func RefOf(prog *ir.Program) ProgramRef {
	return ProgramRef{Key: prog.Key(), Bitcode: prog.Bitcode, Names: prog.Names}
}

// Load loads the program ref names and checks it is that program.
func (ref ProgramRef) Load() (*ir.Program, error) {
	prog, err := bitcode.LoadNamed(ref.Bitcode, ref.Names)
	if err != nil {
		return nil, fmt.Errorf("load program %.12s: %w", ref.Key, err)
	}
	if k := prog.Key(); k != ref.Key {
		return nil, fmt.Errorf("load program %.12s: the bitcode is a different program (%.12s)", ref.Key, k)
	}
	return prog, nil
}

// JobOptions are Options as plain data: the execution template as a
// vm.Spec, and which classifier runs ("portend", the default, or
// "replay-analyzer").
type JobOptions struct {
	Run          vm.Spec        `json:"run"`
	Classifier   string         `json:"classifier,omitempty"`
	Ma           int            `json:"ma,omitempty"`
	Mp           int            `json:"mp,omitempty"`
	Seed         uint64         `json:"seed,omitempty"`
	BudgetFactor uint64         `json:"budget_factor,omitempty"`
	Symbolic     bool           `json:"symbolic,omitempty"`
	AroundInputs bool           `json:"around_inputs,omitempty"`
	Model        memmodel.Model `json:"memory_model"`
	Search       int            `json:"search,omitempty"`
	Focus        []string       `json:"focus,omitempty"`
}

// NewJob makes the job of classifying r in the program ref names with
// opts and the classifier ("" is portend).
func NewJob(ref ProgramRef, r *race.Race, opts Options, classifier string) Job {
	return Job{Program: ref, Race: r, Options: JobOptions{Run: opts.Run.Spec(), Classifier: classifier,
		Ma: opts.Ma, Mp: opts.Mp, Seed: opts.Seed, BudgetFactor: opts.BudgetFactor, Symbolic: opts.Symbolic, AroundInputs: opts.AroundInputs, Model: opts.Model,
		Search: opts.Search, Focus: opts.Focus}}
}

// Run classifies the job's race in prog, which must be the job's program.
// cancel, when closed, stops it: a verdict cut short by cancellation says
// so and is unclassified.
func (j Job) Run(prog *ir.Program, cancel <-chan struct{}) *Verdict {
	id := ""
	if j.Race != nil {
		id = j.Race.ID
	}
	start := time.Now()
	// A job holds its checkpoint and primaries paused beside the
	// executions it runs: room for two is what it waits for.
	defer vm.Admit(j.Options.Run.MaxMemory, 2*j.Options.Run.MemoryHint)()
	cpus.hold()
	defer cpus.release()
	v := safely(id, func() *Verdict { return j.run(prog, cancel) })
	if v != nil {
		v.Seconds = time.Since(start).Seconds()
	}
	return v
}

// safely returns classify's verdict, or, when it panics (a bug in augur),
// an unclassified verdict for race id that says so: one race's failure
// must not take the other races, or the process, with it.
func safely(id string, classify func() *Verdict) (v *Verdict) {
	defer func() {
		if p := recover(); p != nil {
			v = (&Verdict{RaceID: id, Stage: "internal error"}).unclassified(fmt.Sprintf(
				"internal error in augur while classifying this race (please report it): %v%s", p, panicSite(debug.Stack())))
		}
	}()
	return classify()
}

// panicSite names the function that panicked and its place, from the
// stack a deferred recover sees: " in pkg.f (file.go:12)".
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") && i+3 < len(lines) {
			fn := lines[i+2]
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
			at, _, _ := strings.Cut(strings.TrimSpace(lines[i+3]), " ")
			return fmt.Sprintf(" in %s (%s)", fn, filepath.Base(at))
		}
	}
	return ""
}

func (j Job) run(prog *ir.Program, cancel <-chan struct{}) *Verdict {
	o := j.Options
	opts := Options{Run: o.Run.Config(), Ma: o.Ma, Mp: o.Mp, Seed: o.Seed, BudgetFactor: o.BudgetFactor,
		Symbolic: o.Symbolic, AroundInputs: o.AroundInputs, Model: o.Model, Search: o.Search, Focus: o.Focus}
	opts.Run.Cancel = cancel
	k := prog.Key()
	if k != j.Program.Key {
		return (&Verdict{RaceID: j.Race.ID, Stage: "not started"}).unclassified(
			fmt.Sprintf("the job is for program %.12s, not %.12s", j.Program.Key, k))
	}
	if t := opts.Run.Expired(); t != nil {
		// The time budget ran out before this race's turn.
		return (&Verdict{RaceID: j.Race.ID, Stage: "not started"}).stoppedVerdict(t)
	}
	replays.enter(k) // races classified together share their replays
	defer replays.leave(k)
	var v *Verdict
	switch o.Classifier {
	case "", "portend":
		v = Classify(prog, j.Race, opts)
	case "replay-analyzer":
		v = ReplayAnalyzer(prog, j.Race, opts)
	default:
		return (&Verdict{RaceID: j.Race.ID, Stage: "not started"}).unclassified(
			fmt.Sprintf("unknown classifier %q (want portend or replay-analyzer)", o.Classifier))
	}
	if opts.Run.Canceled() {
		// Runs cut short by cancellation prove nothing.
		v = (&Verdict{RaceID: j.Race.ID, Stage: v.Stage}).unclassified("classification was canceled")
	}
	return v
}

// GaveUp is the verdict of a job that was never run to the end, for the
// reason given (no worker could finish it, say): unclassified.
func GaveUp(j Job, reason string) *Verdict {
	return (&Verdict{RaceID: j.Race.ID, Stage: "not started", MemoryModel: j.Options.Model}).unclassified(reason)
}

// ClassifyAll classifies independent races in parallel on workers
// goroutines (0: one per CPU); each verdict depends only on its race, so
// the result is the same as classifying them one after the other.
func ClassifyAll(prog *ir.Program, races []*race.Race, opts Options, workers int) []*Verdict {
	ref := RefOf(prog)
	jobs := make([]Job, len(races))
	for i, r := range races {
		jobs[i] = NewJob(ref, r, opts, "")
	}
	return ClassifyEach(prog, jobs, workers, opts.Run.Cancel, nil)
}

// ClassifyEach runs the jobs, all for prog, on workers goroutines (0: one
// per CPU) and also calls each (when set) on the calling goroutine as every
// verdict arrives, so a caller can show results before the last race is
// done. Once cancel closes, no further job is started and those jobs'
// verdicts stay nil.
func ClassifyEach(prog *ir.Program, jobs []Job, workers int, cancel <-chan struct{}, each func(i int, v *Verdict)) []*Verdict {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]*Verdict, len(jobs))
	next := make(chan int)
	type done struct {
		i int
		v *Verdict
	}
	results := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results <- done{i, jobs[i].Run(prog, cancel)}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range jobs {
			select {
			case next <- i:
			case <-cancel: // nil channel when not set: never ready
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	for d := range results {
		out[d.i] = d.v
		if each != nil {
			each(d.i, d.v)
		}
	}
	return out
}
