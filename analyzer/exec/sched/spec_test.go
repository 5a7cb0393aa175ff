package sched

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// An execution that switches to a seeded schedule records its decisions
// up to the schedule's first and names the schedule; a replay of the
// trace, read back from its file, follows the recorded decisions and then
// makes the schedule's again, whatever their number.
func TestSwitchedScheduleReplaysFromItsSeed(t *testing.T) {
	points := func(n int) []Point {
		ps := make([]Point, n)
		for i := range ps {
			ps[i] = Point{Thread: i % 3, Loc: fmt.Sprintf("p.c:%d:1", 10+i%7), What: "pthread_mutex_lock"}
		}
		return ps
	}
	runnable := []int{0, 1, 2}
	// The execution: round robin for 5 decisions, then a thread forced to
	// go first (a wrapper's decision, recorded), then the schedule.
	tr := NewTrace("round-robin", 1)
	var pol Policy = RoundRobin{}
	var picks []int
	for i, p := range points(2_000) {
		switch i {
		case 5:
			sw, err := (&Spec{Policy: "keyed-pct", Seed: 7, Depth: 3, Steps: 100}).Switch(tr)
			if err != nil {
				t.Fatal(err)
			}
			pol = &First{Thread: 2, Then: sw}
		}
		next, err := pol.Pick(&p, runnable)
		if err != nil {
			t.Fatal(err)
		}
		if p.Drawn {
			tr.Stop() // as the machine does
		}
		tr.Record(&p, next)
		picks = append(picks, next)
	}
	if tr.Len() != 6 || tr.Then == nil {
		t.Fatalf("recorded %d decisions, then %+v", tr.Len(), tr.Then)
	}
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back Trace
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	r := &Replay{Trace: &back}
	for i, p := range points(2_000) {
		next, err := r.Pick(&p, runnable)
		if err != nil || next != picks[i] {
			t.Fatalf("decision %d: %d (%v), recorded %d", i, next, err, picks[i])
		}
		if i >= 6 && !p.Drawn {
			t.Fatalf("decision %d of the schedule is not drawn: the replay would record it", i)
		}
	}
	bad := strings.Replace(string(data), `"keyed-pct"`, `"dice"`, 1)
	if err := json.Unmarshal([]byte(bad), &back); err == nil || !strings.Contains(err.Error(), `unknown schedule "dice"`) {
		t.Errorf("a trace naming an unknown schedule: %v", err)
	}
}
