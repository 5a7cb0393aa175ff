package analyzer

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// inputsBeside is the exploration of symbolic inputs with detection's
// plan on the analysis's own inputs beside it (race.Options.Beside).
// Neither needs the other: the plan runs the given inputs, and only the
// stages after it run the explored paths. The exploration is one
// goroutine interpreting with a solver, so a second core takes the plan's
// time off the wall clock: pigz's exploration of its arguments and
// standard input is 5 s of one core, and the plan 1.9 s of the other.
//
// With two workers detection starts at once beside the exploration. Until
// the exploration's first path (the given inputs') has measured the
// program, the two share the memory budget half and half (vm.Room):
// detection's executions that would pass their half are abandoned and
// run again later, and the path waits for them to stop past its own. Once
// measured, detection goes on beside the exploration when two of the
// program's executions fit under the budget (vm.TryAdmit, held until the
// exploration ends), otherwise once the exploration is over, as when they
// ran in turn; with one worker it starts then too. What each finds is the
// same either way: both are bounded by counts, not by the clock (unless a
// wall-time setting bounds them), they share no state, and an abandoned
// execution is thrown away.
type inputsBeside struct {
	a     *analysis
	ctx   context.Context
	prog  *ir.Program
	roots []vm.Config

	// room shares the memory budget with detection until the first path
	// ran (nil: detection waits for the exploration, or there is no
	// budget). measure is done once the first path ran, and done is
	// closed once the exploration ended.
	room    *vm.Room
	measure sync.Once
	done    chan struct{}
	err     error
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

// exploreBeside starts the exploration of roots on a goroutine of its own
// and returns once detection may start: at once with two workers, after
// it with one.
func exploreBeside(ctx context.Context, a *analysis, prog *ir.Program, roots []vm.Config, progress func(string, int, int)) *inputsBeside {
	b := &inputsBeside{a: a, ctx: ctx, prog: prog, roots: roots, progress: progress, done: make(chan struct{})}
	b.reported = [2]int64{-1, -1}
	b.ptotal.Store(int64(len(roots)))
	workers := a.Options.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if budget := a.Options.Run.MaxMemory; workers >= 2 && budget != 0 {
		b.room = vm.NewRoom(budget)
		roots[0].Room = b.room.Primary
	}
	go b.run()
	if workers < 2 {
		<-b.done
	}
	return b
}

// Wait waits for the exploration and returns the inputs detection runs
// its plan on (analysis.explored).
func (b *inputsBeside) Wait() ([]*race.Inputs, error) {
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

// Over reports whether the exploration has ended (its results may then
// be read).
func (b *inputsBeside) Over() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// settle waits for the exploration: Analyze recovering from a panic
// returns only once no goroutine of its own writes the result.
func (b *inputsBeside) settle() { <-b.done }

// run explores, recording an error or a panic for Wait, and ends the
// sharing of the memory budget once the first path ran: the admission of
// two executions side by side it then took is released when it is over.
func (b *inputsBeside) run() {
	release := func() {}
	defer func() {
		release()
		if b.room != nil {
			b.room.Open()
		}
		close(b.done)
	}()
	defer func() {
		if p := recover(); p != nil {
			b.panicked, b.stack = p, debug.Stack()
		}
	}()
	seedRan := func(footprint uint64) {
		b.measure.Do(func() {
			if b.room == nil {
				return
			}
			r, fits := vm.TryAdmit(b.a.Options.Run.MaxMemory, 2*max(footprint, 1))
			if fits {
				release = r
			}
			b.room.Measured(fits)
		})
	}
	b.err = b.a.explore(b.ctx, b.prog, b.roots, func(_ string, done, total int) {
		b.ptotal.Store(int64(total))
		b.pdone.Store(int64(done))
	}, seedRan)
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
