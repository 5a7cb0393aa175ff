package race

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/internal/bytesize"
	"augur/internal/memo"
)

// Endpoint is one side of a race: an access with its thread and stack.
type Endpoint struct {
	Thread   int             `json:"thread"`
	Kind     vm.AccessKind   `json:"kind"`
	Loc      ir.Loc          `json:"loc"`
	Function string          `json:"function"`
	FuncLine int             `json:"func_line"` // first line of Function, for position-independent identity
	Stack    []vm.StackFrame `json:"stack"`     // innermost first
	// Locks are the mutexes the thread held at the access, named as
	// DescribeAddr names them (a global's name), in address order.
	Locks []string `json:"locks,omitempty"`
	// LockedAt are where the thread took each of Locks (the call's
	// stack, innermost first), the first time it held them together.
	LockedAt [][]vm.StackFrame `json:"locked_at,omitempty"`
	// Call is the synchronization call whose access this is
	// (pthread_mutex_lock, pthread_cond_destroy), "" for the program's
	// own accesses. libc counts a use of a synchronization object as a
	// read of its first byte and a destroy as a write (libc's useObject),
	// so "read" and "write" say what the detector saw, and the call says
	// what the program did. The analyzer sets it from the source text at
	// the access (analyzer.nameRaces).
	Call string `json:"call,omitempty"`
}

// KindName is "read", "write", "atomic read", "atomic write", "atomic
// read-modify-write" or "free".
func (e Endpoint) KindName() string { return kindNames[e.Kind] }

var kindNames = map[vm.AccessKind]string{vm.Read: "read", vm.Write: "write", vm.AtomicRead: "atomic read",
	vm.AtomicWrite: "atomic write", vm.AtomicRMW: "atomic read-modify-write", vm.Free: "free"}

// Race is a distinct data race: an unordered pair of access sites on the
// same object, with the number of times it was seen.
type Race struct {
	ID string `json:"id"`
	// Object is how a developer names the memory: the expression the
	// source spells it by at an access (`pool->queue.len`, `stats.count`;
	// see analyzer's nameRaces), or, where no source text names it, its
	// description (Memory).
	Object string `json:"object" loc:"text"`
	// Memory describes the memory as the machine saw it: a global's name
	// and offset, or an allocated object's kind, allocation site and size
	// ("heap object allocated at pool.c:151 (176 bytes, offset 168)").
	Memory string `json:"memory,omitempty" loc:"text"`
	// ObjectKey names the memory for the race's identity: stable across
	// runs and edits (see StableID).
	ObjectKey string `json:"object_key"`
	Offset    uint64 `json:"offset"` // offset of the first racing byte in the object
	Size      uint64 `json:"size"`   // bytes of the later access
	ObjSize   uint64 `json:"object_size"`
	// Allocated is where a heap or stack object was allocated (nil for
	// globals), for an editor to point at.
	Allocated *ir.Loc `json:"allocated,omitempty"`
	Instances int     `json:"instances"`
	// Instance is the occurrence the race is reported and first
	// classified with.
	Instance
	// Alternates are other occurrences of the race, from other
	// executions (other schedules, inputs or techniques), at most
	// MaxAlternates: classification tries them when the first shows no
	// harm, since one occurrence of a race can be harmless where another
	// is not.
	Alternates []Instance `json:"alternates,omitempty"`
}

// Instance is one occurrence of a race, with what it takes to replay it.
type Instance struct {
	First  Endpoint `json:"first"`  // the earlier access
	Second Endpoint `json:"second"` // the access that revealed the race
	// FirstAt and SecondAt are where the two accesses happened, as points
	// that replay under any schedule; Trace is the schedule of the
	// execution that found it.
	FirstAt  vm.StopPoint `json:"first_at"`
	SecondAt vm.StopPoint `json:"second_at"`
	// SecondLoc is the instruction location of the second access, for
	// finding it again in another order.
	SecondLoc ir.LocID     `json:"second_loc"`
	Trace     *sched.Trace `json:"trace"`
	// Inputs are the inputs of the execution that found it when they are
	// not the analysis's own (nil otherwise): Trace replays under them.
	Inputs *Inputs `json:"inputs,omitempty"`
	// Technique is how detection found it (see Technique).
	Technique Technique `json:"technique,omitempty"`
	// PreemptAccesses is set when the execution that found it switched
	// threads at shared accesses too (race-directed runs do): Trace
	// replays only with the same preemption points.
	PreemptAccesses bool `json:"preempt_accesses,omitempty"`
}

