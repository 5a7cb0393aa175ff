package farm

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"augur/analyzer/classify"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// longTrace is a schedule of n decisions that never repeat as a block.
func longTrace(n int) *sched.Trace {
	events := make([]sched.Event, n)
	for i := range events {
		events[i] = sched.Event{Thread: i % 3, Loc: fmt.Sprintf("worker.c:%d:3", 10+i), What: "lock",
			Insts: uint64(100 * i), Next: (i + 1) % 3}
	}
	return sched.FromEvents("round-robin", 1, events)
}

// Jobs whose races share a large schedule carry none: the schedule is
// stored once per run and each worker gets it back whole. Small schedules
// stay in the job.
func TestJobsShareTheirLargeSchedules(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := Embedded(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	big, small := longTrace(5000), longTrace(3)
	spec := vm.Spec{Args: []string{"prog"}}
	mk := func(id string, own, alt *sched.Trace) classify.Job {
		r := &race.Race{ID: id, Instance: race.Instance{Trace: own},
			Alternates: []race.Instance{{Trace: alt}}}
		return classify.Job{Program: classify.ProgramRef{Key: "k"}, Race: r, Options: classify.JobOptions{Run: spec}}
	}
	jobs := []classify.Job{mk("a", big, small), mk("b", small, big), mk("c", big, big)}

	ts := newTraceStore(f, "run1")
	var msgs []jobMessage
	for i, j := range jobs {
		shared, names, err := ts.share(ctx, j)
		if err != nil {
			t.Fatal(err)
		}
		if j.Race.Trace != jobs[i].Race.Trace || j.Race.Alternates[0].Trace != jobs[i].Race.Alternates[0].Trace {
			t.Fatalf("job %d: share changed the caller's race", i)
		}
		enc, err := classify.EncodeJob(shared)
		if err != nil {
			t.Fatal(err)
		}
		if len(enc) > sharedTraceBytes {
			t.Errorf("job %d is still %d bytes", i, len(enc))
		}
		msgs = append(msgs, jobMessage{Run: "run1", Index: i, Job: enc, Traces: names})
	}
	if got := msgs[0].Traces; len(got) != 2 || got[0] == "" || got[1] != "" {
		t.Fatalf("job a names %q: want the large schedule named, the small one inline", got)
	}
	if msgs[1].Traces[1] != msgs[0].Traces[0] || msgs[2].Traces[0] != msgs[0].Traces[0] {
		t.Errorf("the same schedule has several names: %q %q %q", msgs[0].Traces, msgs[1].Traces, msgs[2].Traces)
	}
	obs, err := f.js.ObjectStore(ctx, JobBucket)
	if err != nil {
		t.Fatal(err)
	}
	list, err := obs.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || !strings.HasPrefix(list[0].Name, "run1.") {
		t.Errorf("the store holds %d objects, want the one schedule of run1", len(list))
	}

	for i, jm := range msgs {
		got, err := classify.DecodeJob(jm.Job)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.restoreTraces(ctx, jm, &got); err != nil {
			t.Fatal(err)
		}
		want := jobs[i].Race
		for k, pair := range [][2]*sched.Trace{{got.Race.Trace, want.Trace}, {got.Race.Alternates[0].Trace, want.Alternates[0].Trace}} {
			if pair[0] == nil || !reflect.DeepEqual(pair[0].Events(), pair[1].Events()) {
				t.Errorf("job %d occurrence %d: the schedule did not come back whole", i, k)
			}
		}
	}

	f.forget("run1")
	if list, _ := obs.List(ctx); len(list) != 0 {
		t.Errorf("forget left %d objects", len(list))
	}
}

// A message that names more schedules than its race has occurrences is
// refused, not indexed out of range.
func TestRestoreRefusesExtraSchedules(t *testing.T) {
	j := classify.Job{Race: &race.Race{ID: "a"}}
	err := (&Farm{}).restoreTraces(context.Background(), jobMessage{Traces: []string{"", "x"}}, &j)
	if err == nil {
		t.Fatal("two schedules for one occurrence were taken")
	}
}
