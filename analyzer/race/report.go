package race

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"augur/analyzer/ir"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// Endpoint is one side of a race: an access with its thread and stack.
type Endpoint struct {
	Thread   int
	Kind     vm.AccessKind
	Loc      ir.Loc
	Function string
	FuncLine int             // first line of Function, for position-independent identity
	Stack    []vm.StackFrame // innermost first
}

// KindName is "read", "write", "atomic read", "atomic write", "atomic
// read-modify-write" or "free".
func (e Endpoint) KindName() string { return kindNames[e.Kind] }

var kindNames = map[vm.AccessKind]string{vm.Read: "read", vm.Write: "write", vm.AtomicRead: "atomic read",
	vm.AtomicWrite: "atomic write", vm.AtomicRMW: "atomic read-modify-write", vm.Free: "free"}

// Race is a distinct data race: an unordered pair of access sites on the
// same object, with the number of times it was seen.
type Race struct {
	ID        string
	Object    string // how a developer names the memory
	Offset    uint64 // offset of the first racing byte in the object
	Size      uint64 // bytes of the later access
	ObjSize   uint64
	First     Endpoint // the earlier access
	Second    Endpoint // the access that revealed the race
	Instances int
	// FirstAt and SecondAt are where the two accesses of the first instance
	// happened, as points that replay under any schedule; Trace is the
	// schedule of the execution that found it (with Args, its input).
	FirstAt, SecondAt vm.StopPoint
	// SecondLoc is the instruction location of the second access, for
	// finding it again in another order.
	SecondLoc ir.LocID
	Trace     *sched.Trace
}

// pairKey identifies a race within one execution: both endpoints,
// unordered, each as its source line and call stack. The load and the store
// of `x++` share a line, so a statement racing with itself is one race.
type pairKey struct {
	a, b lineSite
}

type lineSite struct {
	file  string
	line  int
	stack vm.StackID
}

func orderedPair(x, y lineSite) pairKey {
	if x.file > y.file || (x.file == y.file && (x.line > y.line || (x.line == y.line && x.stack > y.stack))) {
		x, y = y, x
	}
	return pairKey{x, y}
}

func (d *Detector) lineSite(s vm.Site) lineSite {
	loc := d.m.Program().Loc(s.Loc)
	return lineSite{loc.File, loc.Line, s.Stack}
}

// report records a race between the current access a (at byte off) and an
// earlier access by thread prevThread at prevSite.
func (d *Detector) report(a *vm.Access, off uint64, prevThread int, prevSite vm.Site, prevKind vm.AccessKind, prevCount uint64) {
	for _, s := range d.reportedNow {
		if s == prevSite {
			return
		}
	}
	d.reportedNow = append(d.reportedNow, prevSite)
	key := orderedPair(d.lineSite(a.Site), d.lineSite(prevSite))
	if r, ok := d.found[key]; ok {
		r.Instances++
		// Classification replays one instance; prefer one where data flows
		// through the race (a write, then a read of it): that is the order
		// ad hoc synchronization depends on.
		if !a.Kind.IsWrite() && prevKind.IsWrite() && r.Second.Kind.IsWrite() {
			r.First, r.Second = d.endpoint(prevThread, prevKind, prevSite), d.endpoint(a.Thread, a.Kind, a.Site)
			r.FirstAt = vm.StopPoint{Thread: prevThread, Count: prevCount}
			r.SecondAt = vm.StopPoint{Thread: a.Thread, Count: a.Count}
			r.SecondLoc = a.Site.Loc
		}
		return
	}
	r := &Race{
		Object:    describeObject(d.m, a.Obj, off),
		Offset:    off,
		Size:      a.Size,
		ObjSize:   a.Obj.Size,
		First:     d.endpoint(prevThread, prevKind, prevSite),
		Second:    d.endpoint(a.Thread, a.Kind, a.Site),
		Instances: 1,
		FirstAt:   vm.StopPoint{Thread: prevThread, Count: prevCount},
		SecondAt:  vm.StopPoint{Thread: a.Thread, Count: a.Count},
		SecondLoc: a.Site.Loc,
	}
	r.ID = StableID(r)
	d.found[key] = r
	d.order = append(d.order, r)
}

func (d *Detector) endpoint(thread int, kind vm.AccessKind, site vm.Site) Endpoint {
	ep := Endpoint{Thread: thread, Kind: kind}
	if d.m != nil {
		ep.Stack = d.m.Stack(site)
		ep.Loc = d.m.Program().Loc(site.Loc)
	}
	if len(ep.Stack) > 0 {
		ep.Function = ep.Stack[0].Function
		if fn := d.m.Program().Func(ep.Function); fn != nil {
			ep.FuncLine = fn.Loc.Line
		}
	}
	return ep
}

// Races returns the distinct races found, in the order they were found.
func (d *Detector) Races() []*Race { return d.order }

// describeObject names memory the way a developer would.
func describeObject(m *vm.Machine, o *vm.Object, off uint64) string {
	at := ""
	if o.Site != 0 && m != nil {
		l := m.Program().Loc(o.Site)
		at = fmt.Sprintf(" allocated at %s:%d", filepath.Base(l.File), l.Line)
	}
	field := ""
	if off != 0 {
		field = fmt.Sprintf("+%d", off)
	}
	switch o.Kind {
	case vm.ObjGlobal:
		return o.Name + field
	case vm.ObjTLS:
		return "thread-local " + o.Name + field
	case vm.ObjHeap:
		return fmt.Sprintf("heap object%s (%d bytes, offset %d)", at, o.Size, off)
	case vm.ObjStack:
		return fmt.Sprintf("stack object%s (%d bytes, offset %d)", at, o.Size, off)
	}
	return fmt.Sprintf("%s object (offset %d)", o.Kind, off)
}

// StableID is a race's identity across runs and edits: a hash of its two
// endpoints, each described by the functions on its stack and its line
// relative to the start of its function. Editing other
// functions, or inserting lines above the racing ones, leaves it unchanged.
func StableID(r *Race) string { return pairID(endpointKey(r.First), endpointKey(r.Second)) }

// pairID hashes an unordered pair of keys into a short identifier.
func pairID(a, b string) string {
	if a > b {
		a, b = b, a
	}
	h := sha256.Sum256([]byte(a + "\x00" + b))
	return hex.EncodeToString(h[:6])
}

func endpointKey(e Endpoint) string {
	var fns []string
	for _, f := range e.Stack {
		fns = append(fns, f.Function)
	}
	return fmt.Sprintf("%s|%d", strings.Join(fns, "<"), e.Loc.Line-e.FuncLine)
}

// Merge combines the races of several executions by stable id, adding up
// instances; the result is sorted by the first endpoint's position.
func Merge(runs ...[]*Race) []*Race {
	byID := map[string]*Race{}
	var out []*Race
	for _, rs := range runs {
		for _, r := range rs {
			if x, ok := byID[r.ID]; ok {
				x.Instances += r.Instances
				continue
			}
			c := *r
			byID[r.ID] = &c
			out = append(out, &c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].First.Loc, out[j].First.Loc
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return out[i].ID < out[j].ID
	})
	return out
}
