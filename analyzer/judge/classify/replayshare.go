package classify

import (
	"sync"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// The races one execution found carry its schedule, and each race's
// classification starts by replaying that execution from the program's
// start to its own first racing access (replayToRace): the pre-race
// checkpoint. On pbzip2 that was 78 replays of 16 executions, each of
// about 107 million instructions, since every race there comes at the
// end of a compression. The execution is the same for all of them, so a
// replay to a point the execution reaches after another race's checkpoint
// goes on from a fork of that checkpoint instead of from the start: it
// stands where a replay from the start would stand when it got there.

// replays keeps the recent checkpoints of this process's classifications:
// at most 64, and 3 of any one execution. pbzip2's races come from more
// than 16 executions, classified as their jobs come, so fewer kept states
// left most executions none by the time their next race came.
var replays = &stateShare{keep: 64, perKey: 3}

// A replay that runs far to its race also stops at milestones on the way,
// at these fractions of the racing thread's instructions, and keeps them:
// the races of one execution rarely come in the order of their accesses
// (pbzip2's are classified as the jobs come, and nearly all sit in the
// last tenth of a compression), so a race whose access comes before the
// kept checkpoints still finds one near it.
var milestoneFractions = [...]struct{ num, den uint64 }{{3, 4}, {15, 16}}

// minMilestone is the least run to a race, in the racing thread's
// instructions, that leaves milestones: a shorter replay costs little. A
// test lowers it to have its small programs leave them.
var minMilestone uint64 = 1 << 20

// milestones returns where a replay of m to at stops on the way: at the
// milestone fractions of at's count, on at's thread, those it has not
// yet passed (none when it has less than minMilestone to go).
func milestones(m *vm.Machine, at vm.StopPoint) []vm.StopPoint {
	done := m.ThreadCount(at.Thread)
	if at.Count < done+minMilestone {
		return nil
	}
	var out []vm.StopPoint
	for _, f := range milestoneFractions {
		if c := at.Count / f.den * f.num; c > done {
			out = append(out, vm.StopPoint{Thread: at.Thread, Count: c})
		}
	}
	return out
}

// A stateShare keeps paused executions, each under the key of the
// execution it is part of (executionKey: its configuration and schedule) and
// the point it stands before, while a classification of their program
// runs (enter, leave): at most keep of them, the least recently used
// leaving first, and, under a memory budget, no more than an eighth of it
// by their footprints, so the executions that run beside them keep their
// room.
type stateShare struct {
	mu     sync.Mutex
	keep   int
	perKey int // of one execution (0: keep)
	prog   string
	active map[string]int // classifications running, by program
	kept   []keptState
	// resumed counts replays that went on from a kept state, for the
	// tests.
	resumed uint64
}

// keptState is one paused execution of a stateShare.
type keptState struct {
	key [32]byte
	at  vm.StopPoint
	m   *vm.Machine // never run: only forked
}

// HoldReplays keeps the replays of prog's races for one another until
// done is called: a batch of races classified together
// (farm.ClassifyLocal) holds them across the moments between its jobs,
// when none runs.
func HoldReplays(prog *ir.Program) (done func()) {
	k := prog.Key()
	replays.enter(k)
	return func() { replays.leave(k) }
}

// enter records that a classification of program prog runs; a share
// holds one program's states, and another program's forgets them. Each
// enter is followed by a leave.
func (s *stateShare) enter(prog string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prog != prog {
		s.prog, s.kept = prog, nil
	}
	if s.active == nil {
		s.active = map[string]int{}
	}
	s.active[prog]++
}

// leave ends what enter began. When no classification of the program runs
// any more its states are dropped: they are kept for the races classified
// together, not for the process's life (a language server's next save).
func (s *stateShare) leave(prog string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active[prog]--; s.active[prog] > 0 {
		return
	}
	delete(s.active, prog)
	if s.prog == prog {
		s.kept = nil
	}
}

// from returns a fork of the kept state of execution key that is furthest
// along among those that stand before at, stopped by cancel; exact is set
// when it stands at at itself. nil when no kept state does.
//
// A state stands before at when at's thread has not yet executed the
// instruction at's count names (or does not exist yet): the execution
// then gets to at after that state, and the fork, run on, gets there as
// the execution from the start would.
func (s *stateShare) from(prog string, key [32]byte, at vm.StopPoint, cancel <-chan struct{}) (m *vm.Machine, exact bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prog != prog {
		return nil, false
	}
	best := -1
	for i, k := range s.kept {
		if k.key != key {
			continue
		}
		if k.at == at {
			best, exact = i, true
			break
		}
		if at.Count > 0 && k.m.ThreadCount(at.Thread) < at.Count &&
			(best < 0 || k.m.Instructions() > s.kept[best].m.Instructions()) {
			best = i
		}
	}
	if best < 0 {
		return nil, false
	}
	k := s.kept[best]
	s.kept = append(append(s.kept[:best:best], s.kept[best+1:]...), k) // most recently used
	s.resumed++
	m = k.m.Fork()
	m.SetCancel(cancel)
	return m, exact
}

// put keeps a fork of m, which stands before at in execution key, unless
// the memory budget maxMemory (0: none) leaves no room for it.
func (s *stateShare) put(prog string, key [32]byte, at vm.StopPoint, m *vm.Machine, maxMemory uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prog != prog || s.active[prog] == 0 {
		return
	}
	for _, k := range s.kept {
		if k.key == key && k.at == at {
			return
		}
	}
	s.kept = append(s.kept, keptState{key: key, at: at, m: m.Fork()})
	if s.perKey > 0 && s.count(key) > s.perKey {
		s.drop(s.oldest(key))
	}
	for len(s.kept) > s.keep || maxMemory != 0 && 8*s.footprint() > maxMemory {
		s.drop(0)
	}
}

// count is how many states of execution key are kept.
func (s *stateShare) count(key [32]byte) int {
	n := 0
	for _, k := range s.kept {
		if k.key == key {
			n++
		}
	}
	return n
}

// oldest is the place of the least recently used state of execution key.
func (s *stateShare) oldest(key [32]byte) int {
	for i, k := range s.kept {
		if k.key == key {
			return i
		}
	}
	return -1
}

// drop forgets the state at place i.
func (s *stateShare) drop(i int) {
	copy(s.kept[i:], s.kept[i+1:])
	s.kept[len(s.kept)-1] = keptState{} // the array must not hold the machine
	s.kept = s.kept[:len(s.kept)-1]
}

// footprint is what the kept states hold, as each would alone.
func (s *stateShare) footprint() uint64 {
	var n uint64
	for _, k := range s.kept {
		n += k.m.Footprint()
	}
	return n
}
