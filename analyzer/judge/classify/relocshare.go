package classify

import (
	"crypto/sha256"
	"encoding/json"
	"sync"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// relocRuns shares relocate's executions between the races classified in
// this process. The races one execution of detection found carry the same
// schedule, and on an explored input one run under it, with a detector,
// finds every one of them that is there again: pbzip2's 15 races made 24
// such runs of 8 distinct executions, each a whole compression. A run is
// keyed by everything it depends on (the plain configuration with the
// input applied, the schedule it follows, the statements a directed run
// switches at; the share holds one program's runs), so a shared run is
// the run the race would have made itself. A run the instruction budget
// cut short is kept too: the same execution runs out of the same budget
// at the same instruction, so another race's run of it would be cut there
// as well (ocean's bigger grids, each of which both races tried). One cut
// by the time or memory budget, or by a cancellation, is not kept: those
// depend on the clock and on the work beside it, and prove nothing for
// another race.
var relocRuns = &runShare{keep: 16, maxBytes: 32 << 20}

// A runShare keeps the outcomes of recent detection runs, and makes a
// caller that asks for a run another is making wait for it rather than
// make it again. It keeps at most keep runs and maxBytes of their
// schedules, the least recently used leaving first, and only those of one
// program: asking for another program's run forgets the rest (a language
// server's next save).
type runShare struct {
	mu       sync.Mutex
	keep     int
	maxBytes uint64
	prog     string
	runs     map[[32]byte]*sharedRun
	order    [][32]byte // least recently used first
	made     uint64     // runs made (do called), for the tests
}

// A sharedRun is one detection run's outcome: the races its detector found
// and the schedule it ran, or cut, with outran when what cut it was the
// instruction budget. done closes once they are set.
type sharedRun struct {
	done   chan struct{}
	races  []*race.Race
	trace  *sched.Trace
	cut    bool
	outran bool
}

// settled reports whether the run's outcome holds for whoever asks for
// the same execution: it finished, or ran out of instructions.
func (r *sharedRun) settled() bool { return !r.cut || r.outran }

// executionKey names the execution of cfg that follows trace, for the
// shares of relocate's runs (relocRuns) and of the replays to the races'
// checkpoints (replays): cfg's plain data (inputs applied) and the
// schedule its policy follows, which is either trace (replayed, then
// round robin) or, with no trace, a directed one at cfg's PreemptAt. The
// program is not in it: each share holds one program's executions. It reports false for an execution it cannot name (one
// with state of its own: a symbolic state, a reader for standard input,
// the weak model), which is not shared.
func executionKey(cfg vm.Config, trace *sched.Trace) ([32]byte, bool) {
	if cfg.Symbolic != nil || cfg.StdinReader != nil || cfg.Weak != nil {
		return [32]byte{}, false
	}
	data, err := json.Marshal(struct {
		Spec     vm.Spec      `json:"spec"`
		Trace    *sched.Trace `json:"trace"`
		Directed bool         `json:"directed"`
	}{cfg.Spec(), trace, trace == nil})
	if err != nil {
		return [32]byte{}, false
	}
	return sha256.Sum256(data), true
}

// run returns the outcome of the execution key names in program prog,
// made by do unless this process made it or is making it for another
// race.
func (s *runShare) run(prog string, key [32]byte, do func() *sharedRun) *sharedRun {
	s.mu.Lock()
	if s.prog != prog {
		s.prog, s.runs, s.order = prog, map[[32]byte]*sharedRun{}, nil
	}
	if r, ok := s.runs[key]; ok {
		s.touch(key)
		s.mu.Unlock()
		// Waiting needs no processor: a race's pairs run ahead may take
		// it meanwhile (cpus).
		cpus.release()
		<-r.done
		cpus.hold()
		if !r.settled() {
			s.count()
			return do() // its maker was stopped: this race's run may not be
		}
		return r
	}
	r := &sharedRun{done: make(chan struct{})}
	s.runs[key] = r
	s.order = append(s.order, key)
	s.made++
	s.mu.Unlock()

	made := do()
	r.races, r.trace, r.cut, r.outran = made.races, made.trace, made.cut, made.outran
	close(r.done)
	s.mu.Lock()
	if !r.settled() {
		s.forget(key, r)
	}
	s.shrink()
	s.mu.Unlock()
	return r
}

// count counts a run made outside the lock.
func (s *runShare) count() {
	s.mu.Lock()
	s.made++
	s.mu.Unlock()
}

// touch makes key the most recently used run.
func (s *runShare) touch(key [32]byte) {
	if i := s.at(key); i >= 0 {
		s.order = append(append(s.order[:i:i], s.order[i+1:]...), key)
	}
}

// forget drops key's run if it is still r.
func (s *runShare) forget(key [32]byte, r *sharedRun) {
	if s.runs[key] == r {
		s.drop(s.at(key))
	}
}

// at is key's place in order, or -1.
func (s *runShare) at(key [32]byte) int {
	for i, k := range s.order {
		if k == key {
			return i
		}
	}
	return -1
}

// drop forgets the run at place i of order.
func (s *runShare) drop(i int) {
	delete(s.runs, s.order[i])
	s.order = append(s.order[:i:i], s.order[i+1:]...)
}

// shrink drops the least recently used finished runs while more than keep
// runs or maxBytes of schedules are kept. A run still being made stays:
// its maker and whoever waits for it hold it anyway.
func (s *runShare) shrink() {
	var bytes uint64
	for _, k := range s.order {
		if t := s.runs[k].trace; t != nil {
			bytes += t.Bytes()
		}
	}
	for i := 0; i < len(s.order) && (len(s.order) > s.keep || bytes > s.maxBytes); {
		r := s.runs[s.order[i]]
		select {
		case <-r.done:
		default:
			i++
			continue
		}
		if r.trace != nil {
			bytes -= r.trace.Bytes()
		}
		s.drop(i)
	}
}
