package sched

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// turns is what PCT records on threads that loop over a lock: each thread
// in turn takes and releases it loops times, then gives way to the next.
func turns(cycles, threads, loops int) []Event {
	var out []Event
	insts := uint64(0)
	for c := 0; c < cycles; c++ {
		for th := 1; th <= threads; th++ {
			for i := 0; i < loops; i++ {
				out = append(out, ev(th, 16, th, insts), ev(th, 14, th, insts+4))
				insts += 12
			}
			out = append(out, ev(th, 16, th, insts), ev(th, 14, th%threads+1, insts+4))
			insts += 12
		}
	}
	return out
}

// checkTrace appends events to a fresh trace and checks that every
// reader gets them back: the cursor, the file form, and a fork's copy.
func checkTrace(t *testing.T, events []Event) *Trace {
	t.Helper()
	tr := NewTrace("pct", 1)
	for _, e := range events {
		tr.Append(e)
	}
	if tr.Len() != len(events) {
		t.Fatalf("Len %d, want %d", tr.Len(), len(events))
	}
	sameDecisions(t, tr.Events(), events)
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back Trace
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if back.Len() != len(events) {
		t.Fatalf("read back %d decisions, want %d", back.Len(), len(events))
	}
	sameDecisions(t, back.Events(), events)
	return tr
}

// Threads that take turns, each looping for a while, are stored as one
// turn of each, however many turns they take, and read back in order;
// instruction counts follow the turns' stride.
func TestTraceGroupsTurnTaking(t *testing.T) {
	for _, threads := range []int{2, 4} {
		events := turns(5000, threads, 30)
		tr := checkTrace(t, events)
		if tr.Stored() > 2*threads*6 {
			t.Errorf("%d threads: stores %d events for %d decisions", threads, tr.Stored(), len(events))
		}
		for i, e := range tr.Events() {
			if e.Insts != events[i].Insts {
				t.Fatalf("decision %d: insts %d, want %d", i, e.Insts, events[i].Insts)
			}
		}
		data, _ := json.Marshal(tr)
		if len(data) > 8000 {
			t.Errorf("%d threads: a file of %d bytes", threads, len(data))
		}
	}
}

// A group that stops matching, at any point of its body, leaves every
// decision in place, and recording goes on, grouping again when the turns
// resume.
func TestTraceGroupEndsAnywhere(t *testing.T) {
	base := turns(6, 3, 5)
	period := len(base) / 6
	for cut := 3 * period; cut < 4*period; cut++ {
		events := append([]Event(nil), base[:cut]...)
		events = append(events, ev(9, 99, 9, 0)) // something new
		events = append(events, turns(6, 3, 5)...)
		checkTrace(t, events)
		// And the trace ending there, inside the group's repetition.
		checkTrace(t, base[:cut])
	}
}

// Random loops of loops, with turns that sometimes run longer or stop
// short, read back exactly, and a fork records on its own.
func TestTraceGroupsRandom(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var events []Event
		bodies := make([][]Event, 1+rng.IntN(4))
		for i := range bodies {
			for j := 0; j <= rng.IntN(3); j++ {
				bodies[i] = append(bodies[i], ev(rng.IntN(3), rng.IntN(6), rng.IntN(3), 0))
			}
		}
		for c := rng.IntN(40); c > 0; c-- {
			for _, b := range bodies {
				reps := 3
				if rng.IntN(10) == 0 {
					reps = rng.IntN(6)
				}
				for r := 0; r < reps; r++ {
					events = append(events, b...)
				}
				if rng.IntN(3) == 0 {
					events = append(events, ev(rng.IntN(3), 50+rng.IntN(3), 0, 0))
				}
			}
		}
		tr := checkTrace(t, events)

		at := rng.IntN(len(events) + 1)
		parent := NewTrace("pct", 1)
		for _, e := range events[:at] {
			parent.Append(e)
		}
		child := parent.Fork()
		tail := turns(3, 2, 3)
		for _, e := range events[at:] {
			parent.Append(e)
		}
		for _, e := range tail {
			child.Append(e)
		}
		sameDecisions(t, parent.Events(), events)
		sameDecisions(t, child.Events(), append(append([]Event(nil), events[:at]...), tail...))

		// Under a limit of stored events, the trace keeps a prefix.
		small := NewTrace("pct", 1)
		small.Limit = 1 + rng.IntN(max(tr.Stored(), 1))
		for _, e := range events {
			small.Append(e)
		}
		if small.Len()+small.Dropped() != len(events) || small.Stored() > small.Limit+maxPeriod {
			t.Fatalf("seed %d: limit %d: %d kept, %d dropped, %d stored, of %d", seed, small.Limit,
				small.Len(), small.Dropped(), small.Stored(), len(events))
		}
		sameDecisions(t, small.Events(), events[:small.Len()])
	}
}

// CursorTwice reads a group's body at most twice and still sees every
// pair of where a thread stopped and where the next had stopped.
func TestCursorTwiceOverGroups(t *testing.T) {
	tr := checkTrace(t, turns(1000, 4, 20))
	c := tr.CursorTwice()
	n := 0
	for _, ok := c.Next(); ok; _, ok = c.Next() {
		n++
	}
	if n > 4*tr.Stored()+8 {
		t.Errorf("CursorTwice read %d decisions of a trace storing %d", n, tr.Stored())
	}
}

// A file with a malformed group is refused.
func TestTraceJSONBadGroup(t *testing.T) {
	for _, bad := range []string{
		`{"events":[{"thread":0,"next":0,"group":3,"group_repeat":2}]}`,
		`{"events":[{"thread":0,"next":0,"group":1,"group_repeat":-1}]}`,
		`{"events":[{"thread":0,"next":0,"group_repeat":4}]}`,
		`{"events":[{"thread":0,"next":0,"group":2,"group_repeat":1},{"thread":0,"next":0,"group":1,"group_repeat":1}]}`,
		`{"events":[{"thread":0,"loc":"a","next":0,"group":1,"group_repeat":1},{"thread":0,"loc":"b","next":0,"period":2,"repeat":1}]}`,
	} {
		var o Trace
		if err := json.Unmarshal([]byte(bad), &o); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
