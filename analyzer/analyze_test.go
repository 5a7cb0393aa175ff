package analyzer_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load"
	"augur/analyzer/judge/classify"
	"augur/analyzer/output/report"
	"augur/internal/testutil"
)

var cacheDir string

func TestMain(m *testing.M) { testutil.MainWithCache(m, &cacheDir) }

func buildOpts() build.Options { return build.Options{CacheDir: cacheDir} }

func mustLoad(t testing.TB, path string) *ir.Program {
	t.Helper()
	prog, err := load.Program([]string{path}, buildOpts())
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func options(path string) analyzer.Options {
	return analyzer.Options{Run: vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 20_000_000},
		Sources: []string{path}, Seed: 1, Workers: 1}
}

// The observer hears detection first, then every verdict once, with
// progress that only moves forward, and the report agrees with the
// program's annotation.
func TestAnalyzeObserverOrder(t *testing.T) {
	path := "../testdata/race/counter.c"
	prog := mustLoad(t, path)
	var events []string
	lastDone, lastTotal := map[string]int{}, map[string]int{}
	res, err := analyzer.Analyze(context.Background(), prog, options(path), analyzer.Observer{
		Progress: func(stage string, done, total int) {
			if done < lastDone[stage] || done > total {
				t.Errorf("progress %s went %d -> %d of %d", stage, lastDone[stage], done, total)
			}
			lastDone[stage], lastTotal[stage] = done, total
		},
		Detected: func(r *analyzer.Result) {
			events = append(events, "detected")
			for i, v := range r.Verdicts {
				if v != nil {
					t.Errorf("race %d already has a verdict at detection", i)
				}
			}
		},
		Classified: func(r *analyzer.Result, i int) {
			events = append(events, "classified "+string(r.Verdicts[i].Category))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(events, ", "); got != "detected, classified output-differs" {
		t.Errorf("events: %s", got)
	}
	if lastDone["detecting"] < 5 || lastDone["detecting"] != lastTotal["detecting"] || lastDone["classifying"] != 1 {
		t.Errorf("final progress: %v", lastDone)
	}
	rep := report.FromResult(res, "")
	if len(rep.Races) != 1 || rep.Races[0].Category != "output-differs" || rep.Races[0].Schedule == "" ||
		rep.Races[0].Inputs == nil {
		t.Errorf("report races: %+v", rep.Races)
	}
}

// An `augur:ignore` comment on either access line silences the race before
// classification; the report counts it.
func TestIgnoreComment(t *testing.T) {
	path, _ := filepath.Abs("../testdata/race/counter.c")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	marked := bytes.Replace(src, []byte("hits++; // race: hits output-differs"), []byte("hits++; // augur:ignore"), 1)
	if bytes.Equal(marked, src) {
		t.Fatal("test program changed: its racing line was not found")
	}
	prog := mustLoad(t, path)
	opts := options(path)
	opts.ReadFile = func(p string) ([]byte, error) {
		if p == path {
			return marked, nil
		}
		return os.ReadFile(p)
	}
	classified := 0
	res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{
		Classified: func(*analyzer.Result, int) { classified++ }})
	if err != nil {
		t.Fatal(err)
	}
	rep := report.FromResult(res, "")
	if len(rep.Races) != 0 || rep.Stats.Ignored != 1 || classified != 0 {
		t.Errorf("races %d, ignored %d, classified %d; want 0, 1, 0", len(rep.Races), rep.Stats.Ignored, classified)
	}
}

// Cancelling in the middle (here: as soon as detection reports) stops the
// analysis with ErrCanceled and no verdict is reported.
func TestCancelStopsAnalysis(t *testing.T) {
	path := "../testdata/race/counter.c"
	prog := mustLoad(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := analyzer.Analyze(ctx, prog, options(path), analyzer.Observer{
		Detected:   func(*analyzer.Result) { cancel() },
		Classified: func(*analyzer.Result, int) { t.Error("a verdict was reported after cancellation") },
	})
	if !errors.Is(err, analyzer.ErrCanceled) {
		t.Fatalf("err = %v, want ErrCanceled", err)
	}
	_, err = analyzer.Analyze(ctx, prog, options(path), analyzer.Observer{})
	if !errors.Is(err, analyzer.ErrCanceled) {
		t.Fatalf("already canceled: err = %v, want ErrCanceled", err)
	}
}

// A panic inside the analysis before it found anything comes back as an
// error with its stack.
func TestPanicIsRecovered(t *testing.T) {
	path := "../testdata/race/counter.c"
	prog := mustLoad(t, path)
	// Before anything is found (the first progress report), the panic is
	// an error with its stack; after, see TestAPanicKeepsWhatWasFound.
	_, err := analyzer.Analyze(context.Background(), prog, options(path), analyzer.Observer{
		Progress: func(string, int, int) { panic("observer bug") }})
	if err == nil || !strings.Contains(err.Error(), "internal error in the analysis: observer bug") ||
		!strings.Contains(err.Error(), "goroutine") {
		t.Fatalf("err = %v", err)
	}
}

// A panic in the middle of an analysis (here in the caller's observer,
// after detection) keeps what was found: the races are reported, the
// result says it stopped early and why, and no error loses them.
func TestAPanicKeepsWhatWasFound(t *testing.T) {
	prog := mustLoad(t, filepath.Join("..", "testdata", "classify", "double_free.c"))
	res, err := analyzer.Analyze(context.Background(), prog, analyzer.Options{Run: vm.Config{Args: []string{"double_free"}}},
		analyzer.Observer{Detected: func(*analyzer.Result) { panic("an observer's bug") }})
	if err != nil {
		t.Fatalf("the panic lost the result: %v", err)
	}
	rep := report.FromResult(res, "")
	if len(rep.Races) == 0 || rep.Stopped == nil || !strings.Contains(rep.Stopped.Message, "internal error in augur") ||
		!strings.Contains(rep.Stopped.Message, "an observer's bug") || rep.Complete() {
		t.Fatalf("report after the panic: %d races, stopped %+v", len(rep.Races), rep.Stopped)
	}
	var text bytes.Buffer
	if err := report.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "INCOMPLETE: augur: the analysis stopped early: internal error in augur") ||
		strings.Contains(text.String(), "Raise  to") {
		t.Errorf("text report:\n%s", text.String())
	}
}

// A classification that fails after detection (here, a farm whose server
// nobody runs) leaves every race detected in the result, unclassified,
// and the report says the analysis is incomplete and why.
func TestFailedClassificationKeepsTheRaces(t *testing.T) {
	path := "../testdata/race/counter.c"
	prog := mustLoad(t, path)
	opts := options(path)
	opts.Farm = "nats://127.0.0.1:1"
	res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
	if err != nil {
		t.Fatalf("the analysis failed instead of reporting its races: %v", err)
	}
	if len(res.Races) == 0 {
		t.Fatal("no race kept")
	}
	if res.Stopped == nil || !strings.Contains(res.Stopped.Message, "classification failed") ||
		!strings.Contains(res.Stopped.Message, "connection refused") {
		t.Fatalf("stopped: %+v", res.Stopped)
	}
	rep := report.FromResult(res, "")
	if rep.Complete() || rep.Stopped == nil || rep.Stopped.Budget != "" || len(rep.Races) != len(res.Races) {
		t.Errorf("report: complete %v, stopped %+v, %d races", rep.Complete(), rep.Stopped, len(rep.Races))
	}
	for _, r := range rep.Races {
		if r.Category != "unclassified" {
			t.Errorf("race %s: %s", r.ID, r.Category)
		}
	}
}

// The result is data: what is done with it (reports, evidence written
// again, ignore comments read again, fixes) lives in the packages of
// analyzer/output, so that a reader of Result reads fields only.
func TestResultIsData(t *testing.T) {
	for _, v := range []any{&analyzer.Result{}, analyzer.Result{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumMethod() {
			t.Errorf("%v has method %s", typ, typ.Method(i).Name)
		}
	}
}

// A one-order failure another race explains is given to it once every
// race has its verdict: the observer hears the changed verdicts again,
// and the evidence of the failure they no longer claim is gone.
func TestAttributedFailureLosesItsEvidence(t *testing.T) {
	path := "../testdata/accuracy/layout_switch.c"
	prog := mustLoad(t, path)
	opts := corpusOptions(t, path)
	opts.EvidenceDir = t.TempDir()
	heard := map[string][]string{}
	res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{
		Classified: func(r *analyzer.Result, i int) {
			heard[r.Races[i].ID] = append(heard[r.Races[i].ID], string(r.Verdicts[i].Category))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	attributed := 0
	for i, v := range res.Verdicts {
		id := res.Races[i].ID
		got := heard[id]
		if len(got) == 0 || got[len(got)-1] != string(v.Category) {
			t.Errorf("race %s: the observer heard %v, the result says %s", id, got, v.Category)
		}
		_, statErr := os.Stat(filepath.Join(opts.EvidenceDir, filepath.Base(res.Evidence[i])))
		switch {
		case v.Category == classify.SpecViolated && (res.Evidence[i] == "" || statErr != nil):
			t.Errorf("race %s is spec-violated with no evidence file (%q: %v)", id, res.Evidence[i], statErr)
		case v.Category != classify.SpecViolated && res.Evidence[i] != "":
			t.Errorf("race %s is %s with evidence %s", id, v.Category, res.Evidence[i])
		}
		if len(got) == 2 && got[0] == string(classify.SpecViolated) && v.Category == classify.SingleOrdering {
			attributed++
			if !strings.Contains(v.Reason, "the consequence of the race on compact") {
				t.Errorf("race %s: reason %q does not name the race it was given to", id, v.Reason)
			}
		}
	}
	if attributed == 0 {
		t.Errorf("no verdict was attributed to another race: %v", heard)
	}
	files, _ := filepath.Glob(filepath.Join(opts.EvidenceDir, "race-*.json"))
	if len(files) != 1 {
		t.Errorf("evidence files %v, want the compact race's alone", files)
	}
}

// An access that is a synchronization call's is named by its call, and
// the memory by the object the call was given: cond_signal_late.c's
// signal races with the destroy of c->cond, which the text report says
// as the calls, not only as a read and a write.
func TestSyncCallsAreNamedByTheirCalls(t *testing.T) {
	// macro_teardown.c makes its calls through macros: the code says which
	// functions they call, but the text at their places names no memory
	// (DONE_SIGNAL(j): j is the pointer the macro follows), so the race
	// keeps augur's description of the memory rather than "j".
	for path, object := range map[string]string{
		"../testdata/race/cond_signal_late.c": "c->cond",
		"../testdata/race/macro_teardown.c":   "heap object allocated at macro_teardown.c:32 (96 bytes, offset 40)",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) { syncCallsAreNamed(t, path, object) })
	}
}

// syncCallsAreNamed checks that the program at path races between a
// pthread_cond_signal and a pthread_cond_destroy of object, and that the
// reports name both calls.
func syncCallsAreNamed(t *testing.T, path, object string) {
	res := analyzeWithFewSchedules(t, path)
	found := false
	for _, r := range res.Races {
		calls := map[string]bool{r.First.Call: true, r.Second.Call: true}
		if !calls["pthread_cond_signal"] || !calls["pthread_cond_destroy"] {
			continue
		}
		found = true
		if r.Object != object {
			t.Errorf("the race is on %q, want %q", r.Object, object)
		}
	}
	if !found {
		t.Fatalf("no race between pthread_cond_signal and pthread_cond_destroy: %d races", len(res.Races))
	}
	var text bytes.Buffer
	if err := report.WriteText(&text, report.FromResult(res, "")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"by thread 1 (worker), in pthread_cond_signal:", "by thread 0 (main), in pthread_cond_destroy:"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
	for _, r := range res.Races {
		for _, e := range []race.Endpoint{r.First, r.Second} {
			if e.Kind == vm.Free && e.Call != "" {
				t.Errorf("the free at line %d is named %q: a free is no synchronization call", e.Loc.Line, e.Call)
			}
		}
	}
}

// A harmless race with a destroy says that POSIX leaves it undefined:
// destroy_early.c's destroys change nothing glibc's later uses notice.
func TestHarmlessDestroySaysPOSIXLeavesItUndefined(t *testing.T) {
	rep := report.FromResult(analyzeWithFewSchedules(t, "../testdata/race/destroy_early.c"), "")
	if len(rep.Races) == 0 {
		t.Fatal("no race")
	}
	for _, r := range rep.Races {
		if r.Category != string(classify.Harmless) {
			t.Errorf("race on %s is %s, want k-witness-harmless", r.Object, r.Category)
			continue
		}
		if !strings.Contains(r.Consequence, "POSIX leaves a use of the object after ") {
			t.Errorf("race on %s: %q says nothing of POSIX", r.Object, r.Consequence)
		}
	}
}

// analyzeWithFewSchedules analyzes the program at path with three base
// schedules, enough for the small programs that check what reports say.
func analyzeWithFewSchedules(t *testing.T, path string) *analyzer.Result {
	t.Helper()
	opts := options(path)
	opts.Schedules = 3
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
