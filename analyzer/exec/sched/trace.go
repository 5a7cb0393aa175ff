package sched

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"

	"augur/internal/safefile"
)

// Event is one recorded decision.
type Event struct {
	Thread int    `json:"thread"` // who reached the point (-1: it exited or blocked)
	Loc    string `json:"loc"`
	What   string `json:"what"`
	// Insts is the global instruction count at the decision. It is
	// informational (replay checks Thread and Loc): inside a repeated
	// stretch of the trace it is extrapolated from the first repetitions.
	Insts uint64 `json:"insts"`
	Next  int    `json:"next"` // the thread chosen to run
}

// DefaultLimit is how many distinct events a trace stores before it stops
// recording (about 56 MiB; a group that ends may store up to maxPeriod
// more): repeated stretches cost nothing, so only a long schedule without
// repetition (a random one) reaches it.
const DefaultLimit = 1 << 20

// maxPeriod is the longest loop of decisions the trace folds into a
// repetition.
const maxPeriod = 4096

// run is a stretch of a trace: the events ev[lo:hi] occurring reps times in
// a row. stride is how far the instruction count moves per repetition.
type run struct {
	lo, hi int
	reps   int
	stride uint64
}

// Trace is the schedule of one execution: every scheduling decision in
// order. It is stored compactly: a stretch that repeats (a spin loop, the
// steady state of a producer and a consumer) is kept once with its count,
// and so is a stretch of such stretches that repeats (threads taking turns,
// each running its own loop for a while: a group, trace_groups.go), so a
// trace grows with what the schedule does new, not with how long it
// runs. A trace stores at most Limit distinct events; after that it stops
// recording and says so (Truncated), and a replay past that point
// diverges with a message that says why.
type Trace struct {
	Policy string
	Seed   uint64
	// PreemptAt are the locations (file:line:col) of the memory accesses
	// that were preemption points besides the synchronization operations
	// (vm.Config.PreemptAt): a replay must stop at the same points, so
	// the trace carries them.
	PreemptAt []string
	// PreemptAfterReads is vm.Config.PreemptAfterReads, which deepens
	// PreemptAt's points.
	PreemptAfterReads bool
	// LockQuantumAfter is vm.Config.LockQuantumAfter: from that many
	// decisions on, a thread that took a lock without waiting went on
	// (PassesLock), and a replay must pass the same points.
	LockQuantumAfter int
	// Limit caps the events stored (0: DefaultLimit).
	Limit int
	// Then, when set, made the execution's decisions after the recorded
	// ones: a replay makes it again there (Spec.Switch).
	Then *Spec

	// ev are the events stored, numbered in names (trace_names.go);
	// memo holds recent numbers.
	ev    []event
	names *names
	memo  [memoSlots]nameMemo
	runs  []run
	// n is how many decisions the trace holds; dropped how many were not
	// recorded once the limit was reached.
	n       int
	dropped int
	// stopped: the execution's decisions are Then's from here (Stop), and
	// are not recorded.
	stopped bool
	// While the last run repeats, partial holds the instruction counts
	// of the events of its next repetition seen so far: the events are
	// the run's body's (partialEvent), so a decision in a loop appends a
	// word rather than copying an event.
	partial []uint64
	// last maps a decision to its latest index in ev within the open
	// literal run; period is the candidate loop length the trace is
	// checking and match how many trailing events agree with it.
	last   map[eventKey]int
	period int
	match  int
	// keep is how many events of ev a fork shares: ev is copied before
	// one of them would be overwritten (see fold).
	keep int

	// groups are the repeated stretches of runs, in order; frozen is how
	// many runs lie in them or before them, which folding never extends.
	// While the last group is repeating (grouping), at is where the next
	// decision falls in its body.
	groups   []group
	frozen   int
	grouping bool
	at       groupPos
}

// NewTrace returns an empty trace of a policy and seed.
func NewTrace(policy string, seed uint64) *Trace { return &Trace{Policy: policy, Seed: seed} }

// Len returns the number of decisions recorded.
func (t *Trace) Len() int { return t.n }

// Dropped returns how many decisions were not recorded because the trace
// reached its limit.
func (t *Trace) Dropped() int { return t.dropped }

