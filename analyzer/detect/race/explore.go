package race

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// Explore configures the exploration that follows the planned executions:
// PCT schedules whose preemption points are the synchronization
// operations and the accesses of the races and potential races found so
// far (the focus), run while they keep finding new behaviour and the time
// lasts. A bug that needs a switch between two plain accesses (a torn
// pair of fields, a check-then-act, an object published before it is
// filled) is reachable there, at a fraction of the cost of switching at
// every access.
type Explore struct {
	// Until is when exploration stops at the latest (zero: it stops only
	// when it saturates, or at Run's own deadline). It is checked between
	// batches of executions, so it may be overrun by one batch.
	Until time.Time
	// Patience is how many executions in a row may find nothing new (no
	// new race, potential race, lock-order inversion or failure, and no
	// new switch between two points, see cover) before exploration stops
	// (default DefaultPatience).
	Patience int
	// Max bounds the PCT executions (default DefaultMaxExplore; negative:
	// none, the bounded enumeration alone).
	Max int
	// Instructions bounds the instructions the exploration's executions
	// (the bounded enumeration's and PCT's) run in all, each counted from
	// the program's start, whether it was interpreted from there or
	// resumed from a snapshot (so snapshots change nothing). 0 follows
	// the program (followProgram: StageRuns times what the first
	// execution ran, at least ExploreFloor); Unbounded sets
	// none. Unlike Until it
	// ends the exploration at the same schedule on any machine, and it
	// keeps a long program's exploration to a multiple of one run of it.
	Instructions uint64
	// NoReduction turns off the bounded enumeration's partial-order
	// reduction (see reduce.go): every thread that can run is tried at
	// every decision. For measurements and tests of the reduction.
	NoReduction bool
	// NoSnapshots makes every schedule of the exploration (the bounded
	// enumeration and PCT) run from the program's start instead of from
	// a paused execution of the prefix it shares (snapshot.go). For
	// measurements and tests: the results are the same.
	NoSnapshots bool
	// PCTAfterAll runs PCT on the analysis's input even where the
	// enumeration ran every schedule (ExploreStats.AllSchedules). For
	// tests that PCT then finds nothing more.
	PCTAfterAll bool
	// Workers run executions in parallel (0: one per CPU). Results do not
	// depend on it: batches are fixed, merged in order.
	Workers int
}

