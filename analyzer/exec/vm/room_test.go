package vm

import (
	"runtime"
	"testing"
)

// returned reports whether ch was closed, after letting the other
// goroutines run: a call that should block has had every chance to
// return wrongly.
func returned(ch chan struct{}) bool {
	for i := 0; i < 100; i++ {
		runtime.Gosched()
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// enterLater starts a speculative execution of r on a goroutine of its
// own, which ends it at once; the channel is closed once it started.
func enterLater(r *Room) chan struct{} {
	entered := make(chan struct{})
	go func() {
		defer r.Enter()()
		close(entered)
	}()
	return entered
}

// TestRoomSharesTheBudget walks the sharing of a 100-byte budget: each
// side holds up to half; the primary past its half waits for the
// speculative execution running to stop, which the next check tells it
// to; none starts again until the measurement, which here finds that two
// do not fit, so they wait for Open, after which every check passes.
func TestRoomSharesTheBudget(t *testing.T) {
	r := NewRoom(100)
	leave := r.Enter()
	if !r.Speculative(50) || !r.Primary(50) {
		t.Fatal("half the budget each refused")
	}
	waited := make(chan struct{})
	go func() {
		r.Primary(70) // past its half, beside a running speculative execution
		close(waited)
	}()
	for {
		r.mu.Lock()
		needed := r.needed
		r.mu.Unlock()
		if needed {
			break
		}
		runtime.Gosched()
	}
	if returned(waited) {
		t.Fatal("the primary went on past its half beside a speculative execution")
	}
	if r.Speculative(10) {
		t.Fatal("a speculative execution went on while the primary needs room")
	}
	leave()
	<-waited

	entered := enterLater(r)
	if returned(entered) {
		t.Fatal("a speculative execution started again before the measurement")
	}
	r.Measured(false)
	if returned(entered) || r.Speculative(1) {
		t.Fatal("speculative executions go on though two do not fit")
	}
	r.Open()
	<-entered
	if !r.Speculative(1000) || !r.Primary(1000) {
		t.Fatal("an open room refused an execution")
	}
	if got := r.Abandoned(); got != 2 {
		t.Fatalf("%d abandoned, want 2 (the primary needed room; two did not fit)", got)
	}
}

// TestRoomOpensWhenBothFit: a measurement that finds room for two ends
// the sharing at once, and a speculative execution past its half before
// it was abandoned and kept the others from starting until then.
func TestRoomOpensWhenBothFit(t *testing.T) {
	r := NewRoom(100)
	leave := r.Enter()
	if r.Speculative(60) {
		t.Fatal("a speculative execution went on past its half")
	}
	leave()
	entered := enterLater(r)
	if returned(entered) {
		t.Fatal("a speculative execution started again where one was abandoned")
	}
	r.Measured(true)
	<-entered
	if !r.Speculative(90) {
		t.Fatal("the room did not open when both fit")
	}
}
