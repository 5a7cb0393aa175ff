package race

import (
	"fmt"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// pctPhase is the exploration's PCT schedules in progress, on the
// analysis's own input and the explored ones in turn. explore runs them
// after the bounded enumeration; for a program whose schedules take a
// good part of a second, the enumeration runs the first of them beside
// its own batches (besideEnumeration). Either way they are the same
// schedules in the same order: schedule i has the same seed, depth and
// gathering place, and batches are merged in order.
type pctPhase struct {
	d              *detection
	patience, most int
	// i counts the schedules handed out, b the batches (each runs on one
	// input, in turn), idle the schedules in a row that found and covered
	// nothing new.
	i, b, idle int
	inputs     []*Inputs
	roots      []*rootSnapshot
	// spent is set once the exploration's instructions reached its budget,
	// complete once the enumeration was found to have run every schedule
	// on the only input.
	spent, complete bool
}

// pctBatch is a batch of PCT schedules on one input, ready to run;
// beside says it runs beside a batch of the enumeration.
type pctBatch struct {
	beside bool
	in     *Inputs
	cfgs   []vm.Config
	starts []*started
	names  []string
	seeds  []uint64
	depths []int
}

// pct returns the detection's PCT phase, begun at its first use; nil
// when the exploration runs no PCT schedule: it is off (Explore.Max
// negative), the analysis stopped, the program outran its budget under
// round robin (schedules of that stretch are not worth the time they
// take), it never created a second thread (its one schedule ran), or its
// threads met only where they were created and joined on the only input
// (forkJoin: every schedule is the one that ran).
func (d *detection) pct() *pctPhase {
	if d.pctp != nil {
		return d.pctp
	}
	x := d.opts.Explore
	if x == nil || x.Max < 0 || d.stop || d.res.TooLong != nil || !d.threaded || d.forkJoin && len(d.runInputs()) == 1 {
		return nil
	}
	p := &pctPhase{d: d, patience: x.Patience, most: x.Max, inputs: d.runInputs()}
	if p.patience <= 0 {
		p.patience = DefaultPatience
	}
	if p.most == 0 {
		p.most = DefaultMaxExplore
	}
	// Each batch runs on one input, the analysis's own and the explored
	// ones whose plan ran in full in turn (the inputs' share of the
	// exploration), from a snapshot of that input's start.
	p.roots = make([]*rootSnapshot, len(p.inputs))
	p.spent = d.exhausted(d.exploreBudget()) // by the enumeration
	d.pctp = p
	return p
}

// over reports whether the phase has ended: it ran its schedules, saw
// nothing new for its patience, spent its instructions, or has nothing
// left to run.
func (p *pctPhase) over() bool {
	return p.i >= p.most || p.idle >= p.patience || p.d.stop || p.spent || p.complete
}

// next makes the phase's next batch of n schedules; nil when the
// enumeration ran every schedule at the focus on the only input, so PCT,
// which switches at the same points, has none left.
func (p *pctPhase) next(n int) (*pctBatch, error) {
	d := p.d
	focus := d.focus()
	if d.enumeratedAll(focus) && p.b%len(p.roots) == 0 {
		if len(p.roots) == 1 {
			d.res.Explore.Ended, p.complete = EndedComplete, true
			return nil, nil
		}
		p.b++ // the enumeration ran this input's schedules: the next input's turn
	}
	j := p.b % len(p.roots)
	p.b++
	in, root := p.inputs[j], p.roots[j]
	if root == nil && !d.opts.Explore.NoSnapshots {
		root = &rootSnapshot{limit: snapshotLimit(d.opts.Run.MaxMemory)}
		p.roots[j] = root
	}
	steps := max(d.steps, 1)
	bt := &pctBatch{in: in, cfgs: make([]vm.Config, n), starts: make([]*started, n),
		names: make([]string, n), seeds: make([]uint64, n), depths: make([]int, n)}
	for k := range bt.cfgs {
		seed := d.opts.Seed + 1_000_003 + d.opts.Prior.Explored + uint64(p.i+k)
		depth := PCTDepth(int(d.opts.Prior.Explored) + p.i + k)
		bt.seeds[k], bt.depths[k] = seed, depth
		bt.cfgs[k] = in.Apply(d.opts.Run)
		pct := sched.NewPCT(seed, depth, steps)
		bt.cfgs[k].Policy, bt.cfgs[k].PreemptAt, bt.cfgs[k].PreemptAfterReads = pct, focus, true
		bt.names[k] = fmt.Sprintf("pct seed %d depth %d over %d accesses", seed, depth, len(focus))
		if at := d.gatherAt(p.i + k); at != "" {
			pct.GatherAt(at)
			bt.names[k] += " gathering threads at " + at
		}
		if in != nil {
			bt.names[k] += " on inputs " + in.String()
		}
		if root != nil {
			st, err := root.start(d, bt.cfgs[k])
			if err != nil {
				return nil, err
			}
			bt.starts[k] = st
		}
	}
	d.total += n
	p.i += n
	return bt, nil
}

// merge merges the executions of a batch in order, up to where the phase
// ends (those after it ran, but past its end).
func (p *pctPhase) merge(bt *pctBatch, runs []*execution) {
	d := p.d
	for k, ex := range runs {
		if p.idle >= p.patience || d.stop || p.spent {
			break
		}
		p.spent = d.spend(ex, d.exploreBudget())
		d.steps = max(d.steps, ex.run.Trace.Len())
		d.res.Explore.Schedules++
		if bt.beside {
			d.res.Explore.Beside++
		}
		d.res.Explore.Seeds[1] = bt.seeds[k]
		d.res.Explore.Depth = max(d.res.Explore.Depth, bt.depths[k])
		if d.res.Explore.Schedules == 1 {
			d.res.Explore.Seeds[0] = d.res.Explore.Seeds[1]
		}
		covered := d.cover(ex.run.Trace)
		if d.merge(ex, bt.names[k], ByExplore, bt.in) || covered {
			p.idle = 0
		} else {
			p.idle++
		}
	}
}

// finish says why the phase ended and what it made.
func (p *pctPhase) finish() {
	d := p.d
	switch {
	case p.idle >= p.patience:
		d.res.Explore.Ended = EndedSaturated
	case p.spent:
		d.res.Explore.Ended = EndedInstructions
	case d.res.Stopped != nil:
		d.res.Explore.Ended = EndedBudget
	case d.res.Explore.Ended == "":
		d.res.Explore.Ended = EndedLimit
	}
	for _, root := range p.roots {
		if root != nil {
			d.res.Explore.Snapshots += root.made
			d.res.Explore.Resumed += root.resumed
			d.res.Explore.Skipped += root.skipped
		}
	}
	d.res.Explore.Focus = len(d.focused)
	d.res.Explore.Switches = len(d.switches)
}

// besideWave is how many executions a wave of the exploration of a long
// program holds at least: the enumeration's batch, and PCT's first
// schedules beside it when the batch is smaller. A fixed count, not the
// machine's cores, so that the schedules are the same on any machine.
const besideWave = 2

// besideEnumeration returns the PCT schedules to run beside a batch of n
// of the bounded enumeration: for a program of more than FloorRun
// instructions, enough to make the wave besideWave wide, as many as
// PCT's half of the exploration's instructions and the whole of it
// afford; nil for a shorter one, or once PCT has nothing to run. A long
// program's enumeration runs a batch or two of one schedule each (its
// root, then the extensions of that root its half of a budget of a few
// runs affords), each a good part of a second with a core idle:
// parallel_sum 2000000's exploration ran its three schedules one after
// another. PCT's schedules do not depend on the enumeration's, but for
// the focus they switch at: beside it, they switch at the races the
// schedules before the wave saw, as the plan's PCT schedules of a long
// program do (sideBySide).
func (d *detection) besideEnumeration(n int) (*pctBatch, error) {
	if d.firstRan <= FloorRun || n >= besideWave {
		return nil, nil
	}
	p := d.pct()
	if p == nil || p.over() {
		return nil, nil
	}
	share, spent := d.exploreBudget()-d.enumerationBudget(), d.res.Explore.Instructions-d.enumerated
	if d.exhaustedAt(spent, share) {
		return nil, nil
	}
	k := d.affordableAt(min(besideWave-n, p.most-p.i), spent, share)
	// The whole exploration must pay for the wave too: each half rounds
	// to the nearest execution, so a budget of one run (a long
	// program's) would otherwise run two, its root and a PCT schedule.
	if k = min(k, d.affordable(n+k, d.exploreBudget())-n); k <= 0 {
		return nil, nil
	}
	bt, err := p.next(k)
	if bt != nil {
		bt.beside = true
	}
	return bt, err
}
