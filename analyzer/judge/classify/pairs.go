package classify

import (
	"runtime"
	"sync"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// cpus lends the processors that no classification is using. Races are
// classified a job per processor, and a program's races often end
// unevenly: on pbzip2 one race's post-race pairs ran for nine minutes on
// one processor after every other job was done. The pairs of one race are
// independent runs, so a job runs its later pairs on the processors lent
// to it while it judges the earlier ones.
var cpus = &lender{free: runtime.GOMAXPROCS(0)}

// lender counts processors: every running job holds one (whatever the
// count: the callers decide how many jobs run), and a job borrows more
// only when one is free.
type lender struct {
	mu   sync.Mutex
	free int
	lent uint64 // processors borrowed so far
}

// hold takes a processor for a job, free or not.
func (l *lender) hold() {
	l.mu.Lock()
	l.free--
	l.mu.Unlock()
}

// borrow takes a processor if one is free.
func (l *lender) borrow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.free <= 0 {
		return false
	}
	l.free--
	l.lent++
	return true
}

// release gives back a processor taken by hold or borrow.
func (l *lender) release() {
	l.mu.Lock()
	l.free++
	l.mu.Unlock()
}

// pairRunner runs pairs of one race from its pre-race checkpoint: pair i
// is both orders under post-race schedule post(i) (step i of the
// post-race plan, or of the harm search). While the caller judges pair i,
// later pairs run on borrowed processors; the verdict depends only on the
// pairs judged, in order, so it is the same however many ran at once, and
// pairs started but not needed are canceled.
type pairRunner struct {
	setup pairSetup
	r     *race.Race
	opts  Options
	post  func(i int) postRace
	// alone runs the recorded order only: the alternate cannot be
	// enforced (each pair's err says why).
	alone   bool
	ahead   []*pendingPair // by pair; nil until started ahead
	abandon chan struct{}  // closed when the caller has its verdict
	// cancel stops the pairs run ahead: closed when the job is canceled
	// or the pairs are abandoned (made with the first pair run ahead).
	cancel <-chan struct{}
}

type pendingPair struct {
	primary, alt outcome
	err          error
	panicked     any // a panic of the pair's run, raised again where it is judged
	done         chan struct{}
}

// newPairRunner runs n pairs of r from setup under the post-race
// schedules post makes; post must be safe to call from several goroutines.
func newPairRunner(setup pairSetup, r *race.Race, opts Options, n int, post func(i int) postRace) *pairRunner {
	return &pairRunner{setup: setup, r: r, opts: opts, post: post,
		ahead: make([]*pendingPair, n), abandon: make(chan struct{})}
}

// postRacePlan is step i of the post-race plan of opts, a plan of its own
// for each pair.
func postRacePlan(opts Options) func(i int) postRace {
	return func(i int) postRace { return postSchedule{plan: sched.PostRacePlan(opts.Ma, opts.Seed), i: i} }
}

// get returns pair i, run here or waited for.
func (p *pairRunner) get(i int) (primary, alt outcome, err error) {
	p.startAhead(i + 1)
	if pp := p.ahead[i]; pp != nil {
		<-pp.done
		p.ahead[i] = nil // its executions go once the caller is done with them
		if pp.panicked != nil {
			panic(pp.panicked) // a bug in augur: Job.Run reports it for this race
		}
		return pp.primary, pp.alt, pp.err
	}
	return p.run(i, p.setup.ckpt.Fork(), p.setup.ckpt.Fork())
}

// startAhead starts the pairs after the one judged next (from on), as
// long as processors are free and the memory budget has room, and at
// most one per processor ahead: a
// finished pair holds its two executions until it is judged. The forks
// are made here, on the caller's goroutine: forking marks the
// checkpoint's memory shared.
func (p *pairRunner) startAhead(from int) {
	for j := from; j < len(p.ahead) && j < from+runtime.GOMAXPROCS(0); j++ {
		if p.ahead[j] != nil {
			continue
		}
		// Its two executions, beside the job's, must fit under the
		// memory budget (vm.TryAdmit): otherwise pairs run in turn.
		admitted, ok := vm.TryAdmit(p.opts.Run.MaxMemory, 2*p.opts.Run.MemoryHint)
		if !ok {
			return
		}
		if !cpus.borrow() {
			admitted()
			return
		}
		if p.cancel == nil {
			p.cancel = p.cancelOf()
		}
		pm, am := p.setup.ckpt.Fork(), p.setup.ckpt.Fork()
		pm.SetCancel(p.cancel)
		am.SetCancel(p.cancel)
		pp := &pendingPair{done: make(chan struct{})}
		p.ahead[j] = pp
		go func() {
			defer admitted()
			defer cpus.release()
			defer close(pp.done)
			defer func() { pp.panicked = recover() }()
			pp.primary, pp.alt, pp.err = p.run(j, pm, am)
		}()
	}
}

// cancelOf is a channel closed when the job is canceled or its pairs are
// abandoned.
func (p *pairRunner) cancelOf() <-chan struct{} {
	c := make(chan struct{})
	go func() {
		select {
		case <-p.opts.Run.Cancel: // nil when not set: never ready
		case <-p.abandon:
		}
		close(c)
	}()
	return c
}

// run runs pair i on the two forks given.
func (p *pairRunner) run(i int, pm, am *vm.Machine) (primary, alt outcome, err error) {
	if p.alone {
		return runPrimaryOnly(pm, p.r, p.post(i), p.setup.budget)
	}
	return runPair(pm, am, p.r, p.opts, p.post(i), p.setup)
}

// stop cancels the pairs started ahead and waits for them: the caller has
// its verdict.
func (p *pairRunner) stop() {
	close(p.abandon)
	for _, pp := range p.ahead {
		if pp != nil {
			<-pp.done
		}
	}
}
