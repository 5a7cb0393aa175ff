package farm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load/loadtest"
	"augur/analyzer/judge/classify"
	"augur/analyzer/judge/farm"
)

// jobsOf detects a test program's races and makes their classification
// jobs, as the analyzer does.
func jobsOf(t testing.TB, path string, model memmodel.Model) (*ir.Program, []classify.Job) {
	t.Helper()
	prog := loadtest.Program(t, t.TempDir(), path)
	cfg := vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 20_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil {
		t.Fatal(err)
	}
	opts := classify.Options{Run: cfg, Seed: 1, Symbolic: classify.UsesSymbolicInputs(prog, vm.UndefinedStop), Model: model}
	var jobs []classify.Job
	for _, r := range res.Races {
		jobs = append(jobs, classify.NewJob(classify.RefOf(prog), r, opts, ""))
	}
	if len(jobs) == 0 {
		t.Fatalf("%s: no race", path)
	}
	return prog, jobs
}

// encoded is each verdict's encoding, for byte-for-byte comparison.
func encoded(t testing.TB, vs []*classify.Verdict) [][]byte {
	t.Helper()
	out := make([][]byte, len(vs))
	for i, v := range vs {
		if v == nil {
			t.Fatalf("verdict %d missing", i)
		}
		data, err := classify.EncodeVerdict(v)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = data
	}
	return out
}

func sameVerdicts(t testing.TB, what string, got, want [][]byte) {
	t.Helper()
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s: verdict %d differs:\n got %s\nwant %s", what, i, got[i], want[i])
		}
	}
}

// embedded starts an embedded farm for a test, with a context that bounds
// the test's time; both end with the test.
func embedded(t *testing.T, cfg farm.Config) (context.Context, *farm.Farm) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	f, err := farm.Embedded(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return ctx, f
}

var cases = []struct {
	file  string
	model memmodel.Model
}{
	{"../../../testdata/classify/double_free.c", memmodel.SC},          // spec-violated
	{"../../../testdata/classify/multischedule_output.c", memmodel.SC}, // output-differs, harmless
	{"../../../testdata/classify/loop_alt.c", memmodel.SC},             // single-ordering
	{"../../../testdata/classify/overflow_other_input.c", memmodel.SC}, // multipath
	{"../../../testdata/weak/sb.c", memmodel.Weak},
}

// The embedded farm (a NATS server in the process, workers as goroutines)
// gives the verdicts of the in-process pool, byte for byte, and calls
// each once per job.
func TestEmbeddedFarmGivesThePoolsVerdicts(t *testing.T) {
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			prog, jobs := jobsOf(t, c.file, c.model)
			want := encoded(t, classify.ClassifyEach(prog, jobs, 2, nil, nil))
			calls := map[int]int{}
			got, err := farm.ClassifyLocal(context.Background(), prog, jobs, 2, func(i int, v *classify.Verdict) { calls[i]++ })
			if err != nil {
				t.Fatal(err)
			}
			sameVerdicts(t, "embedded farm", encoded(t, got), want)
			for i := range jobs {
				if calls[i] != 1 {
					t.Errorf("each called %d times for job %d", calls[i], i)
				}
			}
		})
	}
}

// A worker that has not seen the program downloads its bitcode from the
// object store once (content-addressed), loads it, checks its
// fingerprint, and gives the same verdicts; a second run of the same
// program uploads nothing new.
func TestWorkerDownloadsTheProgramOnce(t *testing.T) {
	prog, jobs := jobsOf(t, "../../../testdata/classify/double_free.c", memmodel.SC)
	want := encoded(t, classify.ClassifyEach(prog, jobs, 1, nil, nil))
	ctx, f := embedded(t, farm.Config{})
	cache := t.TempDir()
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- f.Work(wctx, farm.WorkerOptions{Jobs: 2, CacheDir: cache}) }()
	for run := 0; run < 2; run++ {
		got, err := f.Classify(ctx, prog, jobs, nil)
		if err != nil {
			t.Fatal(err)
		}
		sameVerdicts(t, "downloaded program", encoded(t, got), want)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*.bc"))
	if len(files) != len(prog.Bitcode) {
		t.Errorf("the worker's cache holds %d bitcode files, want %d (one per file of the program)", len(files), len(prog.Bitcode))
	}
	objects, err := f.Objects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if objects != len(prog.Bitcode) {
		t.Errorf("the store holds %d objects after two runs, want %d", objects, len(prog.Bitcode))
	}
}

