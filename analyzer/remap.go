package analyzer

import (
	"regexp"

	"augur/analyzer/classify"
	"augur/analyzer/ir"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/symex"
	"augur/analyzer/vm"
)

// Remap returns a copy of the result for a program whose code is the same
// as the analyzed one's and whose locations m maps (ir.MapLocs): a save
// that only moved comments, blank lines or formatting. Every location in
// races, verdicts, schedules and failures is moved; the evidence of
// harmful races is written again, since it names the sources' new
// contents. The receiver is left unchanged.
func (res *Result) Remap(m *ir.LocMap) *Result {
	r := &remapper{m: m, strs: map[string]string{}}
	for a, b := range m.Locs {
		r.strs[a.String()] = b.String()
	}
	out := *res
	det := *res.Detection
	out.Detection = &det
	races := map[*race.Race]*race.Race{}
	mapRaces := func(rs []*race.Race) []*race.Race {
		o := make([]*race.Race, len(rs))
		for i, x := range rs {
			if races[x] == nil {
				races[x] = r.race(x)
			}
			o[i] = races[x]
		}
		return o
	}
	det.Races = mapRaces(res.Detection.Races)
	out.Races = mapRaces(res.Races)
	out.Ignored = mapRaces(res.Ignored)
	det.Failures = make([]*race.Failure, len(res.Detection.Failures))
	for i, f := range res.Detection.Failures {
		g := *f
		g.Loc, g.Stack, g.Threads, g.Trace = m.Loc(f.Loc), r.stack(f.Stack), r.threads(f.Threads), r.trace(f.Trace)
		g.Message = r.text(f.Message)
		det.Failures[i] = &g
	}
	det.Inversions = make([]*race.Inversion, len(res.Detection.Inversions))
	for i, inv := range res.Detection.Inversions {
		c := *inv
		c.First, c.Second = r.endpoints(inv.First), r.endpoints(inv.Second)
		det.Inversions[i] = &c
	}
	out.Verdicts = make([]*classify.Verdict, len(res.Verdicts))
	for i, v := range res.Verdicts {
		if v != nil {
			out.Verdicts[i] = r.verdict(v, out.Races[i])
		}
	}
	if ex := res.Exploration; ex != nil {
		e := *ex
		e.Failures = make([]*symex.Path, len(ex.Failures))
		for i, p := range ex.Failures {
			q := *p
			q.Term = r.term(p.Term)
			e.Failures[i] = &q
		}
		out.Exploration = &e
	}
	out.Evidence = make([]string, len(res.Evidence))
	out.Warnings = append([]string(nil), res.Warnings...)
	for i := range out.Verdicts {
		path, err := out.writeEvidence(i)
		if err != nil {
			out.Warnings = append(out.Warnings, "evidence for race "+out.Races[i].ID+": "+err.Error())
		}
		out.Evidence[i] = path
	}
	return &out
}

// remapper moves the locations of one result.
type remapper struct {
	m    *ir.LocMap
	strs map[string]string // the same map for locations written as text (schedules)
}

// locText matches a location written into a message: file:line:col.
var locText = regexp.MustCompile(`[^\s():,]+:\d+:\d+`)

// text moves the locations a message mentions ("double free of heap
// object allocated at a.c:12:8").
func (r *remapper) text(s string) string {
	return locText.ReplaceAllStringFunc(s, func(l string) string {
		if n, ok := r.strs[l]; ok {
			return n
		}
		return l
	})
}

func (r *remapper) race(x *race.Race) *race.Race {
	y := *x
	y.First, y.Second = r.endpoint(x.First), r.endpoint(x.Second)
	y.FirstAt, y.SecondAt = r.point(x.FirstAt), r.point(x.SecondAt)
	y.SecondLoc = r.m.ID(x.SecondLoc)
	y.Trace = r.trace(x.Trace)
	return &y
}

func (r *remapper) endpoint(e race.Endpoint) race.Endpoint {
	e.Loc = r.m.Loc(e.Loc)
	e.Stack = r.stack(e.Stack)
	return e
}

func (r *remapper) endpoints(es []race.Endpoint) []race.Endpoint {
	out := make([]race.Endpoint, len(es))
	for i, e := range es {
		out[i] = r.endpoint(e)
	}
	return out
}

func (r *remapper) point(p vm.StopPoint) vm.StopPoint {
	p.Loc = r.m.ID(p.Loc)
	return p
}

func (r *remapper) stack(st []vm.StackFrame) []vm.StackFrame {
	if st == nil {
		return nil
	}
	out := make([]vm.StackFrame, len(st))
	for i, f := range st {
		out[i] = vm.StackFrame{Function: f.Function, Loc: r.m.Loc(f.Loc)}
	}
	return out
}

func (r *remapper) threads(ts map[int][]vm.StackFrame) map[int][]vm.StackFrame {
	if ts == nil {
		return nil
	}
	out := make(map[int][]vm.StackFrame, len(ts))
	for id, st := range ts {
		out[id] = r.stack(st)
	}
	return out
}

func (r *remapper) trace(t *sched.Trace) *sched.Trace {
	if t == nil {
		return nil
	}
	return t.MapLocs(func(s string) string {
		if n, ok := r.strs[s]; ok {
			return n
		}
		return s
	})
}

func (r *remapper) term(t *vm.Termination) *vm.Termination {
	if t == nil {
		return nil
	}
	u := *t
	u.Loc, u.Stack, u.Threads = r.m.Loc(t.Loc), r.stack(t.Stack), r.threads(t.Threads)
	u.Message = r.text(t.Message)
	return &u
}

func (r *remapper) outputs(evs []vm.OutputEvent) []vm.OutputEvent {
	out := make([]vm.OutputEvent, len(evs))
	for i, e := range evs {
		e.Stack = r.stack(e.Stack)
		out[i] = e
	}
	return out
}

func (r *remapper) verdict(v *classify.Verdict, x *race.Race) *classify.Verdict {
	w := *v
	w.Race = x
	w.Reason = r.text(v.Reason)
	w.Failure = r.term(v.Failure)
	w.Outputs = [2][]vm.OutputEvent{r.outputs(v.Outputs[0]), r.outputs(v.Outputs[1])}
	w.Trace = r.trace(v.Trace)
	w.Points = [2]vm.StopPoint{r.point(v.Points[0]), r.point(v.Points[1])}
	w.Actions = make([]classify.Action, len(v.Actions))
	for i, a := range v.Actions {
		w.Actions[i] = classify.Action{At: r.point(a.At), Do: a.Do}
	}
	return &w
}
