package classify

import (
	"fmt"
	"time"

	"augur/analyzer/ir"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/solver"
	"augur/analyzer/vm"
)

// maxSpawnedPaths bounds the forked paths of one order explored for
// failures after the race.
const maxSpawnedPaths = 16

// classifyMultipath is Algorithm 2: the primary is explored with symbolic
// inputs, following the recorded schedule to the first racing access (paths
// whose schedule leaves it are pruned), up to Mp primaries; each gets its
// pairs of orders as in Algorithm 1, its outputs compared as terms under
// the path constraints, and the paths the orders fork after the race are
// explored for failures too.
func classifyMultipath(prog *ir.Program, r *race.Race, opts Options, v *Verdict) *Verdict {
	if opts.Mp < 1 {
		opts.Mp = 5
	}
	v.Stage = "multipath"
	slv := solver.New(5 * time.Second)
	slv.Cancel = opts.Run.Cancel
	sym := vm.NewSymbolic(slv)
	cfg := replayConfig(r, opts)
	cfg.Symbolic = sym
	cfg.PauseAtFork = true
	root, err := vm.New(prog, cfg)
	if err != nil {
		return v.unclassified(err.Error())
	}
	var primaries []*vm.Machine
	work := []*vm.Machine{root}
	for steps := 0; len(work) > 0 && len(primaries) < opts.Mp && steps < 64*opts.Mp; steps++ {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		m.StopBefore(&r.FirstAt)
		res := m.Run()
		work = append(work, m.Spawned()...)
		switch {
		case res.Term.Kind != vm.TermPaused: // ended before the race
		case !m.AtStop():
			work = append(work, m) // paused after a fork
		case !diverged(m):
			m.SetPauseAtFork(false)
			primaries = append(primaries, m)
		}
	}
	if len(primaries) == 0 {
		return v.unclassified("no path with the recorded schedule reaches the first racing access")
	}
	for j, ckpt := range primaries {
		probe := ckpt.Fork()
		start := probe.Instructions()
		probe.StopBefore(&r.SecondAt)
		if res := probe.Run(); res.Term.Kind != vm.TermPaused || diverged(probe) {
			continue // this path does not reach the second access on the recorded schedule
		}
		gap := max(probe.Instructions()-start, 1000)
		for i := 0; i < opts.Ma; i++ {
			post := postSchedule{plan: sched.PostRacePlan(opts.Ma, opts.Seed), i: i}
			primary, alt, err := runPair(ckpt.Fork(), ckpt.Fork(), r, opts, post, gap, cfg.MaxInstructions)
			if err != nil {
				if j == 0 && i == 0 {
					return v.singleOrdering(err)
				}
				continue
			}
			if v.judge(judging{model: opts.Model, sym: sym, cfg: cfg}, primary, alt) {
				v.Stage = fmt.Sprintf("multipath (primary path %d of %d, post-race schedule %d of %d)", j+1, len(primaries), i+1, opts.Ma)
				return v
			}
			v.K++
		}
	}
	v.Category = Harmless
	v.Reason = fmt.Sprintf("both orders agreed on %d path/schedule combinations (%d primary paths x %d post-race schedules), outputs compared as terms",
		v.K, len(primaries), opts.Ma)
	return v
}

func diverged(m *vm.Machine) bool {
	rp, ok := m.Policy().(*sched.ReplayPrefix)
	return ok && rp.Diverged()
}
