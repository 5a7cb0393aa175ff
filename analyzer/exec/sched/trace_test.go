package sched

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// ev makes a decision at a numbered location.
func ev(thread, loc, next int, insts uint64) Event {
	return Event{Thread: thread, Loc: fmt.Sprintf("f.c:%d:1", loc), What: "x", Insts: insts, Next: next}
}

// same reports whether two events are the same decision (the instruction
// counts aside).
func (e *Event) same(o *Event) bool {
	return e.Thread == o.Thread && e.Next == o.Next && e.Loc == o.Loc && e.What == o.What
}

// sameDecisions compares two event lists without their instruction
// counts, which repeated stretches extrapolate.
func sameDecisions(t *testing.T, got, want []Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d decisions, want %d", len(got), len(want))
	}
	for i := range got {
		if !got[i].same(&want[i]) {
			t.Fatalf("decision %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A trace stores a loop of decisions once, whatever its period, and still
// reads back every decision in order.
func TestTraceFoldsLoops(t *testing.T) {
	for _, period := range []int{1, 2, 3, 7, 100} {
		t.Run(fmt.Sprint("period", period), func(t *testing.T) {
			tr := NewTrace("round-robin", 1)
			var want []Event
			add := func(e Event) {
				tr.Append(e)
				want = append(want, e)
			}
			for i := 0; i < 5; i++ { // a prologue
				add(ev(0, 1000+i, 0, uint64(i)))
			}
			for i := 0; i < 100_000; i++ { // the loop
				add(ev(i%period%2, i%period, (i+1)%period%2, uint64(10+i)))
			}
			for i := 0; i < 3; i++ { // an epilogue
				add(ev(1, 2000+i, 0, 0))
			}
			if tr.Len() != len(want) {
				t.Fatalf("Len %d, want %d", tr.Len(), len(want))
			}
			if tr.Stored() > 5+3+2*period {
				t.Errorf("stores %d events for a loop of period %d", tr.Stored(), period)
			}
			sameDecisions(t, tr.Events(), want)
		})
	}
}

// CursorTwice reads a repeated stretch twice and skips the rest, and what
// a reader keeping each thread's latest event sees over it is what it sees
// over every decision: the pairs of where a thread stopped and where the
// thread it switched to had stopped.
func TestCursorTwiceSeesWhatEveryDecisionShows(t *testing.T) {
	tr := NewTrace("round-robin", 1)
	for i := 0; i < 4; i++ { // a prologue
		tr.Append(ev(i%2, 1000+i, (i+1)%3, uint64(i)))
	}
	for i := 0; i < 30_000; i++ { // three threads taking turns at three places
		tr.Append(ev(i%3, 10+i%3, (i+1)%3, uint64(10+i)))
	}
	tr.Append(ev(0, 2000, 2, 0)) // an epilogue
	tr.Append(ev(2, 2001, 1, 0))
	pairs := func(c Cursor) (map[[2]string]bool, int) {
		at, out := map[int]string{}, map[[2]string]bool{}
		n := 0
		for e, ok := c.Next(); ok; e, ok = c.Next() {
			n++
			at[e.Thread] = e.Loc
			if resume, ok := at[e.Next]; ok && e.Next != e.Thread {
				out[[2]string{e.Loc, resume}] = true
			}
		}
		return out, n
	}
	all, n := pairs(tr.Cursor())
	twice, m := pairs(tr.CursorTwice())
	if n != tr.Len() {
		t.Fatalf("Cursor read %d decisions of %d", n, tr.Len())
	}
	if m > 4+2+2*tr.Stored() {
		t.Errorf("CursorTwice read %d decisions of a trace storing %d", m, tr.Stored())
	}
	if len(all) != len(twice) {
		t.Fatalf("CursorTwice saw %d pairs, every decision shows %d: %v against %v", len(twice), len(all), twice, all)
	}
	for p := range all {
		if !twice[p] {
			t.Errorf("CursorTwice missed %v", p)
		}
	}
}

// A loop that stops in the middle of a repetition keeps the decisions it
// made in that repetition.
func TestTracePartialRepetition(t *testing.T) {
	tr := NewTrace("round-robin", 1)
	var want []Event
	for i := 0; i < 10; i++ {
		for _, l := range []int{1, 2, 3} {
			e := ev(0, l, 0, 0)
			tr.Append(e)
			want = append(want, e)
		}
	}
	for _, e := range []Event{ev(0, 1, 0, 0), ev(0, 2, 0, 0), ev(1, 9, 0, 0)} {
		tr.Append(e)
		want = append(want, e)
	}
	sameDecisions(t, tr.Events(), want)
}

// Instruction counts inside a repeated stretch follow its stride.
func TestTraceExtrapolatesInsts(t *testing.T) {
	tr := NewTrace("round-robin", 1)
	for i := 0; i < 50; i++ {
		tr.Append(ev(0, 1, 0, uint64(100+7*i)))
	}
	for i, e := range tr.Events() {
		if e.Insts != uint64(100+7*i) {
			t.Fatalf("decision %d: insts %d, want %d", i, e.Insts, 100+7*i)
		}
	}
}

// A schedule that never repeats stops at the limit and says so; a replay
// of it explains the divergence.
func TestTraceLimit(t *testing.T) {
	tr := NewTrace("random", 1)
	tr.Limit = 100
	for i := 0; i < 250; i++ {
		tr.Append(ev(0, i, 0, 0))
	}
	if tr.Len() != 100 || tr.Dropped() != 150 || !tr.Truncated() {
		t.Fatalf("Len %d, Dropped %d; want 100 and 150", tr.Len(), tr.Dropped())
	}
	r := &Replay{Trace: tr}
	for i := 0; i < 100; i++ {
		if _, err := r.Pick(&Point{Thread: 0, Loc: fmt.Sprintf("f.c:%d:1", i)}, []int{0}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := r.Pick(&Point{Thread: 0, Loc: "f.c:100:1"}, []int{0})
	if err == nil || !strings.Contains(err.Error(), "its limit") {
		t.Fatalf("replay past the limit: %v", err)
	}
}

// A trace that begins with a repetition (a spin from the first decision)
// reads back from its file form.
func TestTraceJSONStartingWithALoop(t *testing.T) {
	for _, period := range []int{1, 2} {
		tr := NewTrace("round-robin", 1)
		for i := 0; i < 20; i++ {
			tr.Append(ev(i%period, i%period, 0, 0))
		}
		data, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		var back Trace
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("period %d: %v\n%s", period, err, data)
		}
		sameDecisions(t, back.Events(), tr.Events())
	}
}

// The file form keeps loops folded and reads back the same decisions;
// an unfolded file (older augur) reads too.
func TestTraceJSONRoundTrip(t *testing.T) {
	tr := NewTrace("pct", 9)
	for i := 0; i < 3; i++ {
		tr.Append(ev(0, 100+i, 1, 0))
	}
	for i := 0; i < 1000; i++ {
		tr.Append(ev(i%2, 5+i%2, (i+1)%2, 0))
	}
	tr.Append(ev(1, 7, 0, 0))
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 2000 {
		t.Errorf("a folded trace of %d decisions takes %d bytes", tr.Len(), len(data))
	}
	var back Trace
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Policy != "pct" || back.Seed != 9 || back.Len() != tr.Len() {
		t.Fatalf("read back %s/%d with %d decisions", back.Policy, back.Seed, back.Len())
	}
	sameDecisions(t, back.Events(), tr.Events())

	old := `{"policy":"round-robin","seed":1,"events":[{"thread":0,"loc":"a.c:1:1","what":"x","insts":3,"next":1},{"thread":1,"loc":"a.c:2:1","what":"y","insts":9,"next":0}]}`
	var o Trace
	if err := json.Unmarshal([]byte(old), &o); err != nil {
		t.Fatal(err)
	}
	if got := o.Events(); len(got) != 2 || got[1].Insts != 9 || got[1].What != "y" {
		t.Fatalf("old trace read as %+v", got)
	}
	for _, bad := range []string{
		`{"events":[{"thread":0,"next":0,"period":3,"repeat":2}]}`,
		`{"events":[{"thread":0,"next":0,"period":1,"repeat":-1}]}`,
		`{"events":[{"thread":0,"next":0,"repeat":4}]}`,
	} {
		if err := json.Unmarshal([]byte(bad), &o); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// A fork shares the recorded decisions, and what either side records
// afterwards stays its own, folds included.
func TestTraceForkIsolation(t *testing.T) {
	parent := NewTrace("round-robin", 1)
	for i := 0; i < 10; i++ {
		parent.Append(ev(0, i%2, 0, 0))
	}
	before := parent.Events()
	child := parent.Fork()
	for i := 0; i < 5; i++ {
		child.Append(ev(1, 50+i, 1, 0))
		parent.Append(ev(0, i%2, 0, 0))
	}
	sameDecisions(t, child.Events()[:len(before)], before)
	if got := child.Events(); got[len(got)-1].Loc != "f.c:54:1" || len(got) != 15 {
		t.Fatalf("child: %d decisions ending %+v", len(got), got[len(got)-1])
	}
	if got := parent.Events(); len(got) != 15 || got[len(got)-1].Loc != "f.c:0:1" {
		t.Fatalf("parent: %d decisions ending %+v", len(got), got[len(got)-1])
	}
}

// Reversals reads a long trace once and shares it: the schedules it
// derives hold no copies of the prefix.
func TestReversalsShareTrace(t *testing.T) {
	tr := NewTrace("round-robin", 1)
	var flat []Event
	for i := 0; i < 20_000; i++ {
		e := Event{Thread: i % 2, Loc: fmt.Sprintf("q.c:%d:1", i), What: "pthread_mutex_lock", Next: (i + 1) % 2}
		tr.Append(e)
		flat = append(flat, e)
	}
	rs := Reversals(tr, 3, func(w string) bool { return w == "pthread_mutex_lock" })
	if len(rs) != 3 {
		t.Fatalf("%d reversals, want 3", len(rs))
	}
	for _, r := range rs {
		if r.Trace != tr {
			t.Fatal("a reversal copied the trace")
		}
	}
	// The first lock acquisition by thread 1 (decision 1) is postponed
	// from the decision that chose thread 1 (decision 0).
	if rs[0].Thread != 1 || rs[0].Prefix != 0 {
		t.Fatalf("first reversal: thread %d after %d decisions", rs[0].Thread, rs[0].Prefix)
	}
	if rs[1].Thread != 0 || rs[1].Prefix != 1 {
		t.Fatalf("second reversal: thread %d after %d decisions", rs[1].Thread, rs[1].Prefix)
	}
	// Postpone replays exactly its prefix, then keeps its thread back.
	p := &Postpone{Trace: tr, Prefix: 4, Thread: 0}
	for i := 0; i < 4; i++ {
		got, _ := p.Pick(&Point{Thread: flat[i].Thread}, []int{0, 1})
		if got != flat[i].Next {
			t.Fatalf("decision %d: chose %d, recorded %d", i, got, flat[i].Next)
		}
	}
	if got, _ := p.Pick(&Point{Thread: 1}, []int{0, 1}); got != 1 {
		t.Fatalf("after the prefix: chose %d, want the other thread", got)
	}
	// With only a sleeper besides it, the postponed thread waits for the
	// sleeper's wake-ups, but not for ever: a sleeper that polls for it
	// must not starve it.
	woken := 0
	for i := 0; i < 10*maxOversleep; i++ {
		got, _ := p.Pick(&Point{Thread: -1, Waking: []int{1}}, []int{0})
		if got == 0 {
			break
		}
		woken++
	}
	if woken != maxOversleep {
		t.Fatalf("the sleeper was woken %d times before the postponed thread ran, want %d", woken, maxOversleep)
	}
	// The postponement is over: round robin.
	if got, _ := p.Pick(&Point{Thread: 0}, []int{0, 1}); got != 1 {
		t.Fatalf("after the postponement: chose %d, want round robin's 1", got)
	}
	if got, _ := p.Pick(&Point{Thread: 1}, []int{0, 1}); got != 0 {
		t.Fatalf("after the postponement: chose %d, want round robin's 0", got)
	}
	// Another thread that spins a whole time slice ends the postponement
	// at once.
	q := &Postpone{Trace: tr, Prefix: 0, Thread: 0}
	if got, _ := q.Pick(&Point{Thread: 1}, []int{0, 1}); got != 1 {
		t.Fatalf("postponed thread chosen while another could run")
	}
	if got, _ := q.Pick(&Point{Thread: 1, What: WhatTimeSlice}, []int{0, 1}); got != 0 {
		t.Fatalf("after a spinning time slice: chose %d, want the postponed thread", got)
	}
}

// Policies by name, and the two plans' steps.
func TestNewAndPlans(t *testing.T) {
	for _, name := range []string{"round-robin", "random", "pct"} {
		p, err := New(name, 4)
		if err != nil || p.Name() != name {
			t.Errorf("New(%q): %v, %v", name, p, err)
		}
	}
	if _, err := New("fair", 1); err == nil {
		t.Error("New accepted an unknown schedule")
	}
	post := PostRacePlan(3, 10)
	if s := post.Step(0, nil); s.Name != "round-robin" || s.PreemptAccesses {
		t.Errorf("post-race step 0: %+v", s)
	}
	if s := post.Step(2, nil); s.Name != "random seed 12" || !s.PreemptAccesses {
		t.Errorf("post-race step 2: %+v", s)
	}
	tr := NewTrace("round-robin", 1)
	for i := 0; i < 6; i++ {
		tr.Append(Event{Thread: i % 2, Loc: fmt.Sprintf("m.c:%d:1", i), What: "pthread_mutex_lock", Next: (i + 1) % 2})
	}
	det := DetectionPlan(5, 1)
	det.Acquires = func(w string) bool { return w == "pthread_mutex_lock" }
	names := []string{det.Step(0, nil).Name}
	for i := 1; i < 5; i++ {
		names = append(names, det.Step(i, tr).Name)
	}
	want := "round-robin|postpone thread 1 after 0 decisions|postpone thread 0 after 1 decisions|pct seed 4|pct seed 5"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("detection plan %s, want %s", got, want)
	}
}

// A fork shares the events recorded so far; whichever side goes on, and
// folds a loop back into the shared events, each reads exactly what a
// trace that recorded its decisions alone would, stored the same way.
func TestTraceForkFoldsIntoSharedEvents(t *testing.T) {
	events := func(locs ...int) []Event {
		out := make([]Event, len(locs))
		for i, l := range locs {
			out[i] = ev(l%2, l, 0, uint64(10*i))
		}
		return out
	}
	// A literal stretch, then a loop of period 3 whose second round ends
	// after the fork: the fold then drops events both sides share.
	// (The parent's slice has room to grow in place at every fork point.)
	prefix := []int{10, 11, 12, 13, 14, 15, 0, 1, 2, 0, 1}
	for _, forkAt := range []int{9, 10, 11} {
		a := events(append(append([]int(nil), prefix...), 2, 30, 31, 32, 33, 34, 35, 36)...)
		b := events(append(append([]int(nil), prefix[:forkAt]...), 40, 41, 42, 43, 44, 45, 46, 47, 48, 49)...)
		parent := NewTrace("round-robin", 1)
		for _, e := range a[:forkAt] {
			parent.Append(e)
		}
		child := parent.Fork()
		// The parent runs on first, as a forked state's parent does.
		for _, e := range a[forkAt:] {
			parent.Append(e)
		}
		for _, e := range b[forkAt:] {
			child.Append(e)
		}
		for _, side := range []struct {
			name string
			tr   *Trace
			want []Event
		}{{"parent", parent, a}, {"child", child, b}} {
			alone := NewTrace("round-robin", 1)
			for _, e := range side.want {
				alone.Append(e)
			}
			sameDecisions(t, side.tr.Events(), side.want)
			got, _ := json.Marshal(side.tr)
			want, _ := json.Marshal(alone)
			if string(got) != string(want) {
				t.Errorf("fork at %d, %s: stored as\n%s\nalone:\n%s", forkAt, side.name, got, want)
			}
		}
	}
}