// FromPlan returns r with the occurrences the detection plan found (any
// technique but the bounded enumeration's and the exploration's, whose
// schedules depend on how long they ran), the first of them as its own;
// a race only they found keeps its first occurrence alone. Classifying
// it then gives the same verdict however long detection explored.
func (r *Race) FromPlan() *Race {
	var plan []Instance
	for i := 0; i <= len(r.Alternates); i++ {
		if inst := r.At(i).Instance; inst.Technique != ByEnumeration && inst.Technique != ByExplore {
			plan = append(plan, inst)
		}
	}
	c := *r
	if len(plan) == 0 {
		c.Alternates = nil
		return &c
	}
	c.Instance, c.Alternates = plan[0], plan[1:]
	return &c
}

// MaxAlternates bounds the other occurrences a race keeps.
const MaxAlternates = 2

// At returns the race as its i-th occurrence: 0 is its own, 1 to
// len(Alternates) the others. The copy keeps the race's identity.
func (r *Race) At(i int) *Race {
	c := *r
	if i > 0 {
		c.Instance = r.Alternates[i-1]
	}
	c.Alternates = nil
	return &c
}

// addAlternate keeps an occurrence as one of r's alternates when it is
// from another execution and there is room; otherwise it replaces the
// least telling one when it tells more: the accesses in the other order
// than r's (its primary is r's alternate, reached from another prefix)
// tell the most, then other inputs or another technique.
func (r *Race) addAlternate(in Instance) {
	if in.Trace == r.Trace {
		return
	}
	for _, a := range r.Alternates {
		if a.Trace == in.Trace {
			return
		}
	}
	if len(r.Alternates) < MaxAlternates {
		r.Alternates = append(r.Alternates, in)
		return
	}
	tells := func(x Instance) int {
		n := 0
		if x.First.Loc != r.First.Loc {
			n += 2
		}
		if x.Inputs != r.Inputs || x.Technique != r.Technique {
			n++
		}
		return n
	}
	least := 0
	for i, a := range r.Alternates {
		if tells(a) < tells(r.Alternates[least]) {
			least = i
		}
	}
	if tells(in) > tells(r.Alternates[least]) {
		r.Alternates[least] = in
	}
}

// pairKey identifies a race within one execution: both endpoints,
// unordered, each as its instruction's source location (file, line and
// column) and call stack, and the memory they race on, as the object it
// is (a global by name, a heap or stack object by its allocation site):
// `a++; b++;` on one line are two races, and the load and the store of
// `x++`, which share a location, make one.
type pairKey struct {
	a, b siteKey
	obj  objKey
}

type siteKey struct {
	loc   ir.LocID
	stack vm.StackID
}

// objKey names an object the same way in every execution.
type objKey struct {
	kind vm.ObjKind
	name string   // globals and thread-locals
	site ir.LocID // allocated objects
}

func objKeyOf(o *vm.Object) objKey {
	if o.Kind == vm.ObjHeap || o.Kind == vm.ObjStack {
		return objKey{kind: o.Kind, site: o.Site}
	}
	return objKey{kind: o.Kind, name: o.Name}
}

func orderedPair(x, y siteKey, obj objKey) pairKey {
	if x.loc > y.loc || (x.loc == y.loc && x.stack > y.stack) {
		x, y = y, x
	}
	return pairKey{x, y, obj}
}

