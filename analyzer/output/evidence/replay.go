package evidence

import (
	"fmt"

	"augur/analyzer/judge/classify"
	"path/filepath"
	"regexp"

	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Event is one thing a thread did that the timeline shows: a
// synchronization, a free, a racing access (with the value it read or
// wrote), or the failure that ended the run.
type Event struct {
	Thread   int
	Loc      ir.Loc
	Function string
	// Op says what happened, as a verb phrase: "creates thread 2",
	// "locks", "frees heap object ...", "reads", "writes", "fails".
	Op string
	// Value is what a racing access read or wrote, when it is a number.
	Value  string
	Racing int // 1 or 2 for the racing accesses, 0 otherwise
	Failed bool
	// Step is the event's number, from 1, over every event of the replay,
	// those not kept included.
	Step int
}

// maxEvents bounds the events a transcript keeps: a program that frees
// or locks in a loop would otherwise fill memory and the picture. Past
// it, the oldest events are dropped, but for the racing accesses.
const maxEvents = 2000

// Transcript is what a replay did.
type Transcript struct {
	// Events are what the threads did, in execution order.
	Events []Event
	// Starts are the threads' start functions (main for the main
	// thread), which name them: a thread is what it was started to do,
	// not the function it happens to be in at its first event shown.
	Starts map[int]string
	// Steps are the scheduling decisions and racing accesses, repetition
	// folded (Step).
	Steps      []Step
	Result     *vm.Result
	Reproduced bool
	Mismatch   string // why not, when not
}

// logger records scheduling decisions as steps while replaying.
type logger struct {
	sched.Policy
	steps *stepLog
	prog  *ir.Program
}

// Replays implements sched.Replaying for the replay l logs, so that the
// machine takes the settings of its trace (its preemption points, its lock
// quantum) as it does a replay's that is not logged.
func (l *logger) Replays() *sched.Trace {
	if r, ok := l.Policy.(sched.Replaying); ok {
		return r.Replays()
	}
	return nil
}

func (l *logger) Pick(p *sched.Point, runnable []int) (int, error) {
	next, err := l.Policy.Pick(p, runnable)
	if err == nil {
		l.steps.decision(l.prog, p.Thread, p.Loc, p.What, next)
	}
	return next, err
}

// marker marks the racing accesses as they happen, and records the
// events the timeline shows.
type marker struct {
	m      *vm.Machine
	points [2]vm.StopPoint
	// focus are the locations of the accesses the schedule preempted at
	// (sched.Trace.PreemptAt), indexed by LocID: a failure's timeline shows
	// them with their values, as they are where its threads interleave.
	focus  []bool
	steps  *stepLog
	events *[]Event
	starts map[int]string
	// ownStart marks the threads starts names by a function of the
	// program's own code (vm.StartFunction): until then a later event may
	// name the thread better.
	ownStart map[int]bool
	done     [2]bool
	// written is a racing write whose value is read back at the next
	// event: the monitor hears of a store before it happens.
	written *pendingWrite
	// count numbers the events (Event.Step), those dropped included.
	count int
}

type pendingWrite struct {
	event int
	addr  uint64
	size  uint64
}

func (k *marker) Access(a *vm.Access) {
	k.settle()
	if int(a.Site.Loc) < len(k.focus) && k.focus[a.Site.Loc] && a.Kind != vm.Free {
		k.access(a, 0)
		return
	}
	for i, p := range k.points {
		if !k.done[i] && a.Thread == p.Thread && p.Reached(a.Count, a.Site.Loc) {
			k.done[i] = true
			kind := "read"
			if a.Kind.IsWrite() {
				kind = "write"
			}
			k.steps.racing(Step{Thread: a.Thread, Loc: k.m.Program().Loc(a.Site.Loc),
				What: fmt.Sprintf("racing access %d: %s", i+1, kind), Racing: i + 1})
			k.access(a, i+1)
			return
		}
	}
	if a.Kind == vm.Free {
		k.event(a.Thread, a.Site, "frees the memory allocated at "+k.allocation(a.Obj))
	}
}

// access records an access with its value; n is its number among the
// racing accesses (0: it is not one).
func (k *marker) access(a *vm.Access, n int) {
	op := map[vm.AccessKind]string{vm.Read: "reads", vm.AtomicRead: "reads", vm.Write: "writes", vm.AtomicWrite: "writes",
		vm.Free: "frees"}[a.Kind]
	if op == "" {
		op = "updates"
	}
	i := k.event(a.Thread, a.Site, op)
	if i < 0 {
		return
	}
	(*k.events)[i].Racing = n
	addr := ir.Addr(a.Obj.ID, a.Off)
	switch a.Kind {
	case vm.Read, vm.AtomicRead:
		(*k.events)[i].Value = k.value(addr, a.Size)
	case vm.Write, vm.AtomicWrite:
		k.written = &pendingWrite{event: i, addr: addr, size: a.Size}
	}
}

// settle reads back the value of a racing write, which has happened by
// the time anything else does.
func (k *marker) settle() {
	if w := k.written; w != nil {
		k.written = nil
		(*k.events)[w.event].Value = k.value(w.addr, w.size)
	}
}

// value reads a number of size bytes at addr, as the program stored it.
func (k *marker) value(addr, size uint64) string {
	if size == 0 || size > 8 {
		return ""
	}
	b, err := k.m.Memory().Read(addr, size)
	if err != nil || uint64(len(b)) != size {
		return ""
	}
	v := ir.LoadLE(b, int(size))
	if n := int64(v); size == 8 && v>>ir.AddrShift != 0 && (n >= 0 || n < -1<<ir.AddrShift) {
		// An address (an object's id in its high bits); a small negative
		// number has them set too.
		return "a non-NULL pointer"
	}
	if size == 8 && v == 0 {
		return "0 (NULL)"
	}
	return fmt.Sprint(int64(v) << (64 - 8*size) >> (64 - 8*size))
}

// allocation names where o was allocated, for a free.
func (k *marker) allocation(o *vm.Object) string {
	if o == nil || o.Site == 0 {
		return "elsewhere"
	}
	l := k.m.Program().Loc(o.Site)
	return fmt.Sprintf("%s:%d", filepath.Base(l.File), l.Line)
}

// event appends an event of thread t at site and returns its index.
func (k *marker) event(t int, site vm.Site, op string) int {
	st := k.m.Stack(site)
	if !k.ownStart[t] {
		if fn, own := vm.StartFunction(st); fn != "" {
			k.starts[t], k.ownStart[t] = ir.ReadableName(fn), own
		}
	}
	k.makeRoom()
	k.count++
	e := Event{Thread: t, Loc: k.m.Program().Loc(site.Loc), Op: op, Step: k.count}
	if len(st) > 0 {
		e.Function = st[0].Function
	}
	// An event inside augur's runtime (a lock its pthread_mutex_lock
	// takes, in augur-runtime/libc) happens at the program's call into
	// it: that is the line the user wrote.
	for _, f := range st {
		if !vm.InRuntime(f.Loc.File) {
			e.Loc, e.Function = f.Loc, f.Function
			break
		}
	}
	*k.events = append(*k.events, e)
	return len(*k.events) - 1
}

// makeRoom drops the older half of the events when there are maxEvents,
// keeping the racing accesses: the steps that lead to the race and the
// end are the ones a reader needs. It is called with no write pending
// (settle), so no index held elsewhere moves.
func (k *marker) makeRoom() {
	evs := *k.events
	if len(evs) < maxEvents {
		return
	}
	from := len(evs) - maxEvents/2
	kept := evs[:0]
	for i, e := range evs {
		if i >= from || e.Racing != 0 {
			kept = append(kept, e)
		}
	}
	clear(evs[len(kept):])
	*k.events = kept
}

func (k *marker) Sync(ev vm.SyncEvent) {
	k.settle()
	var op string
	switch ev.Op {
	case vm.Fork:
		op = fmt.Sprintf("creates thread %d", ev.Other)
	case vm.JoinThread:
		op = fmt.Sprintf("joins thread %d", ev.Other)
	case vm.LockAcquired:
		op = "locks"
	case vm.LockReleased:
		op = "unlocks"
	case vm.Acquire:
		op = "waits for (acquires)"
	case vm.Release:
		op = "signals (releases)"
	default:
		return
	}
	// A lock sends Acquire with LockAcquired (and an unlock Release with
	// LockReleased): one event for the statement, the more telling one.
	if n := len(*k.events); n > 0 {
		last := &(*k.events)[n-1]
		if last.Thread == ev.Thread && last.Loc == k.m.Program().Loc(ev.Site.Loc) && last.Racing == 0 && !last.Failed {
			if ev.Op == vm.LockAcquired || ev.Op == vm.LockReleased {
				last.Op = op
			}
			return
		}
	}
	k.event(ev.Thread, ev.Site, op)
}

// failed ends the events with how the run ended, when it failed.
func (k *marker) failed(t *vm.Termination) {
	k.settle()
	if t.Kind == vm.TermExit || t.Kind == vm.TermPaused {
		return
	}
	k.count++
	e := Event{Thread: t.Thread, Loc: t.Loc, Op: fmt.Sprintf("%s: %s", t.Kind, t.Message), Failed: true, Step: k.count}
	if len(t.Stack) > 0 {
		e.Function = t.Stack[0].Function
	}
	*k.events = append(*k.events, e)
}

// Replay re-executes the evidence's execution of prog under lim (the
// caller's time and memory budgets) and checks its outcome.
func Replay(prog *ir.Program, ev *Evidence, lim vm.Limits) *Transcript {
	tr := &Transcript{Starts: map[int]string{}}
	cfg := vm.Config{Args: ev.Inputs.Argv, Clients: ev.Inputs.Clients, Env: ev.Inputs.Env, Stdin: []byte(ev.Inputs.Stdin), MaxInstructions: ev.Inputs.MaxInstructions,
		Inputs: ev.Inputs.Vars, Undefined: ev.Inputs.Undefined, PreemptAccesses: ev.Inputs.PreemptAccesses, Limits: lim,
		// The machine takes the trace's preemption points and lock
		// quantum from the replay (logger.Replays).
	}
	if len(ev.Inputs.Files) > 0 {
		cfg.Files = map[string][]byte{}
		for n, d := range ev.Inputs.Files {
			cfg.Files[n] = []byte(d)
		}
	}
	if ev.MemoryModel == memmodel.Weak {
		// Reads return the latest value but where the evidence says they
		// returned an older one.
		cfg.Weak = &vm.Weak{Choices: ev.WeakReads}
	}
	steps := &stepLog{}
	cfg.Policy = &logger{Policy: &sched.Replay{Trace: ev.Schedule}, steps: steps, prog: prog}
	mk := &marker{points: ev.Points, steps: steps, events: &tr.Events, starts: tr.Starts, ownStart: map[int]bool{}}
	if ev.Kind == KindFailure {
		// No racing accesses to mark (as if both were done already); the
		// accesses the schedule switched at instead.
		mk.done = [2]bool{true, true}
		mk.focus = prog.LocSet(ev.Schedule.PreemptAt)
	}
	cfg.Monitor = mk
	// The marker reads values and stacks through the machine.
	m, res, mismatch := classify.Reexecute(prog, cfg, ev.Actions, func(m *vm.Machine) { mk.m = m })
	tr.Steps = steps.rows
	if m == nil {
		tr.Mismatch = mismatch
		return tr
	}
	tr.Result = res
	if mismatch != "" {
		tr.Mismatch = mismatch
		return tr
	}
	mk.failed(tr.Result.Term)
	tr.check(ev)
	return tr
}

// sameMessage reports whether two failure messages say the same, whatever
// the paths they name the program's files by: the analysis names them as
// its command line did (often relative), the replay by absolute path.
func sameMessage(got, want string, files []string) bool {
	if got == want {
		return true
	}
	for _, f := range files {
		base := filepath.Base(f)
		re := regexp.MustCompile(`[^\s():'"` + "`" + `]*/` + regexp.QuoteMeta(base) + `\b`)
		got, want = re.ReplaceAllString(got, base), re.ReplaceAllString(want, base)
	}
	return got == want
}

// check compares the outcome with the evidence's.
func (tr *Transcript) check(ev *Evidence) {
	t := tr.Result.Term
	out, errOut := streams(tr.Result.Output)
	switch {
	case t.Kind.String() != ev.Expected.Termination:
		tr.Mismatch = fmt.Sprintf("ended in %s (%s), evidence says %s", t.Kind, t.Message, ev.Expected.Termination)
	case ev.Expected.Line != 0 && (t.Loc.Line != ev.Expected.Line || !sameMessage(t.Message, ev.Expected.Message, ev.Program.Files)):
		tr.Mismatch = fmt.Sprintf("failed at %s (%s), evidence says line %d (%s)", t.Loc, t.Message, ev.Expected.Line, ev.Expected.Message)
	case out != ev.Expected.Stdout || errOut != ev.Expected.Stderr:
		tr.Mismatch = "printed different output than the evidence records"
	case otherFile(tr.Result, ev.Expected.Files) != "":
		tr.Mismatch = fmt.Sprintf("left %s otherwise than the evidence records", otherFile(tr.Result, ev.Expected.Files))
	case ev.Kind != KindFailure && !tr.inOrder():
		tr.Mismatch = "the racing accesses did not happen in the order the evidence claims"
	default:
		tr.Reproduced = true
	}
}

// otherFile names the first of the files the evidence records that res
// did not leave as recorded ("" when it left them all so).
func otherFile(res *vm.Result, files []classify.File) string {
	for _, f := range files {
		if !classify.LeftAs(res, f) {
			return f.Name()
		}
	}
	return ""
}

// inOrder reports whether the replay made the racing accesses in the
// order the evidence claims: the first one first (the other may never
// come, the execution having ended before it).
func (tr *Transcript) inOrder() bool {
	for _, st := range tr.Steps {
		if st.Racing != 0 {
			return st.Racing == 1
		}
	}
	return false
}