// A load of 1,000 generated jobs (one race of a small program, a thousand
// times) goes through an embedded farm with two workers within a time
// bound: every job gets exactly one verdict, the pool's.
func TestLoadOfAThousandJobs(t *testing.T) {
	prog, base := jobsOf(t, "../../../testdata/race/counter.c", memmodel.SC)
	want := encoded(t, classify.ClassifyEach(prog, base[:1], 1, nil, nil))[0]
	jobs := make([]classify.Job, 1000)
	for i := range jobs {
		jobs[i] = base[0]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	calls := make([]int, len(jobs))
	got, err := farm.ClassifyLocal(ctx, prog, jobs, 2, func(i int, v *classify.Verdict) { calls[i]++ })
	if err != nil {
		t.Fatalf("after %v: %v", time.Since(start), err)
	}
	for i, data := range encoded(t, got) {
		if !bytes.Equal(data, want) || calls[i] != 1 {
			t.Fatalf("job %d: %d calls, verdict %s, want %s", i, calls[i], data, want)
		}
	}
	t.Logf("%d jobs in %v (%.0f jobs/s)", len(jobs), time.Since(start), float64(len(jobs))/time.Since(start).Seconds())
}

// A job no worker can finish is given up and reported unclassified with
// the reason, instead of leaving the run waiting: one that a worker
// refuses (it cannot decode it: another augur version, say), and one
// whose program no worker can load, after MaxDeliver deliveries.
func TestJobsNoWorkerCanFinishAreGivenUp(t *testing.T) {
	prog, jobs := jobsOf(t, "../../../testdata/classify/double_free.c", memmodel.SC)
	ctx, f := embedded(t, farm.Config{MaxDeliver: 2})
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go f.Work(wctx, farm.WorkerOptions{CacheDir: filepath.Join(notADir, "cache")}) // cannot download anything

	refused := jobs[0]
	refused.Options.Classifier = "a classifier of a newer augur"
	got, err := f.Classify(ctx, prog, []classify.Job{refused, jobs[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"refused the job", "delivered 2 times"} {
		if v := got[i]; v == nil || v.Category != classify.Unclassified || !strings.Contains(v.Reason, want) {
			t.Errorf("job %d: %+v, want unclassified because %q", i, v, want)
		}
	}
}

// A worker holds at most its Jobs unacknowledged jobs; the rest wait in
// the queue for other workers.
func TestAWorkerHoldsAtMostItsJobs(t *testing.T) {
	prog, base := jobsOf(t, "../../../testdata/classify/double_free.c", memmodel.SC)
	jobs := make([]classify.Job, 12)
	for i := range jobs {
		jobs[i] = base[0]
	}
	ctx, f := embedded(t, farm.Config{})
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go f.Work(wctx, farm.WorkerOptions{Jobs: 2, Delay: 100 * time.Millisecond, CacheDir: t.TempDir()})
	done := make(chan error, 1)
	go func() {
		_, err := f.Classify(ctx, prog, jobs, nil)
		done <- err
	}()
	most, waited := 0, uint64(0)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if most > 2 || most == 0 || waited == 0 {
				t.Errorf("at most %d unacknowledged (want 1 or 2) and at most %d waiting (want some)", most, waited)
			}
			return
		case <-time.After(20 * time.Millisecond):
			q, err := f.Queue(ctx)
			if err != nil {
				continue
			}
			most, waited = max(most, q.Unacknowledged), max(waited, q.Waiting)
		}
	}
}

// A job larger than the server takes in one message (1 MiB by default:
// here, 2 MiB of small files the program is given and never reads, each
// too small to travel on its own) travels through the object store, and
// gives the pool's verdict. (Before, its publication was retried every
// 100 ms for ever.)
func TestJobsLargerThanAMessage(t *testing.T) {
	prog, jobs := jobsOf(t, "../../../testdata/race/counter.c", memmodel.SC)
	jobs = jobs[:1]
	jobs[0].Options.Run.Files = map[string][]byte{}
	for i := range 64 {
		jobs[0].Options.Run.Files[fmt.Sprintf("padding%d.bin", i)] = bytes.Repeat([]byte("x"), 32<<10)
	}
	want := encoded(t, classify.ClassifyEach(prog, jobs, 1, nil, nil))
	got, err := farm.ClassifyLocal(context.Background(), prog, jobs, 1, nil)
	if err != nil {
		t.Fatalf("a 2 MiB job: %v", err)
	}
	sameVerdicts(t, "a 2 MiB job", encoded(t, got), want)
}

// Races found by one long schedule (thousands of decisions that do not
// fold) share it through the store, and the workers classify them as the
// pool does: each gets its schedules back whole, and each verdict, whose
// evidence holds the schedule of a whole run and is larger than a
// message, comes back through the store too. (Before, the worker's
// publication of such a verdict failed, the job was delivered again
// until JetStream gave it up, and the race was reported unclassified.)
func TestRacesOfALongScheduleGiveThePoolsVerdicts(t *testing.T) {
	prog, jobs := jobsOf(t, "../../../testdata/race/long_schedule.c", memmodel.SC)
	if len(jobs) < 2 {
		t.Fatalf("%d races, want the two of long_schedule.c", len(jobs))
	}
	if data, err := jobs[0].Race.Trace.MarshalJSON(); err != nil || len(data) < 64<<10 {
		t.Fatalf("the schedule is %d bytes (%v): too small to be shared", len(data), err)
	}
	want := encoded(t, classify.ClassifyEach(prog, jobs, 1, nil, nil))
	if len(want[0]) <= 1<<20 {
		t.Fatalf("the first verdict is %d bytes: too small to need the store", len(want[0]))
	}
	got, err := farm.ClassifyLocal(context.Background(), prog, jobs, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameVerdicts(t, "long schedule", encoded(t, got), want)
}
