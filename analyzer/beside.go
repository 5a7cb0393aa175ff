package analyzer

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"augur/analyzer/ir"
	"augur/analyzer/race"
	"augur/analyzer/vm"
)

// inputsBeside is the exploration of symbolic inputs run beside
// detection's plan on the analysis's own inputs (race.Beside). Neither
// needs the other: the plan runs the given inputs, and only the stages
// after it run the explored paths. The exploration is one goroutine
// interpreting with a solver, so on a second core it takes its time off
// the wall clock: pigz's exploration of its arguments and standard input
// is 5 s of one core, and the plan 1.8 s of the other.
//
// What each finds is the same as when they run in turn: both are bounded
// by counts, not by the clock (unless a wall-time setting bounds them),
// and they share no state. Memory is admitted like other parallel work
// (vm.Admit): the exploration starts beside the plan only when there is
// room for two of the program's executions under the budget, and
// otherwise runs first, as it did alone.
type inputsBeside struct {
	a       *analysis
	ctx     context.Context
	prog    *ir.Program
	roots   []vm.Config
	workers int

	once sync.Once
	done chan struct{}
	err  error
	// panicked and stack are a panic of the exploration's goroutine,
	// raised again on the caller's (Wait) so Analyze reports it.
	panicked any
	stack    []byte

	// The exploration's progress, published by its goroutine and
	// reported on the caller's (flush): an Observer hears every callback
	// on the goroutine that called Analyze.
	pdone, ptotal atomic.Int64
	progress      func(string, int, int)
	reported      [2]int64
}

// newInputsBeside prepares the exploration of roots beside detection.
func newInputsBeside(ctx context.Context, a *analysis, prog *ir.Program, roots []vm.Config, progress func(string, int, int)) *inputsBeside {
	b := &inputsBeside{a: a, ctx: ctx, prog: prog, roots: roots, done: make(chan struct{}), progress: progress,
		workers: a.Options.Workers}
	if b.workers <= 0 {
		b.workers = runtime.GOMAXPROCS(0)
	}
	b.reported = [2]int64{-1, -1}
	b.ptotal.Store(int64(len(roots)))
	return b
}

// Start runs the exploration: on a goroutine of its own when there are
// two workers and room under the memory budget for its execution and the
// plan's beside it (twice footprint), otherwise here, before the plan
// goes on.
func (b *inputsBeside) Start(footprint uint64) {
	b.once.Do(func() {
		if b.workers >= 2 {
			if release, ok := vm.TryAdmit(b.a.Options.Run.MaxMemory, 2*max(footprint, 1)); ok {
				go func() {
					defer release()
					b.run()
				}()
				return
			}
		}
		b.run()
	})
}

// Wait waits for the exploration and returns the inputs detection runs
// its plan on (analysis.explored).
func (b *inputsBeside) Wait() ([]*race.Inputs, error) {
	b.Start(0)
	<-b.done
	b.flush()
	if b.panicked != nil {
		panic(fmt.Sprintf("%v (while exploring inputs)\n%s", b.panicked, b.stack))
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.a.explored, nil
}

// settle waits for an exploration that started, and keeps one that did
// not from starting: Analyze recovering from a panic returns only once no
// goroutine of its own writes the result.
func (b *inputsBeside) settle() {
	b.once.Do(func() { close(b.done) })
	<-b.done
}

// run explores, recording an error or a panic for Wait.
func (b *inputsBeside) run() {
	defer close(b.done)
	defer func() {
		if p := recover(); p != nil {
			b.panicked, b.stack = p, debug.Stack()
		}
	}()
	b.err = b.a.explore(b.ctx, b.prog, b.roots, func(_ string, done, total int) {
		b.ptotal.Store(int64(total))
		b.pdone.Store(int64(done))
	})
}

// flush reports the exploration's progress when it moved since the last
// report; the caller's goroutine calls it.
func (b *inputsBeside) flush() {
	now := [2]int64{b.pdone.Load(), b.ptotal.Load()}
	if now == b.reported {
		return
	}
	b.reported = now
	b.progress("exploring", int(now[0]), int(now[1]))
}
