package race

import (
	"fmt"
	"strings"

	"augur/analyzer/exec/sched"
)

// Races another detector reported (ThreadSanitizer's, read by
// analyzer/detect/tsan) come in as pairs of access locations, Options.External.
// Each that the plan did not find already gets a race-directed execution
// of its own, before the plan's candidates, and its locations are
// preemption points of the exploration from the first schedule on; a race
// found so is the analysis's own race, classified like any other.

// ByExternal is an execution directed at a race another detector reported.
const ByExternal Technique = "external-directed"

// ExternalRun is what detection did with one external race.
type ExternalRun struct {
	ID string
	// Ran is set when it got a directed execution (not when the plan had
	// found the race already, nor when the time budget ran out first);
	// Met when one brought the two accesses together. Inputs counts the
	// explored inputs (Options.Inputs) it was also directed on, when the
	// analysis's own did not bring them together.
	Ran, Met bool
	Inputs   int
}

// LinePair names a pair of statements by file and line, unordered: the
// identity of a race across detectors, whose columns and objects may
// differ.
func LinePair(a, b string) string {
	a, b = stripCol(a), stripCol(b)
	if b < a {
		a, b = b, a
	}
	return a + " / " + b
}

// stripCol turns "file:line:col" into "file:line".
func stripCol(loc string) string {
	if i := strings.LastIndexByte(loc, ':'); i >= 0 && strings.Count(loc, ":") >= 2 {
		return loc[:i]
	}
	return loc
}

// RaceLinePair is LinePair of a race's two accesses.
func RaceLinePair(r *Race) string {
	return LinePair(fmt.Sprintf("%s:%d", r.First.Loc.File, r.First.Loc.Line), fmt.Sprintf("%s:%d", r.Second.Loc.File, r.Second.Loc.Line))
}

// external runs the directed execution of each external race the
// executions so far have not found: on the analysis's inputs, then, while
// the two accesses have not met (the path to one needs other inputs), on
// each explored input whose plan ran in full (the inputs' exploration
// found the paths; on one that ran out of its budget or kept one thread
// a directed run would do the same).
func (d *detection) external() error {
	found := map[string]bool{}
	for _, rs := range d.races {
		for _, r := range rs {
			found[RaceLinePair(r)] = true
		}
	}
	done := map[string]bool{}
	for _, c := range d.opts.External {
		if done[c.ID] {
			continue
		}
		done[c.ID] = true
		run := ExternalRun{ID: c.ID}
		if found[LinePair(c.A, c.B)] || d.stop {
			d.res.External = append(d.res.External, run)
			continue
		}
		for i, in := range d.runInputs() {
			if run.Met || found[LinePair(c.A, c.B)] || d.stop {
				break
			}
			if i > 0 {
				run.Inputs++
			}
			cfg := in.Apply(d.opts.Run)
			pol := sched.NewDirected(c.A, c.B)
			cfg.Policy, cfg.PreemptAccesses = pol, true
			d.total++
			res, err := d.run(cfg, "directed at "+c.A+" / "+c.B+" (reported by another detector)", ByExternal, in)
			if err != nil {
				return err
			}
			run.Ran = run.Ran || res != nil
			run.Met = run.Met || pol.Met > 0
			if res != nil {
				for _, r := range d.races[len(d.races)-1] {
					found[RaceLinePair(r)] = true
				}
			}
		}
		d.res.External = append(d.res.External, run)
	}
	return nil
}