// Truncated reports whether the trace stopped recording at its limit.
func (t *Trace) Truncated() bool { return t.dropped > 0 }

// Stop ends the recording: the decisions after it are neither stored nor
// counted, as Then makes them, which a replay makes again instead of
// following them.
func (t *Trace) Stop() { t.stopped = true }

// Stored returns how many events the trace keeps in memory.
func (t *Trace) Stored() int { return len(t.ev) + len(t.partial) }

// Bytes estimates the memory the trace holds.
func (t *Trace) Bytes() uint64 {
	return uint64(cap(t.ev))*24 + uint64(cap(t.partial))*8 + uint64(cap(t.runs))*32 + uint64(len(t.last))*40 +
		uint64(cap(t.groups))*32
}

func (t *Trace) limit() int {
	if t.Limit > 0 {
		return t.Limit
	}
	return DefaultLimit
}

// Record appends a decision.
func (t *Trace) Record(p *Point, next int) {
	t.Append(Event{Thread: p.Thread, Loc: p.Loc, What: p.What, Insts: p.Insts, Next: next})
}

// Append adds one event at the end of the trace.
func (t *Trace) Append(e Event) {
	if t.stopped {
		return
	}
	if t.dropped > 0 {
		t.dropped++
		return
	}
	// Most decisions go on with a loop the trace holds: compared with its
	// next event as they come, they need no packing.
	if t.grouping {
		if t.is(t.groupNext(), &e) {
			t.groupAdvance()
			t.n++
			return
		}
	} else if r := t.repeating(); r != nil && t.is(&t.ev[r.lo+len(t.partial)], &e) {
		t.repeatAdvance(r, e.Insts)
		return
	}
	t.add(t.pack(e))
}

// is reports whether the stored event x is the decision e.
func (t *Trace) is(x *event, e *Event) bool {
	return x.key.thread == int32(e.Thread) && x.key.next == int32(e.Next) && t.names.text(x.key.loc) == e.Loc &&
		t.names.text(x.key.what) == e.What
}

// repeating returns the last run while it repeats (the next decision
// may be its next repetition's), or nil.
func (t *Trace) repeating() *run {
	if k := len(t.runs); k > t.frozen && t.runs[k-1].reps > 1 {
		return &t.runs[k-1]
	}
	return nil
}

// repeatAdvance records a decision that matched the next event of the
// repeating run r, at insts instructions.
func (t *Trace) repeatAdvance(r *run, insts uint64) {
	t.partial = append(t.partial, insts)
	t.n++
	if len(t.partial) == r.hi-r.lo {
		r.reps++
		t.partial = t.partial[:0]
	}
}

// add is Append of a stored event.
func (t *Trace) add(e event) {
	if t.dropped > 0 {
		t.dropped++
		return
	}
	if t.grouping {
		if t.groupNext().key == e.key {
			t.groupAdvance()
			t.n++
			return
		}
		if !t.endGroup() {
			t.dropped++ // e
			return
		}
	}
	if r := t.repeating(); r != nil {
		if t.ev[r.lo+len(t.partial)].key == e.key {
			t.repeatAdvance(r, e.insts)
			return
		}
		// The loop ended: what it matched of a repetition becomes literal.
		pend := make([]event, len(t.partial))
		for i := range pend {
			pend[i] = t.partialEvent(i)
		}
		t.partial = t.partial[:0]
		if t.groupRuns() {
			// The loop that ended closed a stretch of runs seen twice:
			// what followed it is the group's next repetition, or ends it.
			t.n -= len(pend)
			for _, x := range pend {
				t.add(x)
			}
			t.add(e)
			return
		}
		t.beginLiteral()
		for i, x := range pend {
			t.n--
			if !t.appendLiteral(x) {
				rest := len(pend) - i - 1 // counted as recorded, now dropped
				t.n -= rest
				t.dropped += rest + 1 // and e
				return
			}
		}
	}
	t.appendLiteral(e)
}

// partialEvent is the i-th event of the partial repetition of the last
// run.
func (t *Trace) partialEvent(i int) event {
	e := t.ev[t.runs[len(t.runs)-1].lo+i]
	e.insts = t.partial[i]
	return e
}

