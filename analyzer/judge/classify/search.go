package classify

import (
	"fmt"
	"sort"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// The harm search: a race whose Ma post-race schedules showed no harm is
// tried under a few more, each PCT over the accesses detection's
// exploration switched at and the race's own (Options.Focus), the points
// where a bug that needs a particular interleaving after the race lives
// (an ABA between a read and a compare-and-swap, a second check-then-act).
// Only a failure decides there: an order that fails where the other,
// under the same post-race schedule, does not fail the same way makes the
// race spec-violated, with that schedule as its evidence. A failure both
// orders reach is the program's, not the race's consequence, and output
// is not compared (random schedules after the race already do).

// DefaultSearch is how many harm-search pairs a race gets when
// Options.Search is 0.
const DefaultSearch = 4

// searchSchedule is the post-race schedule of one harm-search pair.
type searchSchedule struct {
	seed         uint64
	depth, steps int
	focus        []string
	// yield makes the thread that stands where the schedule starts give
	// way first: a switch right after a racing access, where no
	// preemption point is (an unlock follows a plain write with none
	// between), is where a free by another thread lands before it.
	yield bool
	// alone is set for the one possible order of a race searched alone.
	alone bool
}

// backToBack implements backToBack: both orders of a harm-search pair
// start the search where both accesses are made, with the first thread
// to go on, so that its schedule falls at the same places in both.
func (s searchSchedule) backToBack() bool { return true }

// apply switches m to PCT over the search's points from here on: drawn
// from places (sched.KeyedPCT) for a pair, whose two orders must make the
// same choices; plain PCT for the one possible order alone.
func (s searchSchedule) apply(m *vm.Machine) []Action {
	spec := &sched.Spec{Policy: "keyed-pct", Seed: s.seed, Depth: s.depth, Steps: s.steps}
	if s.yield || s.alone {
		spec.Policy = "pct"
	}
	switchTo(m, spec)
	m.SetPreemptAt(s.focus)
	cur := m.Current()
	at := vm.StopPoint{Thread: cur, Count: m.ThreadCount(cur)}
	actions := []Action{{At: at, Do: "preempt-at", Locs: s.focus}}
	if s.yield {
		m.Yield()
		actions = append(actions, Action{At: at, Do: "yield"})
	}
	return actions
}

// searchFocus are the harm search's points for r: Options.Focus and r's
// own two accesses, sorted.
func searchFocus(r *race.Race, focus []string) []string {
	set := map[string]bool{r.First.Loc.String(): true, r.Second.Loc.String(): true}
	for _, l := range focus {
		set[l] = true
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// harmSearchStarts, set by tests only, is called as a harm search
// starts: a budget that runs out there is one no test could time.
var harmSearchStarts func()

// searchHarm runs the harm search from the pre-race checkpoint and
// returns the spec-violated verdict it found, or nil. When the alternate
// order cannot be enforced (c.single), it searches the recorded order
// alone.
func (c *path) searchHarm() *Verdict {
	opts, r, s := c.opts, c.r, c.setup
	if opts.Search < 0 || opts.Model == memmodel.Weak {
		return nil
	}
	if harmSearchStarts != nil {
		harmSearchStarts()
	}
	n := opts.Search
	if n == 0 {
		n = DefaultSearch
	}
	focus := searchFocus(r, opts.Focus)
	steps := max(r.Trace.Len(), 16)
	// The one possible order of a race whose other order cannot be
	// enforced is searched from right after its first access, half of its
	// schedules switching threads there (runPrimaryOnly).
	alone := c.single != nil
	pairs := newPairRunner(s, r, opts, n, func(j int) postRace {
		return searchSchedule{seed: opts.Seed + 7_000_003 + uint64(j), depth: 2 + j%2, steps: steps, focus: focus, yield: alone && j%2 == 0,
			alone: alone}
	})
	pairs.alone = alone
	defer pairs.stop()
	for j := 0; j < n; j++ {
		if t := opts.Run.Expired(); t != nil {
			c.v.cutBy(t, fmt.Sprintf("the harm search ran %d of its %d PCT schedules", j, n))
			break
		}
		primary, alt, err := pairs.get(j)
		c.searched++
		stage := fmt.Sprintf("harm search (PCT post-race schedule %d of %d over %d points)", j+1, n, len(focus))
		if t := cutTerm(primary, alt, err); t != nil {
			// A run the budget stopped shows neither harm nor its absence.
			c.v.cutBy(t, fmt.Sprintf("the harm search's PCT schedule %d of %d did not finish", j+1, n))
			continue
		}
		if err != nil {
			if c.single == nil {
				continue
			}
			if w := c.primaryAlone(primary, "harm search", fmt.Sprintf("PCT post-race schedule %d of %d over %d points", j+1, n, len(focus))); w != nil {
				return w
			}
			continue
		}
		if !failed(primary) && !failed(alt) || sameFailure(primary, alt) {
			continue
		}
		w := *c.v
		if w.judge(judging{model: opts.Model}, primary, alt) && w.Category == SpecViolated && c.holds(&w) {
			w.Stage = stage
			w.Reason = fmt.Sprintf("the post-race schedules showed no harm, the harm search's PCT schedule %d (switching at %d points) did: %s",
				j+1, len(focus), w.Reason)
			return &w
		}
	}
	return nil
}

// cutTerm is the termination of a pair's run that the analysis's own
// budget stopped, or nil (err: the alternate could not be enforced, so
// only the primary ran).
func cutTerm(primary, alt outcome, err error) *vm.Termination {
	if t := primary.res.Term; stopped(t) {
		return t
	}
	if err == nil && stopped(alt.res.Term) {
		return alt.res.Term
	}
	return nil
}

// failed reports whether an order's run failed (not an exit, not a stop
// of the analysis's own).
func failed(o outcome) bool {
	t := o.res.Term
	return t.Kind != vm.TermExit && !stopped(t)
}

// sameFailure reports whether both orders failed in the same way at the
// same place. A hang is caught at whichever instruction of its loop the
// watch saw it come back: its line is the place. The way is the kind of
// termination, and for a crash what its message says went wrong (the
// text before the first colon, the details after it being addresses and
// sizes): at one load, a use after free in one order (another race's
// free came first) and a null pointer dereference in the other (this
// race's store of NULL came first) are two failures, and the second is
// this race's.
func sameFailure(a, b outcome) bool {
	return failed(a) && failed(b) && sameTermination(a.res.Term, b.res.Term)
}

// sameTermination reports whether two failures are the same way at the
// same place (sameFailure).
func sameTermination(s, t *vm.Termination) bool {
	if s.Kind != t.Kind {
		return false
	}
	if s.Kind == vm.TermCrash && (failureClass(s.Message) != failureClass(t.Message) || (s.Freed == nil) != (t.Freed == nil)) {
		return false
	}
	if s.Kind == vm.TermHang {
		return s.Loc.File == t.Loc.File && s.Loc.Line == t.Loc.Line
	}
	return s.Loc == t.Loc
}

// failureClass is what a termination's message says went wrong: its text
// up to the first colon ("use after free", "null pointer dereference").
func failureClass(msg string) string {
	class, _, _ := strings.Cut(msg, ":")
	return class
}
