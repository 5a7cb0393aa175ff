package classify

import (
	"sync"
	"sync/atomic"

	"augur/analyzer/exec/vm"
)

// Every pair of a race's input path starts the same way: from the pre-race
// checkpoint, the primary makes the first access and holds that thread
// until the second thread makes its own, and the alternate holds the first
// thread from the start until then. Only after that do the post-race
// schedules differ. On a long program the hold is most of a pair's work
// (pbzip2's reader and consumers: 39% of the analysis's CPU), and a path
// runs it for each of its post-race schedules, harm-search schedules and
// steered runs. A holdShare runs each order's hold once per checkpoint
// and starts every pair from a fork of where it ended. The hold runs under
// round robin and its budget is the path's, so every pair would have run
// it the same way.

// shareHolds turns the sharing on; a test turns it off to compare.
var shareHolds = true

// holdsRun counts the holds run (both orders), for tests.
var holdsRun atomic.Uint64

// newHoldShare returns the share of a checkpoint's pairs (nil when
// sharing is off).
func newHoldShare() *holdShare {
	if !shareHolds {
		return nil
	}
	return &holdShare{}
}

// holdShare keeps where each order's hold ended, for the pairs of one
// checkpoint (pairSetup). The zero value is ready; a nil one shares
// nothing.
type holdShare struct {
	mu   [2]sync.Mutex // by order: the primary's, the alternate's
	kept [2]*heldState
}

// Orders of a pair, as holdShare counts them.
const (
	primaryOrder = iota
	alternateOrder
)

// heldState is how one order's hold went: the machine where it ended (only
// forked once kept) and what the order does next depends on.
type heldState struct {
	m       *vm.Machine
	h       held
	granted Action
	// early is the primary's run to its first access when it ended before
	// getting there.
	early *vm.Result
	// err says why the order cannot be enforced.
	err error
}

// get returns order's hold from m: run on m (which it may consume) when no
// earlier pair kept one, else a fork of the kept state, stopped by m's
// cancel channel. A hold run on symbolic inputs (whose states fork at
// branches) or that a cancellation or the deadline may have cut short is
// not kept.
func (s *holdShare) get(order int, m *vm.Machine, run func(*vm.Machine) heldState) heldState {
	holds := func(m *vm.Machine) heldState {
		holdsRun.Add(1)
		return run(m)
	}
	if s == nil || m.SymbolicInputs() {
		return holds(m)
	}
	s.mu[order].Lock()
	defer s.mu[order].Unlock()
	if kept := s.kept[order]; kept != nil {
		st := *kept
		if st.m != nil {
			st.m = kept.m.Fork()
			st.m.SetCancel(m.Cancel())
		}
		return st
	}
	st := holds(m)
	if m.Interrupted() { // st.m (m or a fork of it) has m's channel and deadline
		return st
	}
	kept := st
	s.kept[order] = &kept
	if st.m != nil {
		st.m = kept.m.Fork()
	}
	return st
}