// beginLiteral opens a new literal run after a repeated one.
func (t *Trace) beginLiteral() {
	t.runs = append(t.runs, run{lo: len(t.ev), hi: len(t.ev), reps: 1})
	clear(t.last)
	t.period, t.match = 0, 0
}

// appendLiteral stores e at the end of the open literal run, folding the
// run's tail into a repetition when its last 2*period events are one
// stretch twice. It reports false once the limit stopped the recording.
func (t *Trace) appendLiteral(e event) bool {
	if len(t.ev) >= t.limit() {
		t.dropped++
		return false
	}
	if len(t.runs) <= t.frozen || t.runs[len(t.runs)-1].reps > 1 {
		t.beginLiteral()
	}
	r := &t.runs[len(t.runs)-1]
	i := len(t.ev)
	if i == cap(t.ev) {
		// Doubled, where append grows a long slice by a quarter and
		// copies it that much more often.
		t.ev = append(make([]event, 0, 2*i+64), t.ev...)
	}
	t.ev = append(t.ev, e)
	r.hi++
	t.n++
	key := e.key
	if t.last == nil {
		t.last = map[eventKey]int{}
	}
	// Does e continue the candidate loop?
	if t.period > 0 && i-t.period >= r.lo && t.ev[i-t.period].key == key {
		t.match++
	} else {
		t.period, t.match = 0, 0
		if j, ok := t.last[key]; ok && j >= r.lo && i-j <= maxPeriod {
			t.period, t.match = i-j, 1
		}
	}
	if len(t.last) >= 4*maxPeriod {
		clear(t.last) // older entries are farther back than any period
	}
	t.last[key] = i
	if t.period > 0 && t.match == t.period && i+1-2*t.period >= r.lo {
		t.fold()
	}
	return true
}

// fold turns the last 2*period events of the literal run into a run of
// one body repeated twice.
func (t *Trace) fold() {
	p := t.period
	r := &t.runs[len(t.runs)-1]
	end := len(t.ev)
	lo := end - 2*p
	stride := t.ev[end-p].insts - t.ev[lo].insts
	r.hi = lo
	if r.hi == r.lo {
		t.runs = t.runs[:len(t.runs)-1]
	}
	if end-p < t.keep {
		// The next append would overwrite events a fork still reads.
		t.ev = append(make([]event, 0, end-p+64), t.ev[:end-p]...)
		t.keep = 0
	} else {
		t.ev = t.ev[:end-p]
	}
	t.runs = append(t.runs, run{lo: lo, hi: end - p, reps: 2, stride: stride})
	clear(t.last)
	t.period, t.match = 0, 0
}

// Fork returns a copy of the trace. The events recorded so far are shared:
// neither side writes over them (appending past a full slice copies it, and
// fold copies before truncating into them); what either side changes in
// place, the runs, the partial repetition and the map of recent events,
// the copy gets its own of, so the trace that goes on recording copies
// nothing.
func (t *Trace) Fork() *Trace {
	c := t.share()
	c.last = maps.Clone(t.last)
	t.keep, c.keep = len(t.ev), len(t.ev)
	return c
}

// share returns a copy of the trace that shares the events recorded so
// far, which the copy cannot append over, and has its own of what either
// side changes in place, all but the map of recent events (Fork, settled).
func (t *Trace) share() *Trace {
	c := *t
	c.ev = t.ev[:len(t.ev):len(t.ev)]
	c.runs = slices.Clone(t.runs)
	c.partial = slices.Clone(t.partial)
	c.groups = slices.Clone(t.groups)
	c.last = nil
	return &c
}

// Cursor reads a trace's decisions in order. It is a value: copying it
// (a forked policy) copies the position.
type Cursor struct {
	t        *Trace
	run, rep int
	k        int // index in the run's body, or in partial after the runs
	i        int // decisions read
	// reps, when set, is how many repetitions of a repeated stretch the
	// cursor reads before it skips to the next stretch (CursorTwice).
	reps int
	// g is the next group the cursor enters or the one it is in (in),
	// grep the group's repetition it reads, gread how many of that
	// repetition's decisions it has read.
	g     int
	in    bool
	grep  int
	gread int
}

