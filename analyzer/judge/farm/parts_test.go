package farm

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/judge/classify"
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
// stored once per run and each worker gets it back whole; so are a large
// input file and standard input that every job of a run has. Small
// schedules and files stay in the job.
func TestJobsShareTheirLargeParts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := Embedded(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	big, small := longTrace(5000), longTrace(3)
	input := bytes.Repeat([]byte("input "), 20000)
	spec := vm.Spec{Args: []string{"prog"}, Stdin: input,
		Files: map[string][]byte{"big.txt": input, "small.txt": []byte("small")}}
	mk := func(id string, own, alt *sched.Trace) classify.Job {
		r := &race.Race{ID: id, Instance: race.Instance{Trace: own},
			Alternates: []race.Instance{{Trace: alt}}}
		return classify.Job{Program: classify.ProgramRef{Key: "k"}, Race: r, Options: classify.JobOptions{Run: spec}}
	}
	jobs := []classify.Job{mk("a", big, small), mk("b", small, big), mk("c", big, big)}

	ps := newPartStore(f, "run1")
	var msgs []jobMessage
	var parts []sharedParts
	for i, j := range jobs {
		shared, p, err := ps.share(ctx, j)
		if err != nil {
			t.Fatal(err)
		}
		if j.Race.Trace != jobs[i].Race.Trace || j.Race.Alternates[0].Trace != jobs[i].Race.Alternates[0].Trace ||
			len(j.Options.Run.Files) != 2 || len(j.Options.Run.Stdin) != len(input) {
			t.Fatalf("job %d: share changed the caller's job", i)
		}
		enc, err := classify.EncodeJob(shared)
		if err != nil {
			t.Fatal(err)
		}
		if len(enc) > sharedPartBytes {
			t.Errorf("job %d is still %d bytes", i, len(enc))
		}
		msgs = append(msgs, jobMessage{Run: "run1", Index: i, Job: enc})
		parts = append(parts, p)
	}
	if got := parts[0].Traces; len(got) != 2 || got[0] == "" || got[1] != "" {
		t.Fatalf("job a names %q: want the large schedule named, the small one inline", got)
	}
	if parts[1].Traces[1] != parts[0].Traces[0] || parts[2].Traces[0] != parts[0].Traces[0] {
		t.Errorf("the same schedule has several names: %q %q %q", parts[0].Traces, parts[1].Traces, parts[2].Traces)
	}
	if len(parts[0].Files) != 1 || parts[0].Files["big.txt"] == "" || parts[0].Stdin != parts[0].Files["big.txt"] {
		t.Errorf("job a's inputs: files %q, stdin %q: want the large file and stdin named, one object", parts[0].Files, parts[0].Stdin)
	}
	obs, err := f.js.ObjectStore(ctx, JobBucket)
	if err != nil {
		t.Fatal(err)
	}
	list, err := obs.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || !strings.HasPrefix(list[0].Name, "run1.") || !strings.HasPrefix(list[1].Name, "run1.") {
		t.Errorf("the store holds %d objects, want run1's schedule and input", len(list))
	}

	for i, jm := range msgs {
		got, err := classify.DecodeJob(jm.Job)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.restoreParts(ctx, parts[i], &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Options.Run, jobs[i].Options.Run) {
			t.Errorf("job %d: the inputs did not come back whole", i)
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
	err := (&Farm{}).restoreParts(context.Background(), sharedParts{Traces: []string{"", "x"}}, &j)
	if err == nil {
		t.Fatal("two schedules for one occurrence were taken")
	}
}