// record records a race between the current access a (at byte off), made
// holding the locks ls, and an earlier access by thread prevThread at
// prevSite, made holding prevLS.
func (d *Detector) record(a *vm.Access, off uint64, prevThread int, prevSite vm.Site, prevKind vm.AccessKind, prevCount uint64, prevLS, ls uint32) {
	for _, s := range d.reportedNow {
		if s == prevSite {
			return
		}
	}
	d.reportedNow = append(d.reportedNow, prevSite)
	key := orderedPair(siteKey{a.Site.Loc, a.Site.Stack}, siteKey{prevSite.Loc, prevSite.Stack}, objKeyOf(a.Obj))
	if r, ok := d.found[key]; ok {
		r.Instances++
		// Classification replays one instance; prefer one where data flows
		// through the race (a write, then a read of it): that is the order
		// ad hoc synchronization depends on.
		if !a.Kind.IsWrite() && prevKind.IsWrite() && r.Second.Kind.IsWrite() {
			r.First, r.Second = d.endpoint(prevThread, prevKind, prevSite, prevLS), d.endpoint(a.Thread, a.Kind, a.Site, ls)
			r.FirstAt = vm.StopPoint{Thread: prevThread, Count: prevCount}
			r.SecondAt = vm.StopPoint{Thread: a.Thread, Count: a.Count}
			r.SecondLoc = a.Site.Loc
		}
		return
	}
	desc := describeObject(d.m, a.Obj, off)
	r := &Race{
		Object:    desc,
		Memory:    desc,
		ObjectKey: d.objectKey(a.Obj),
		Offset:    off,
		Size:      a.Size,
		ObjSize:   a.Obj.Size,
		Allocated: allocated(d.m, a.Obj),
		Instances: 1,
		Instance: Instance{
			First:     d.endpoint(prevThread, prevKind, prevSite, prevLS),
			Second:    d.endpoint(a.Thread, a.Kind, a.Site, ls),
			FirstAt:   vm.StopPoint{Thread: prevThread, Count: prevCount},
			SecondAt:  vm.StopPoint{Thread: a.Thread, Count: a.Count},
			SecondLoc: a.Site.Loc,
		},
	}
	r.ID = StableID(r)
	d.found[key] = r
	d.order = append(d.order, r)
}

func (d *Detector) endpoint(thread int, kind vm.AccessKind, site vm.Site, ls uint32) Endpoint {
	ep := Endpoint{Thread: thread, Kind: kind}
	if d.m != nil {
		ep.Stack = d.m.Stack(site)
		ep.Loc = d.m.Program().Loc(site.Loc)
		if ls != 0 {
			sites := d.lsSites[lsSite{thread, ls}]
			for i, k := range d.lsets[ls] {
				if k.Kind == vm.MutexKey {
					ep.Locks = append(ep.Locks, d.lockName(k))
					var at []vm.StackFrame
					if i < len(sites) && sites[i].Loc != 0 {
						at = d.m.Stack(sites[i])
					}
					ep.LockedAt = append(ep.LockedAt, at)
				}
			}
		}
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

// allocated is where o was allocated, when it is a heap or stack object
// whose site is known.
func allocated(m *vm.Machine, o *vm.Object) *ir.Loc {
	if m == nil || o.Site == 0 || (o.Kind != vm.ObjHeap && o.Kind != vm.ObjStack) {
		return nil
	}
	l := m.Program().Loc(o.Site)
	return &l
}

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
		return fmt.Sprintf("heap object%s (%s, offset %d)", at, bytesize.Count(o.Size), off)
	case vm.ObjStack:
		return fmt.Sprintf("stack object%s (%s, offset %d)", at, bytesize.Count(o.Size), off)
	}
	return fmt.Sprintf("%s object (offset %d)", o.Kind, off)
}

// objectKey describes an object the way a race's identity needs: a global
// by kind and name, an allocated object by the function that allocated it
// and the allocation's place relative to that function's start (so lines
// inserted above do not change it).
func (d *Detector) objectKey(o *vm.Object) string {
	if (o.Kind == vm.ObjHeap || o.Kind == vm.ObjStack) && d.m != nil && o.Site != 0 {
		prog := d.m.Program()
		l := prog.Loc(o.Site)
		if fn := prog.FuncAt(o.Site); fn != nil {
			return fmt.Sprintf("%s@%s:%s+%d:%d", o.Kind, filepath.Base(l.File), fn.Name, l.Line-fn.Loc.Line, l.Col)
		}
		return fmt.Sprintf("%s@%s:%d:%d", o.Kind, filepath.Base(l.File), l.Line, l.Col)
	}
	return o.Kind.String() + ":" + o.Name
}

// StableID is a race's identity across runs and edits: a hash of the
// memory it races on (ObjectKey) and its two endpoints, each described by
// its file's name, the functions on its stack, and its line (relative to
// the start of its function) and column. Editing other functions, or
// inserting lines above the racing ones, leaves it unchanged; two
// accesses on one line, or two objects, are two races.
func StableID(r *Race) string {
	return pairIDs.Get(pairText{endpointKey(r.First), endpointKey(r.Second), r.ObjectKey})
}

// pairText is what a stable id hashes: two endpoints' keys and the
// object's.
type pairText struct{ a, b, object string }