// Cursor returns a cursor at the first decision.
func (t *Trace) Cursor() Cursor { return Cursor{t: t} }

// CursorTwice returns a cursor at the first decision that reads each
// repeated stretch at most twice, skipping its later repetitions (Index
// counts only what it read). It serves a reader whose state is the latest
// event of each thread and whose findings depend on that state and the
// event alone (the exploration's interleaving coverage): a stretch's
// second repetition starts from the state its first left, and so does
// every later one, so they find nothing the second did not. The cost of
// such a pass follows what the trace stores, not how many decisions the
// execution made (4 million for parallel_sum 2000000 under round robin).
func (t *Trace) CursorTwice() Cursor { return Cursor{t: t, reps: 2} }

// Index returns how many decisions the cursor has read.
func (c *Cursor) Index() int { return c.i }

// Next returns the next decision, or false at the end of the trace.
func (c *Cursor) Next() (Event, bool) {
	t := c.t
	if t == nil {
		return Event{}, false
	}
	for c.run < len(t.runs) {
		if !c.in && c.g < len(t.groups) && t.groups[c.g].a == c.run {
			c.in, c.grep, c.gread = true, 0, 0
		}
		if c.in && t.grouping && c.g == len(t.groups)-1 && c.grep == t.groups[c.g].reps && c.gread == t.at.n {
			// The end of the open repetition of the group being matched,
			// which is the end of the trace.
			c.in, c.g, c.run = false, c.g+1, len(t.runs)
			break
		}
		r := &t.runs[c.run]
		if c.k < r.hi-r.lo {
			e := t.unpack(t.ev[r.lo+c.k])
			e.Insts += uint64(c.rep) * r.stride
			if c.in {
				e.Insts += uint64(c.grep) * t.groups[c.g].stride
				c.gread++
			}
			c.k++
			c.i++
			return e, true
		}
		c.k = 0
		c.rep++
		if c.rep >= r.reps || c.reps > 0 && c.rep >= c.reps {
			c.rep = 0
			c.run++
			if c.in && c.run == t.groups[c.g].b {
				c.nextGroupRep()
			}
		}
	}
	if c.k < len(t.partial) {
		e := t.unpack(t.partialEvent(c.k))
		c.k++
		c.i++
		return e, true
	}
	return Event{}, false
}

// nextGroupRep moves a cursor that read a repetition of its group to the
// group's next repetition (the open one of a group being matched
// included), or past the group.
func (c *Cursor) nextGroupRep() {
	t := c.t
	g := &t.groups[c.g]
	more := g.reps
	if t.grouping && c.g == len(t.groups)-1 && t.at.n > 0 {
		more++
	}
	if c.reps > 0 {
		more = min(more, c.reps)
	}
	if c.grep++; c.grep < more {
		c.run, c.gread = g.a, 0
		return
	}
	c.in = false
	c.g++
}

// Gathering returns the locations of the points that at least min
// distinct threads reached in the trace, in the order they were first
// reached: where threads that run the same code meet (PCT.GatherAt). Time
// slices, which end wherever a thread happened to be, are left out. Only
// the events the trace stores are read (a repeated stretch once, and the
// open repetition's events are among them), so the cost follows what the
// trace stores, not how long the execution ran.
func (t *Trace) Gathering(min int) []string {
	threads := map[string]map[int]bool{}
	var order, out []string
	note := func(e Event) {
		if e.Thread < 0 || e.What == WhatTimeSlice || e.Loc == "" {
			return
		}
		seen := threads[e.Loc]
		if seen == nil {
			seen = map[int]bool{}
			threads[e.Loc] = seen
			order = append(order, e.Loc)
		}
		seen[e.Thread] = true
	}
	for _, e := range t.ev {
		note(t.unpack(e))
	}
	for _, loc := range order {
		if len(threads[loc]) >= min {
			out = append(out, loc)
		}
	}
	return out
}

// Events returns every decision, expanded (for tests and small traces).
func (t *Trace) Events() []Event {
	out := make([]Event, 0, t.n)
	c := t.Cursor()
	for e, ok := c.Next(); ok; e, ok = c.Next() {
		out = append(out, e)
	}
	return out
}

