package vm

import (
	"sync"
	"sync/atomic"
)

// Room shares one memory budget between two kinds of executions that
// run at once before either has measured the program: a primary one,
// which must not be stopped or run again (the exploration of symbolic
// inputs' first path, the analysis's own inputs, which measures the
// program), and speculative ones, which can run again from their start
// (detection's plan on the same inputs, started at once instead of after
// that path). Waiting for the measurement cost detection the whole of
// that symbolic path: parallel_sum 2000000's took 2 s, four runs' worth.
//
// Until the measurement each side may hold half the budget. A speculative
// execution past its half, or while the primary needs room, is abandoned
// (Config.Room returns false; Termination.NoRoom) and runs again once
// there is room; the primary past its half waits until the speculative
// executions running have stopped. Once the primary has measured the
// program, two executions fit side by side (Measured(true)), or the
// speculative ones wait until the primary's work is over (Open). Nothing
// an execution finds depends on it: an abandoned execution is thrown away
// and runs again from its start under the same schedule.
type Room struct {
	half uint64
	open atomic.Bool // no sharing any more: every check passes
	mu   sync.Mutex
	cond *sync.Cond
	// closed: measured, and two executions do not fit: speculative ones
	// wait for Open. needed: the primary passed its half: speculative
	// ones stop. Once one was abandoned (abandoned > 0), none starts until
	// the measurement: it would be abandoned again where it was.
	closed, needed bool
	live           int // speculative executions running (Enter)
	abandoned      int // speculative executions abandoned so far
}

// NewRoom returns the room of the given memory budget (not 0).
func NewRoom(budget uint64) *Room {
	r := &Room{half: budget / 2}
	r.cond = sync.NewCond(&r.mu)
	return r
}

// Primary is Config.Room for the primary execution at a footprint of fp
// bytes: past half the budget it waits until no speculative execution
// runs. It always lets the primary go on.
func (r *Room) Primary(fp uint64) bool {
	if fp <= r.half || r.open.Load() {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.needed {
		r.needed = true
		r.cond.Broadcast()
	}
	for r.live > 0 && !r.open.Load() {
		r.cond.Wait()
	}
	return true
}

// Speculative is Config.Room for a speculative execution at a footprint
// of fp bytes: false abandons it.
func (r *Room) Speculative(fp uint64) bool {
	if r.open.Load() {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open.Load() {
		return true
	}
	if r.closed || r.needed || fp > r.half {
		r.abandoned++
		return false
	}
	return true
}

// Enter waits until a speculative execution may start (while the sharing
// lasts, none has been abandoned and the primary needs no room), counts
// it as running, and returns the function that counts it out when it
// ended.
func (r *Room) Enter() (leave func()) {
	if r.open.Load() {
		return func() {}
	}
	r.mu.Lock()
	for !r.open.Load() && (r.closed || r.needed || r.abandoned > 0) {
		r.cond.Wait()
	}
	if r.open.Load() {
		r.mu.Unlock()
		return func() {}
	}
	r.live++
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.live--
		r.cond.Broadcast()
		r.mu.Unlock()
	}
}

// WaitOpen waits until the sharing is over: an execution that cannot run
// again starts only then.
func (r *Room) WaitOpen() {
	if r.open.Load() {
		return
	}
	r.mu.Lock()
	for !r.open.Load() {
		r.cond.Wait()
	}
	r.mu.Unlock()
}

// Measured ends the sharing once the primary has measured the program:
// fits says two executions fit side by side under the budget (vm.TryAdmit
// counted them), and the room opens; otherwise speculative executions
// stop and wait for Open.
func (r *Room) Measured(fits bool) {
	if fits {
		r.Open()
		return
	}
	r.mu.Lock()
	r.closed = true
	r.cond.Broadcast()
	r.mu.Unlock()
}

// Open ends the sharing: the primary's work is over, or both fit.
func (r *Room) Open() {
	r.mu.Lock()
	r.open.Store(true)
	r.cond.Broadcast()
	r.mu.Unlock()
}

// Abandoned is how many speculative executions were abandoned.
func (r *Room) Abandoned() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.abandoned
}
