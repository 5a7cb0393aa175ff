package vm

import "sync"

// Admission to memory. The memory budget bounds each execution, but the
// workers of the exploration and of classification run several at once:
// two classification jobs of a program that holds 150 MiB took 692 MiB
// of RSS under a 256 MiB budget. A unit of work expected to hold much (an
// execution, a classification job with its paused executions) therefore
// waits to start until those running under the same budget leave room
// for it; one running alone is always admitted, so nothing waits for
// ever. Waiting changes when work runs, never what it finds: each
// execution is still stopped by its own budget alone, so verdicts do not
// depend on the number of workers.
//
// Admit is taken by the loops that start work in parallel (the
// exploration's executeAll, classification's Job.Run), never inside
// work that holds it: a unit that waited for room it holds itself would
// wait for ever. Inside such work, TryAdmit starts what can also run
// later.

// memoryPool is what the work admitted under one budget expects to hold.
type memoryPool struct {
	mu      sync.Mutex
	changed *sync.Cond
	used    uint64
	waiting int // work waiting for room
}

var (
	poolsMu sync.Mutex
	pools   = map[uint64]*memoryPool{}
)

// Admit waits until work expected to hold want bytes fits beside the work
// admitted under budget, counts it in, and returns the function that
// counts it out. Without a budget or an expectation it returns at once.
func Admit(budget, want uint64) (release func()) {
	want = min(want, budget)
	if budget == 0 || want == 0 {
		return func() {}
	}
	p := poolOf(budget)
	p.mu.Lock()
	for p.used > 0 && p.used+want > budget {
		p.waiting++
		p.changed.Wait()
		p.waiting--
	}
	p.used += want
	p.mu.Unlock()
	return p.release(want)
}

// TryAdmit is Admit for work that may run later instead (a
// classification's pairs run ahead of their turn, inside a job that holds
// its own admission): it counts the work in only when it fits beside the
// work admitted already, and never waits.
func TryAdmit(budget, want uint64) (release func(), ok bool) {
	if budget == 0 || want == 0 {
		return func() {}, true
	}
	p := poolOf(budget)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used+want > budget {
		return nil, false
	}
	p.used += want
	return p.release(want), true
}

// poolOf returns the pool of the work admitted under budget.
func poolOf(budget uint64) *memoryPool {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	p := pools[budget]
	if p == nil {
		p = &memoryPool{}
		p.changed = sync.NewCond(&p.mu)
		pools[budget] = p
	}
	return p
}

// release returns the function that counts want bytes out of p.
func (p *memoryPool) release(want uint64) func() {
	return func() {
		p.mu.Lock()
		p.used -= want
		p.changed.Broadcast()
		p.mu.Unlock()
	}
}