// FromEvents builds a trace holding events.
func FromEvents(policy string, seed uint64, events []Event) *Trace {
	t := NewTrace(policy, seed)
	t.Limit = max(len(events), 1)
	for _, e := range events {
		t.Append(e)
	}
	t.Limit = 0
	return t
}

// Relocate is MapLocs for ir.Relocate, which moves a result's locations.
func (t *Trace) Relocate(text func(string) string) any { return t.MapLocs(text) }

// MapLocs returns a copy of the trace with every event's location passed
// through f (results carried over to a program whose lines moved).
func (t *Trace) MapLocs(f func(string) string) *Trace {
	c := *t
	c.names, c.memo = nil, [memoSlots]nameMemo{}
	c.ev = make([]event, len(t.ev))
	ids := map[uint32]uint32{} // t's loc numbers to c's
	for i, e := range t.ev {
		loc, ok := ids[e.key.loc]
		if !ok {
			loc = c.nameID(f(t.names.text(e.key.loc)))
			ids[e.key.loc] = loc
		}
		e.key.loc, e.key.what = loc, c.nameID(t.names.text(e.key.what))
		c.ev[i] = e
	}
	c.partial = slices.Clone(t.partial)
	c.runs = append([]run(nil), t.runs...)
	c.groups = slices.Clone(t.groups)
	c.last, c.period, c.match, c.keep = nil, 0, 0, 0
	return &c
}

// jsonEvent is an event as written to a file. The last event of a
// repeated stretch carries Period (the stretch's length) and Repeat (how
// many more times the stretch occurs). The first event of a group carries
// Group (how many of the file's events its body is, repeated stretches
// written once) and GroupRepeat (how many more times the body occurs).
type jsonEvent struct {
	Event
	Period      int `json:"period,omitempty"`
	Repeat      int `json:"repeat,omitempty"`
	Group       int `json:"group,omitempty"`
	GroupRepeat int `json:"group_repeat,omitempty"`
}

type jsonTrace struct {
	Policy  string      `json:"policy"`
	Seed    uint64      `json:"seed"`
	Events  []jsonEvent `json:"events"`
	Dropped int         `json:"dropped,omitempty"`
	// PreemptAt is Trace.PreemptAt.
	PreemptAt []string `json:"preempt_at,omitempty"`
	// PreemptAfterReads is Trace.PreemptAfterReads.
	PreemptAfterReads bool `json:"preempt_after_reads,omitempty"`
	// LockQuantumAfter is Trace.LockQuantumAfter.
	LockQuantumAfter int `json:"lock_quantum_after,omitempty"`
	// Then is Trace.Then.
	Then *Spec `json:"then,omitempty"`
}

// MarshalJSON writes the trace with its repetitions folded.
func (t *Trace) MarshalJSON() ([]byte, error) {
	if t.grouping {
		t = t.settled()
	}
	jt := jsonTrace{Policy: t.Policy, Seed: t.Seed, Events: make([]jsonEvent, 0, t.Stored()), Dropped: t.dropped,
		PreemptAt: t.PreemptAt, PreemptAfterReads: t.PreemptAfterReads, LockQuantumAfter: t.LockQuantumAfter, Then: t.Then}
	g := 0
	for ri, r := range t.runs {
		if r.hi == r.lo {
			continue // a literal run the limit left empty
		}
		if g < len(t.groups) && t.groups[g].a == ri {
			jt.Events = append(jt.Events, jsonEvent{Event: t.unpack(t.ev[r.lo]), GroupRepeat: t.groups[g].reps - 1,
				Group: t.runs[t.groups[g].b-1].hi - r.lo})
			g++
		} else {
			jt.Events = append(jt.Events, jsonEvent{Event: t.unpack(t.ev[r.lo])})
		}
		for i := r.lo + 1; i < r.hi; i++ {
			jt.Events = append(jt.Events, jsonEvent{Event: t.unpack(t.ev[i])})
		}
		if r.reps > 1 {
			last := &jt.Events[len(jt.Events)-1]
			last.Period, last.Repeat = r.hi-r.lo, r.reps-1
		}
	}
	for i := range t.partial {
		jt.Events = append(jt.Events, jsonEvent{Event: t.unpack(t.partialEvent(i))})
	}
	return json.Marshal(jt)
}