// pairIDs remembers the stable ids of races: every schedule finds the
// races it found before, and hashing their ids again was a tenth of the
// detection of a program with hundreds of races.
var pairIDs = memo.New(func(k pairText) string { return pairID(k.a, k.b, k.object) })

// pairID hashes an unordered pair of keys, after the parts they share
// (such as the object), into a short identifier.
func pairID(a, b string, shared ...string) string {
	if a > b {
		a, b = b, a
	}
	h := sha256.Sum256([]byte(strings.Join(append(shared, a, b), "\x00")))
	return hex.EncodeToString(h[:6])
}

// statementKey groups the races that are one statement racing with
// another on the same bytes, whichever instructions of them: the load and
// the store of `balance = balance + amount` (a write racing with a read,
// and with a write, at two columns) make one race, while `a++; b++;` (two
// objects) and `s.f++; s.g++;` (two fields) make two each.
func statementKey(r *Race) string {
	a, b := lineKey(r.First), lineKey(r.Second)
	if a > b {
		a, b = b, a
	}
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s", r.ObjectKey, r.Offset, a, b)
}

// lineKey is an endpoint's statement: its file, the functions on its
// stack and its line relative to the start of its function.
func lineKey(e Endpoint) string {
	var b strings.Builder
	writeLineKey(&b, e)
	return b.String()
}

// writeLineKey writes lineKey(e) to b. Every schedule finds the races it
// found before and names their endpoints again, so this does not format.
func writeLineKey(b *strings.Builder, e Endpoint) {
	b.WriteString(filepath.Base(e.Loc.File))
	b.WriteByte('|')
	for i, f := range e.Stack {
		if i > 0 {
			b.WriteByte('<')
		}
		b.WriteString(f.Function)
	}
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(e.Loc.Line - e.FuncLine))
}

// representsBetter orders the races of one statement: the one that
// stands for them is a write racing with a read (data flows through it,
// which is the order ad hoc synchronization depends on), then the one
// with the smallest id, so the choice is the same in every run.
func representsBetter(x, y *Race) bool {
	flows := func(r *Race) bool { return r.First.Kind.IsWrite() != r.Second.Kind.IsWrite() }
	if flows(x) != flows(y) {
		return flows(x)
	}
	return x.ID < y.ID
}

// endpointKey is an endpoint's instruction: its statement and column.
func endpointKey(e Endpoint) string {
	var b strings.Builder
	writeLineKey(&b, e)
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.Loc.Col))
	return b.String()
}

// Merge combines the races of several executions by stable id, adding up
// instances, then folds the races of one statement with itself into one
// (see statementKey); the result is sorted by the first endpoint's
// position.
func Merge(runs ...[]*Race) []*Race {
	byID := map[string]*Race{}
	var all []*Race
	for _, rs := range runs {
		for _, r := range rs {
			if x, ok := byID[r.ID]; ok {
				x.Instances += r.Instances
				x.addAlternate(r.Instance)
				continue
			}
			c := *r
			byID[r.ID] = &c
			all = append(all, &c)
		}
	}
	groups := map[string][]*Race{}
	var keys []string
	for _, r := range all {
		k := statementKey(r)
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	out := make([]*Race, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		earliest := g[0].Technique // the runs came in plan order
		sort.SliceStable(g, func(i, j int) bool { return representsBetter(g[i], g[j]) })
		rep := g[0]
		rep.Technique = earliest
		for _, r := range g[1:] {
			rep.Instances += r.Instances
			rep.addAlternate(r.Instance)
			for _, a := range r.Alternates {
				rep.addAlternate(a)
			}
		}
		out = append(out, rep)
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

// MarkerSites are the lines whose augur:ignore marker silences the race:
// each access's own, and for an access inside a library (libstdc++'s
// templates, augur's runtime) the program's innermost call into it, the
// line a developer can mark. An editor shows such an access there too.
func (r *Race) MarkerSites() []ir.Loc {
	return append(r.First.markerSites(), r.Second.markerSites()...)
}

func (e Endpoint) markerSites() []ir.Loc {
	if !vm.InLibrary(e.Loc.File) {
		return []ir.Loc{e.Loc}
	}
	for _, fr := range e.Stack {
		if !vm.InLibrary(fr.Loc.File) {
			return []ir.Loc{e.Loc, fr.Loc}
		}
	}
	return []ir.Loc{e.Loc}
}
