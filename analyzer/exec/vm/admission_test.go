package vm

import (
	"runtime"
	"testing"
)

// Work that does not fit beside what is admitted waits until room is
// made, work that fits does not, and work alone is admitted whatever it
// expects.
func TestAdmitWaitsForRoom(t *testing.T) {
	const budget = 100<<20 + 1 // a pool of its own
	first := Admit(budget, 60<<20)
	small := Admit(budget, 30<<20) // fits beside the first
	done := make(chan struct{})
	go func() {
		Admit(budget, 60<<20)() // does not fit until the first leaves
		close(done)
	}()
	poolsMu.Lock()
	p := pools[budget]
	poolsMu.Unlock()
	for {
		p.mu.Lock()
		w := p.waiting
		p.mu.Unlock()
		if w == 1 {
			break
		}
		runtime.Gosched()
	}
	select {
	case <-done:
		t.Fatal("work that does not fit was admitted")
	default:
	}
	first()
	<-done
	small()
	Admit(budget, 1<<40)() // alone: admitted, counted as the whole budget
	if p.used != 0 {
		t.Errorf("%d bytes still counted after every release", p.used)
	}
}

// TryAdmit counts in work that fits beside what is admitted and refuses,
// without waiting, work that does not, even when nothing else is.
func TestTryAdmitNeverWaits(t *testing.T) {
	const budget = 100<<20 + 2 // a pool of its own
	if _, ok := TryAdmit(budget, budget+1); ok {
		t.Fatal("work bigger than the budget was admitted")
	}
	first := Admit(budget, 60<<20)
	release, ok := TryAdmit(budget, 30<<20)
	if !ok {
		t.Fatal("work that fits was refused")
	}
	if _, ok := TryAdmit(budget, 30<<20); ok {
		t.Fatal("work that does not fit was admitted")
	}
	release()
	first()
	if p := poolOf(budget); p.used != 0 {
		t.Errorf("%d bytes still counted after every release", p.used)
	}
	if release, ok := TryAdmit(0, 1<<40); !ok {
		t.Error("work without a budget was refused")
	} else {
		release()
	}
}