// UnmarshalJSON reads a trace written by MarshalJSON (or an older,
// unfolded one).
func (t *Trace) UnmarshalJSON(data []byte) error {
	var jt jsonTrace
	if err := json.Unmarshal(data, &jt); err != nil {
		return err
	}
	if jt.Then != nil {
		if _, err := jt.Then.New(); err != nil {
			return fmt.Errorf("schedule: then: %w", err)
		}
	}
	if jt.LockQuantumAfter < 0 {
		return fmt.Errorf("schedule: lock_quantum_after %d is negative", jt.LockQuantumAfter)
	}
	*t = Trace{Policy: jt.Policy, Seed: jt.Seed, PreemptAt: jt.PreemptAt, PreemptAfterReads: jt.PreemptAfterReads,
		LockQuantumAfter: jt.LockQuantumAfter, Then: jt.Then}
	var open *group // the group being read
	end := 0        // the index of its last event
	for i, je := range jt.Events {
		if je.Repeat < 0 || je.Period < 0 || (je.Repeat > 0) != (je.Period > 0) {
			return fmt.Errorf("schedule event %d: bad repetition (period %d, repeat %d)", i, je.Period, je.Repeat)
		}
		if je.Group < 0 || je.GroupRepeat < 0 || (je.Group > 0) != (je.GroupRepeat > 0) || je.Group > 0 && open != nil ||
			i+je.Group > len(jt.Events) {
			return fmt.Errorf("schedule event %d: bad group (%d events, repeat %d)", i, je.Group, je.GroupRepeat)
		}
		if int(int32(je.Thread)) != je.Thread || int(int32(je.Next)) != je.Next {
			return fmt.Errorf("schedule event %d: thread %d or %d out of range", i, je.Thread, je.Next)
		}
		if je.Group > 0 {
			t.frozen = len(t.runs) // the group's runs are its own
			open, end = &group{a: len(t.runs), reps: 1 + je.GroupRepeat}, i+je.Group-1
		}
		if je.Period > 0 {
			if err := t.appendRepeated(je, i); err != nil {
				return err
			}
		} else {
			t.ev = append(t.ev, t.pack(je.Event))
			if len(t.runs) <= t.frozen || t.runs[len(t.runs)-1].reps > 1 {
				t.runs = append(t.runs, run{lo: len(t.ev) - 1, hi: len(t.ev) - 1, reps: 1})
			}
			t.runs[len(t.runs)-1].hi++
			t.n++
		}
		if open != nil && i == end {
			open.b = len(t.runs)
			for _, r := range t.runs[open.a:open.b] {
				t.n += (open.reps - 1) * r.reps * (r.hi - r.lo)
			}
			t.groups = append(t.groups, *open)
			t.frozen, open = open.b, nil
		}
	}
	t.dropped = jt.Dropped
	return nil
}

// appendRepeated reads the last event of a repeated stretch: the stretch
// becomes a run of its own.
func (t *Trace) appendRepeated(je jsonEvent, i int) error {
	lit := len(t.runs) - 1
	have := 0 // literal events just before this one
	if lit >= t.frozen && t.runs[lit].reps == 1 {
		have = t.runs[lit].hi - t.runs[lit].lo
	}
	if have < je.Period-1 {
		return fmt.Errorf("schedule event %d: repeats %d events, fewer precede it", i, je.Period)
	}
	t.ev = append(t.ev, t.pack(je.Event))
	hi := len(t.ev)
	lo := hi - je.Period
	if je.Period > 1 {
		t.runs[lit].hi = lo
		if t.runs[lit].hi == t.runs[lit].lo {
			t.runs = t.runs[:lit]
		}
	}
	t.runs = append(t.runs, run{lo: lo, hi: hi, reps: 1 + je.Repeat})
	t.n += 1 + je.Period*je.Repeat
	return nil
}

// WriteFile saves the trace as JSON.
func (t *Trace) WriteFile(path string) error {
	data, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadFile loads a trace written by WriteFile.
func ReadFile(path string) (*Trace, error) {
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxConfig})
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	var t Trace
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("read trace %s: %w", path, err)
	}
	return &t, nil
}
