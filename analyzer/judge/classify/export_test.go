package classify

import (
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// LendCPUs sets how many processors classification may borrow to run a
// race's later post-race pairs ahead (0: none, every pair in turn), and
// returns what restores the count.
func LendCPUs(n int) (restore func()) {
	cpus.mu.Lock()
	old := cpus.free
	cpus.free = n
	cpus.mu.Unlock()
	return func() {
		cpus.mu.Lock()
		cpus.free = old
		cpus.mu.Unlock()
	}
}

// CPUsLent is how many processors classification has borrowed so far.
func CPUsLent() uint64 {
	cpus.mu.Lock()
	defer cpus.mu.Unlock()
	return cpus.lent
}

// Verify is verify: why harmful verdict v of race r does not replay to
// what it claims, or "".
func Verify(prog *ir.Program, r *race.Race, v *Verdict, opts Options) string {
	return verify(prog, r, v, opts)
}

// OnHarmSearch has f called as each harm search starts, and returns what
// removes it.
func OnHarmSearch(f func()) (restore func()) {
	harmSearchStarts = f
	return func() { harmSearchStarts = nil }
}

// Relocate is relocate, for the test of an input path that outruns the
// budget.
func Relocate(prog *ir.Program, r *race.Race, opts Options, in *race.Inputs) (*race.Race, bool) {
	return relocate(prog, r, opts, in)
}

// RefuseVerdicts has verify ask refuse first whether harmful verdict v
// holds (a reason when not), and returns what removes it.
func RefuseVerdicts(refuse func(v *Verdict) string) (restore func()) {
	refuseVerdicts = refuse
	return func() { refuseVerdicts = nil }
}

// OnCheckAlone has f called as a verdict's replay runs after its path's
// executions were let go (tightMemory), and returns what removes it.
func OnCheckAlone(f func()) (restore func()) {
	checksAlone = f
	return func() { checksAlone = nil }
}

// SharedRelocations gives relocate a share of runs of its own, with room
// for keep runs, and returns how many runs relocate made through it and
// what restores the process's share.
func SharedRelocations(keep int) (made func() uint64, restore func()) {
	old := relocRuns
	relocRuns = &runShare{keep: keep, maxBytes: 32 << 20}
	s := relocRuns
	return func() uint64 {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.made
		}, func() {
			relocRuns = old
		}
}

// ShareHolds turns the sharing of the pairs' holds on or off, and returns
// how many holds classification ran since and what restores the setting.
func ShareHolds(on bool) (run func() uint64, restore func()) {
	old, start := shareHolds, holdsRun.Load()
	shareHolds = on
	return func() uint64 { return holdsRun.Load() - start }, func() { shareHolds = old }
}

// HoldShare is a holdShare, for the test of what it keeps.
type HoldShare struct{ s holdShare }

// Get is holdShare.get of the primary's hold, with a hold that runs
// nothing and counts its calls in ran.
func (h *HoldShare) Get(m *vm.Machine, ran *int) *vm.Machine {
	return h.s.get(primaryOrder, m, func(m *vm.Machine) heldState {
		*ran++
		return heldState{m: m}
	}).m
}

// ShareReplays gives replayToRace a share of its own, keeping states
// (on) or none, with milestones on every replay of more than 64
// instructions, and returns how many replays went on from a kept state,
// what holds the states of a program while its races are classified
// (replays.enter), and what restores the process's share.
func ShareReplays(on bool) (resumed func() uint64, hold func(prog string) (leave func()), restore func()) {
	old, oldMin := replays, minMilestone
	keep := 0
	if on {
		keep = 64
	}
	s := &stateShare{keep: keep, perKey: 3}
	replays, minMilestone = s, 64
	return func() uint64 {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.resumed
		}, func(prog string) func() {
			s.enter(prog)
			return func() { s.leave(prog) }
		}, func() { replays, minMilestone = old, oldMin }
}