// workers is how many executions run at once: Workers, or one per CPU.
func (x *Explore) workers() int {
	if x.Workers > 0 {
		return x.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// The exploration's defaults.
const (
	DefaultPatience   = 1000
	DefaultMaxExplore = 4000
	// exploreBatch is how many executions share one focus: the focus is
	// recomputed between batches from what the earlier ones found, so the
	// batch size (not the number of workers) fixes every schedule.
	exploreBatch = 8
	// maxFocus bounds the accesses the focus holds.
	maxFocus = 256
	// StageRuns and ExploreFloor make the instruction budget of each of
	// detection's stages after the plan (the plans on explored inputs,
	// the race-directed runs and this exploration) when its setting is
	// 0: StageRuns runs' worth of a long program each, so that detection
	// with defaults is a small multiple of one run, the plan's five
	// schedules and one run for each stage (pigz compressing 2 MB, a
	// 2.3 s run, took 17 times that when the three shared ten runs). A
	// short program's stage gets at least ExploreFloor, enough for
	// DefaultMaxExplore schedules of sixty thousand instructions, where
	// the schedule counts or patience bound it first. A program of a
	// million instructions a run (SQLite's driver) explores some 250
	// schedules on it, which took 30 seconds of this machine (the
	// exploration's time before it was counted in instructions, when its
	// results followed the load). Past FloorRun the floor falls
	// (stageFloor) to one run at LongRun, so that a program of half a
	// second is not given twenty seconds of schedules.
	StageRuns    = 1
	ExploreFloor = 250_000_000
	// FloorRun is the longest first schedule whose stages get the whole
	// ExploreFloor: a million instructions, a fiftieth of a second of a
	// plain run. Every program of the test corpus but a few benchmarks
	// runs fewer.
	FloorRun = 1_000_000
	// Unbounded is an Explore.Instructions that sets no budget.
	Unbounded = ^uint64(0)
)

// budget is the exploration's instruction budget (Instructions), given
// what the first execution ran.
func (x *Explore) budget(first uint64) uint64 { return followProgram(x.Instructions, first) }

// followProgram is a stage's instruction budget given its setting (0:
// auto) and what the first execution ran: the setting, or StageRuns
// times the first's instructions, at least the floor for a program of
// that length (stageFloor).
func followProgram(setting, first uint64) uint64 {
	if setting != 0 {
		return setting
	}
	return max(StageRuns*first, stageFloor(first))
}

// stageFloor is the least a stage of a program whose first schedule ran
// first instructions may run: ExploreFloor up to FloorRun, then falling
// as a power of first, so that the runs it pays for fall from 250 at
// FloorRun to StageRuns at LongRun, where a long program's stages have
// no floor. A straight fall from the floor at FloorRun to a
// run at LongRun keeps the budget continuous (a program of LongRun-1
// instructions would otherwise have five runs' worth and one of LongRun
// one): a program of ten million instructions has about 97 million, ten
// schedules; one of half a second (parallel_sum, 24.5 million) about 67
// million, under three.
func stageFloor(first uint64) uint64 {
	switch {
	case first <= FloorRun:
		return ExploreFloor
	case first >= LongRun:
		return 0
	}
	// log(floor) falls linearly in log(first) from log(ExploreFloor) at
	// FloorRun to log(StageRuns*LongRun) at LongRun.
	slope := math.Log(float64(ExploreFloor)/float64(StageRuns*LongRun)) / math.Log(float64(LongRun)/float64(FloorRun))
	return uint64(float64(ExploreFloor) * math.Pow(float64(first)/float64(FloorRun), -slope))
}

// exploreBudget is the exploration's instruction budget, fixed at its
// first use from what the first execution ran.
func (d *detection) exploreBudget() uint64 {
	x := &d.res.Explore
	if x.Budget == 0 {
		x.Budget = d.opts.Explore.budget(d.firstRan)
	}
	return x.Budget
}

// enumerationBudget is the part of the exploration's instructions the
// bounded enumeration may spend: half, as it gets half of the time, so
// that PCT always has the rest; all of it when PCT is off (Explore.Max
// negative).
func (d *detection) enumerationBudget() uint64 {
	b := d.exploreBudget()
	if d.opts.Explore.Max < 0 {
		return b
	}
	return b / 2
}

// spend counts what an execution of the exploration ran and reports
// whether the exploration's instructions have reached budget (exhausted).
func (d *detection) spend(ex *execution, budget uint64) bool {
	d.mostRan = max(d.mostRan, ex.run.Instructions)
	d.res.Explore.Instructions += ex.run.Instructions
	return d.exhausted(budget)
}

// spendEnumerated is spend for an execution of the bounded enumeration,
// which counts toward its half (enumerationBudget) as well.
func (d *detection) spendEnumerated(ex *execution) bool {
	d.enumerated += ex.run.Instructions
	d.spend(ex, d.exploreBudget())
	return d.exhaustedAt(d.enumerated, d.enumerationBudget())
}

// each is what the next execution of the exploration is expected to run:
// the most any of it has run so far, the first schedule's before any ran.
func (d *detection) each() uint64 { return max(d.mostRan, d.firstRan, 1) }

// exhausted reports whether the exploration's instructions have reached
// budget, or come within half an execution of it: the next execution
// would then run more past the budget than within it. A budget of a few
// runs of a long program (stageFloor) otherwise paid for a whole extra
// schedule in each of the enumeration's and PCT's halves: parallel_sum
// 2000000 explored four schedules, 80 million instructions, for a
// budget of 67 million.
func (d *detection) exhausted(budget uint64) bool {
	return d.exhaustedAt(d.res.Explore.Instructions, budget)
}

// exhaustedAt is exhausted for a part of the exploration that ran spent
// of its budget: the enumeration's half, or PCT's beside it.
func (d *detection) exhaustedAt(spent, budget uint64) bool {
	return spent >= budget || budget-spent < d.each()/2
}

// affordable is how many of n executions of the exploration to run in a
// batch (at least one): as many as the instructions left of budget pay
// for at each's length, to the nearest, so that the stage ends within
// half an execution of its budget. Each batch would otherwise run in
// full where the budget ends, to have all but the first few of its
// executions thrown away. The count is of instructions, so it is the
// same on any machine.
func (d *detection) affordable(n int, budget uint64) int {
	return d.affordableAt(n, d.res.Explore.Instructions, budget)
}

// affordableAt is affordable for a part of the exploration that ran
// spent of its budget.
func (d *detection) affordableAt(n int, spent, budget uint64) int {
	if d.exhaustedAt(spent, budget) {
		return 1
	}
	left, each := budget-spent, d.each()
	runs := left / each // to the nearest, without overflowing an Unbounded budget
	if left%each >= (each+1)/2 {
		runs++
	}
	return int(min(uint64(n), max(runs, 1)))
}

// ByExplore is an execution of the exploration: PCT over the focus.
const ByExplore Technique = "pct-focused"

// explore runs the exploration phase (see Explore): the PCT schedules
// after the bounded enumeration, those the enumeration did not already
// run beside its own (besideEnumeration).
func (d *detection) explore() error {
	p := d.pct()
	if p == nil {
		return nil
	}
	x, workers := d.opts.Explore, d.opts.Explore.workers()
	p.spent = p.spent || d.exhausted(d.exploreBudget()) // by the enumeration, and PCT beside it
	for !p.over() {
		if !x.Until.IsZero() && time.Now().After(x.Until) {
			d.res.Explore.Ended, d.res.TimeCut = EndedTime, true
			break
		}
		if t := d.opts.Run.Expired(); t != nil {
			d.res.Stopped, d.stop = t, true
			break
		}
		batch, err := p.next(d.affordable(min(exploreBatch, p.most-p.i), d.exploreBudget()))
		if err != nil {
			return err
		}
		if batch == nil {
			break // the enumeration ran every schedule there is
		}
		runs, err := d.executeAll(batch.cfgs, batch.starts, workers)
		if err != nil {
			return err
		}
		p.merge(batch, runs)
	}
	if d.total > d.ran { // executed past the end, or not run: the plan is done
		d.total = d.ran
		if d.opts.Progress != nil {
			d.opts.Progress(d.ran, d.total)
		}
	}
	p.finish()
	return nil
}

// PCT's depth (d: d-1 points where the running thread drops below every
// other) grows with the schedules explored. The first DepthEvery take
// depths 2 and 3 in turn, which reach most bugs soonest: ordering
// violations and atomicity violations of two threads need one or two
// switches. Each DepthEvery after those adds the next depth to the turn,
// up to MaxDepth, so that a search that keeps going (a long exploration,
// or the saves of the editor, whose histories continue the count) also
// reaches bugs that need three switches or more, which depth 3 never
// gives: its chance for such a bug is zero, where depth d has a chance of
// at least 1/(n·k^(d-1)) for n threads and k points (Burckhardt et al.). Keeping
// the shallow depths in the turn keeps their chances within a constant
// factor of what they were.
const (
	DepthEvery = 250
	MaxDepth   = 8
)

// PCTDepth is the depth of the exploration's schedule n (counted over the
// analyses of a history): it cycles through 2 to 3 for the first
// DepthEvery schedules, 2 to 4 for the next DepthEvery, and so on, to 2
// to MaxDepth.
func PCTDepth(n int) int {
	span := min(2+n/DepthEvery, MaxDepth-1)
	return 2 + n%span
}

// gatherPeers is how many threads must have reached a place for the
// exploration to gather threads there: with two, PCT's own chance of
// stopping the one peer does not fall with a count of peers.
const gatherPeers = 3

// gatherAt is where the exploration's schedule i gathers threads
// (sched.PCT.GatherAt), "" for a plain PCT schedule: every third schedule
// gathers, at each place of d.gathering in turn.
func (d *detection) gatherAt(i int) string {
	if len(d.gathering) == 0 || i%3 != 2 {
		return ""
	}
	return d.gathering[(i/3)%len(d.gathering)]
}

// enumeratedAll reports whether the enumeration ran every schedule that
// switches at focus on the analysis's own input.
func (d *detection) enumeratedAll(focus []string) bool {
	return !d.opts.Explore.PCTAfterAll && d.allAt != nil && slices.Equal(d.allAt, focus)
}

// executeAll runs the executions of cfgs, workers at a time, and returns
// them in order. starts, when given, holds for each execution the state
// it continues from (nil: the program's start).
func (d *detection) executeAll(cfgs []vm.Config, starts []*started, workers int) ([]*execution, error) {
	out := make([]*execution, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for k := range cfgs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			defer vm.Admit(cfgs[k].MaxMemory, cfgs[k].MemoryHint)()
			defer func() {
				if p := recover(); p != nil {
					errs[k] = fmt.Errorf("execution under %s: internal error: %v", cfgs[k].Policy.Name(), p)
				}
			}()
			var st *started
			if k < len(starts) {
				st = starts[k]
			}
			out[k], errs[k] = d.complete(cfgs[k], st)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// focus are the locations of the accesses of the races and potential
// races found so far, sorted, at most maxFocus: the plain accesses worth
// a preemption point.
func (d *detection) focus() []string {
	out := make([]string, 0, len(d.focused))
	for l := range d.focused {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// addFocus adds an access location to the focus.
func (d *detection) addFocus(loc string) {
	if d.focused == nil {
		d.focused = map[string]bool{}
	}
	if loc != "" && len(d.focused) < maxFocus {
		d.focused[loc] = true
	}
}

// cover adds the switches of an execution's schedule to the interleaving
// coverage and reports whether any was new. A switch is a pair of
// points: where the running thread stopped and where the thread that ran
// next had stopped before, the smallest unit of interleaving (Maple's
// iRoots of one pair). Exploration goes on while schedules keep covering
// new ones, even when they find no new race. The points after reads
// (vm.Config.PreemptAfterReads) make no switch of it: they give each PCT
// schedule more places to stop, and the exploration no longer to go on
// (publish_early.c would not saturate within 4,000 schedules). A
// repeated stretch of the trace is read twice (sched.CursorTwice): its
// later repetitions add no switch, and reading them made the cover of
// each of parallel_sum 2000000's exploration schedules a quarter of a
// second on the critical path, more than 4 million decisions each.
func (d *detection) cover(tr *sched.Trace) bool {
	if tr == nil {
		return false
	}
	if d.switches == nil {
		d.switches = map[[2]string]bool{}
	}
	at := map[int]string{} // where each thread last stopped
	afterRead := map[int]bool{}
	fresh := false
	for c := tr.CursorTwice(); ; {
		ev, ok := c.Next()
		if !ok {
			break
		}
		if ev.Thread >= 0 {
			at[ev.Thread], afterRead[ev.Thread] = ev.Loc, ev.What == sched.WhatAfterRead
		}
		if ev.Next == ev.Thread || ev.What == sched.WhatAfterRead || afterRead[ev.Next] {
			continue // the points after reads give a schedule more to do, not the exploration more time
		}
		if resume, ok := at[ev.Next]; ok && len(d.switches) < maxSwitches {
			pair := [2]string{ev.Loc, resume}
			if !d.switches[pair] {
				d.switches[pair], fresh = true, true
			}
		}
	}
	return fresh
}

// maxSwitches bounds the interleaving coverage kept.
const maxSwitches = 1 << 16

// ExploreStats says how the exploration went.
type ExploreStats struct {
	Schedules int // executions merged
	Focus     int // accesses that were preemption points at the end
	Switches  int // distinct switches between two points covered
	Depth     int // the deepest PCT schedule's depth (PCTDepth)
	// Seeds are the PCT seeds of the first and the last schedule merged:
	// an analysis that builds on a history starts past the last one.
	Seeds [2]uint64
	// Enumerated counts the schedules of the bounded enumeration that ran
	// before PCT (enumerate); Bound is the most preemptions the schedules
	// of its last round could make (EnumerationBound, more when the
	// rounds before ran all theirs), and Exhaustive is set when that round
	// ran every schedule with at most Bound preemptions at the points.
	// CompleteBound is the most preemptions of a round that ran all its
	// schedules (Bound when Exhaustive; 0 when none did).
	Enumerated    int
	Bound         int
	CompleteBound int
	Exhaustive    bool
	// AllSchedules is set when the enumeration was exhaustive and neither
	// the bound nor a fair decision left out a schedule the reduction
	// asked for: it ran every schedule at its points on the analysis's
	// input, up to the order of independent steps, and PCT runs there only
	// if the focus has grown since. AllFocus is that focus.
	AllSchedules bool
	AllFocus     []string
	// Reduced is set when the enumeration skipped the schedules that only
	// reorder steps touching nothing in common (reduce.go).
	Reduced bool
	// Snapshots counts the paused executions the exploration made to
	// branch from, Resumed the schedules that started from one, and
	// Skipped the instructions those did not interpret again.
	Snapshots, Resumed int
	Skipped            uint64
	// Beside counts the PCT schedules of Schedules that ran beside the
	// enumeration's batches, as a long program's do (besideEnumeration).
	Beside int
	// Instructions counts what the executions of the enumeration and PCT
	// ran (from the program's start, see Explore.Instructions), Budget
	// what they could.
	Instructions, Budget uint64
	// Ended says why it stopped.
	Ended string
	// OutputOrder is set with Ended EndedForkJoin when the threads
	// printed while two of them lived: every schedule runs them the same
	// way, but the order of their output can differ.
	OutputOrder bool
}

// Why an exploration ended (ExploreStats.Ended).
const (
	// EndedSaturated: Patience executions in a row found and covered
	// nothing new.
	EndedSaturated = "saturated"
	// EndedTime: Explore.Until came first.
	EndedTime = "explore-time"
	// EndedLimit: it ran Explore.Max executions.
	EndedLimit = "limit"
	// EndedInstructions: its executions ran Explore.Instructions.
	EndedInstructions = "instructions"
	// EndedBudget: the analysis's own time budget ran out.
	EndedBudget = "budget"
	// EndedOneThread: it did not start, as no execution created a second
	// thread: every schedule is the execution the plan already ran.
	EndedOneThread = "one-thread"
	// EndedForkJoin: it did not start, as the plan's first execution on
	// the analysis's own inputs had threads that met only where they were
	// created and joined, and raced nowhere: every schedule is that
	// execution.
	EndedForkJoin = "fork-join"
	// EndedComplete: the enumeration ran every schedule at the focus
	// (ExploreStats.AllSchedules) on the only input, and the focus did
	// not grow: PCT switches at the same points, so it has none left.
	EndedComplete = "complete"
)
