package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"augur/analyzer/output/report"
)

var augurBin string

// TestMain builds the augur binary once; the tests run it as a user would.
func TestMain(m *testing.M) {
	if spec := os.Getenv(natsEnv); spec != "" {
		serveNATS(spec) // a NATS server process for the farm tests
		return
	}
	dir, err := os.MkdirTemp("", "augur-cli-")
	if err != nil {
		panic(err)
	}
	augurBin = filepath.Join(dir, "augur")
	build := exec.Command("go", "build", "-o", augurBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build augur: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func augur(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	r := runAugur(t, stdin, args...)
	return r.stdout, r.stderr, r.code
}

// augurRun is what one run of the augur binary did.
type augurRun struct {
	stdout, stderr string
	code           int
	rss            uint64 // peak resident memory, in bytes
}

// runAugur runs the augur binary with stdin, keeping the first megabyte of
// each output stream (a program that prints for ever must not fill the
// test's memory).
func runAugur(t *testing.T, stdin string, args ...string) augurRun {
	t.Helper()
	return runAugurIn(t, "", stdin, args...)
}

// runAugurIn is runAugur in the directory dir ("": the test's).
func runAugurIn(t *testing.T, dir, stdin string, args ...string) augurRun {
	t.Helper()
	cmd := exec.Command(augurBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+filepath.Join(os.TempDir(), "augur-cli-test-cache"))
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limitedWriter{w: &so, n: 1 << 20}, &limitedWriter{w: &se, n: 1 << 20}
	err := cmd.Run()
	r := augurRun{}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = uint64(ru.Maxrss) << 10
	}
	r.stdout, r.stderr = so.String(), se.String()
	return r
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func TestRunPassesArgsAndExitStatus(t *testing.T) {
	out, _, code := augur(t, "", "run", "../../testdata/run/args_env.c", "--", "x", "y")
	if code != 3 || !strings.Contains(out, "argv[2] = y (1)") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestRunCrashReportsAndExitsLikeASignal(t *testing.T) {
	_, errOut, code := augur(t, "", "run", "../../testdata/crash/heap_oob.c")
	if code != 128+11 {
		t.Fatalf("exit %d, want 139", code)
	}
	for _, want := range []string{"augur: crash: out of bounds heap access", "heap_oob.c:8", "#0 main"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("report lacks %q:\n%s", want, errOut)
		}
	}
}

func TestRunBudgetStopsLoop(t *testing.T) {
	_, errOut, code := augur(t, "", "run", "--max-instructions", "100000", "../../testdata/crash/count_forever.c")
	if code != 124 || !strings.Contains(errOut, "instruction budget of 100000 exhausted") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	_, errOut, code = augur(t, "", "run", "--max-instructions", "100000", "../../testdata/crash/infinite_loop.c")
	if code != 124 || !strings.Contains(errOut, "augur: hang: the program loops forever") || !strings.Contains(errOut, "thread 0 at") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	_, errOut, code = augur(t, "", "run", "--timeout", "200ms", "../../testdata/crash/count_forever.c")
	if code != 124 || !strings.Contains(errOut, "time budget of 200ms exhausted") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
}

func TestRunCompileErrorShowsClang(t *testing.T) {
	src := filepath.Join(t.TempDir(), "broken.c")
	os.WriteFile(src, []byte("int main(void) { return nope; }\n"), 0o644)
	_, errOut, code := augur(t, "", "run", src)
	if code != 1 || !strings.Contains(errOut, "broken.c:1:25: error: use of undeclared identifier 'nope'") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
}

// A program that does not compile gets a JSON or SARIF report that says
// so, with the compiler's diagnostics, beside clang's output on stderr:
// a tool reading the report is not left with nothing.
func TestAnalyzeCompileErrorIsInTheReport(t *testing.T) {
	src := filepath.Join(t.TempDir(), "broken.c")
	os.WriteFile(src, []byte("int main(void) { return nope; }\n"), 0o644)
	out, errOut, code := augur(t, "", "analyze", "--format", "json", src)
	if code != 1 || !strings.Contains(errOut, "use of undeclared identifier 'nope'") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("no JSON report: %v\n%s", err, out)
	}
	if e := rep.Error; e == nil || e.Stage != "compile" || len(e.Diagnostics) == 0 || e.Diagnostics[0].Line != 1 ||
		e.Diagnostics[0].Column != 25 || !strings.Contains(e.Diagnostics[0].Message, "nope") || rep.Races == nil {
		t.Errorf("report: %s", out)
	}
	out, _, code = augur(t, "", "analyze", "--format", "sarif", src)
	if code != 1 || !strings.Contains(out, `"executionSuccessful": false`) || !strings.Contains(out, "undeclared identifier") {
		t.Errorf("SARIF, exit %d:\n%s", code, out)
	}
	out, _, code = augur(t, "", "analyze", "--format", "json", filepath.Join(t.TempDir(), "missing.c"))
	if code != 1 || !strings.Contains(out, `"stage": "load"`) {
		t.Errorf("a missing source, exit %d:\n%s", code, out)
	}
}

func TestRunTraceAndReplay(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.json")
	prog := "../../testdata/sched/interleave.c"
	out1, _, code := augur(t, "", "run", "--schedule", "random", "--seed", "5", "--trace", trace, prog)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	out2, _, code := augur(t, "", "run", "--replay", trace, prog)
	if code != 0 || out1 != out2 {
		t.Fatalf("replay: exit %d, %q vs %q", code, out2, out1)
	}
}

// Under PCT, threads that loop over a lock take turns of FairPoints
// points each: the trace stores one round of turns however many rounds
// there are (sched's groups), and replays from its file.
func TestPCTTraceOfTurnsStaysSmall(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.json")
	prog := "../../testdata/bench/parallel_sum.c"
	out1, _, code := augur(t, "", "run", "--schedule", "pct", "--trace", trace, prog, "--", "200000")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Events []json.RawMessage }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Events) > 200 {
		t.Errorf("the trace of 400,000 decisions stores %d events", len(file.Events))
	}
	out2, _, code := augur(t, "", "run", "--replay", trace, prog, "--", "200000")
	if code != 0 || out1 != out2 {
		t.Fatalf("replay: exit %d, %q vs %q", code, out2, out1)
	}
}

func TestRunReadsStdin(t *testing.T) {
	out, _, code := augur(t, "ab\ncd", "run", "../../testdata/run/stdin_echo.c")
	if code != 0 || !strings.HasPrefix(out, "[AB\n][CD]") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	if _, _, code := augur(t, "", "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	if _, _, code := augur(t, "", "run"); code != 2 {
		t.Errorf("run without files: exit %d", code)
	}
	if _, _, code := augur(t, "", "run", "--schedule", "chaos", "x.c"); code != 2 {
		t.Errorf("bad schedule: exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := augur(t, "", "version")
	if code != 0 || !strings.Contains(out, "llvm:  14.") || !strings.Contains(out, "clang-14") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestAnalyzeJSONReport(t *testing.T) {
	out, errOut, code := augur(t, "", "analyze", "--detect-only", "--format", "json", "../../testdata/race/heap_fields.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Version int `json:"version"`
		Races   []struct {
			ID       string `json:"id"`
			Category string `json:"category"`
			Object   string `json:"object"`
			Accesses []struct {
				File   string `json:"file"`
				Line   int    `json:"line"`
				Kind   string `json:"kind"`
				Thread int    `json:"thread"`
				Stack  []struct {
					Function string `json:"function"`
				} `json:"stack"`
			} `json:"accesses"`
		} `json:"races"`
		Stats struct {
			Schedules int `json:"schedules"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Version != 1 || len(rep.Races) != 1 || rep.Stats.Schedules < 5 {
		t.Fatalf("%+v", rep)
	}
	r := rep.Races[0]
	if r.Category != "unclassified" || len(r.ID) != 12 || len(r.Accesses) != 2 || r.Accesses[0].Line != 17 ||
		!strings.HasSuffix(r.Accesses[0].File, "heap_fields.c") || r.Accesses[0].Stack[0].Function != "worker" {
		t.Fatalf("%+v", r)
	}
}

// Each classified race says how long its classification took, which the
// whole analysis's time includes.
func TestAnalyzeJSONReportsClassificationTime(t *testing.T) {
	out, errOut, code := augur(t, "", "analyze", "--explore-time", "0", "--format", "json", "../../testdata/race/heap_fields.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Races []struct {
			Category string  `json:"category"`
			Seconds  float64 `json:"classify_seconds"`
		} `json:"races"`
		Stats struct {
			Seconds float64 `json:"seconds"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Races) == 0 {
		t.Fatalf("no race:\n%s", out)
	}
	for _, r := range rep.Races {
		if r.Category == "unclassified" || r.Seconds <= 0 || r.Seconds > rep.Stats.Seconds {
			t.Errorf("race classified %s in %g s, of an analysis of %g s", r.Category, r.Seconds, rep.Stats.Seconds)
		}
	}
}

func TestAnalyzeSARIFHasThreadFlows(t *testing.T) {
	out, _, code := augur(t, "", "analyze", "--detect-only", "--format", "sarif", "../../testdata/race/counter.c")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				CodeFlows []struct {
					ThreadFlows []struct {
						Locations []struct {
							Location struct {
								PhysicalLocation struct {
									Region struct {
										StartLine int `json:"startLine"`
									} `json:"region"`
								} `json:"physicalLocation"`
							} `json:"location"`
						} `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "augur" {
		t.Fatalf("%+v", log)
	}
	res := log.Runs[0].Results
	if len(res) != 1 || res[0].RuleID != "data-race" || len(res[0].CodeFlows[0].ThreadFlows) != 2 ||
		res[0].CodeFlows[0].ThreadFlows[1].Locations[0].Location.PhysicalLocation.Region.StartLine != 11 {
		t.Fatalf("%+v", res)
	}
}

func TestAnalyzeFailOnAndUsage(t *testing.T) {
	if _, _, code := augur(t, "", "analyze", "--detect-only", "--fail-on", "unclassified", "../../testdata/race/counter.c"); code != 3 {
		t.Errorf("--fail-on with a race: exit %d, want 3", code)
	}
	if _, _, code := augur(t, "", "analyze", "--detect-only", "--fail-on", "unclassified", "../../testdata/run/mutex_counter.c"); code != 0 {
		t.Errorf("--fail-on without races: exit %d, want 0", code)
	}
	out, _, code := augur(t, "", "analyze", "../../testdata/race/counter.c")
	if code != 0 || !strings.Contains(out, "data race on hits (output-differs)") {
		t.Errorf("analyze classifies: exit %d\n%s", code, out)
	}
	if _, _, code := augur(t, "", "analyze", "--fail-on", "spec-violated,output-differs", "../../testdata/race/counter.c"); code != 3 {
		t.Errorf("--fail-on output-differs: exit %d, want 3", code)
	}
	if _, _, code := augur(t, "", "analyze", "--fail-on", "spec-violated", "../../testdata/race/ad_hoc_flag.c"); code != 0 {
		t.Errorf("--fail-on spec-violated on single-ordering races: exit %d, want 0", code)
	}
	out, _, code = augur(t, "", "analyze", "--detect-only", "../../testdata/crash/deadlock.c")
	if code != 0 || !strings.Contains(out, "ERROR: augur: deadlock") || !strings.Contains(out, "waiting for mutex") {
		t.Errorf("deadlock report: exit %d\n%s", code, out)
	}
}

// A failure found with symbolic inputs comes with inputs that replay it.
func TestSymbolicFailureReplays(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := augur(t, "", "analyze", "--detect-only", "--format", "json", "--sym-arg", "4",
		"--evidence-dir", dir, "../../testdata/symex/magic_word.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Failures []struct {
			Kind   string `json:"kind"`
			Line   int    `json:"line"`
			Inputs struct {
				Args []string `json:"args"`
			} `json:"inputs"`
			Evidence string `json:"evidence"`
		} `json:"failures"`
		Stats struct {
			Paths int `json:"paths"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Kind != "memory-error" || rep.Failures[0].Line != 9 ||
		len(rep.Failures[0].Inputs.Args) != 1 || rep.Failures[0].Inputs.Args[0] != "bug!" || rep.Stats.Paths != 5 {
		t.Fatalf("%+v", rep)
	}
	_, errOut, code = augur(t, "", "run", "--inputs", rep.Failures[0].Evidence, "../../testdata/symex/magic_word.c")
	if code != 139 || !strings.Contains(errOut, "magic_word.c:9") {
		t.Fatalf("replay: exit %d\n%s", code, errOut)
	}
}

// A failure the exploration of inputs finds on a shorter argument than
// the analysis's own is reported once, however many short arguments reach
// it (each puts the read at another offset before the buffer), and its
// evidence replays it on the short argument it names.
func TestExploredArgumentFailureReplays(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/symex/short_suffix.c"
	out, errOut, code := augur(t, "", "analyze", "--detect-only", "--format", "json", "--evidence-dir", dir, src, "--", "input.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Failures []struct {
			Message, Evidence string
			Line              int
			Inputs            struct{ Args []string }
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 1 {
		t.Fatalf("%d failures, want the one out-of-bounds read: %+v", len(rep.Failures), rep.Failures)
	}
	f := rep.Failures[0]
	if f.Line != 16 || !strings.Contains(f.Message, "out of bounds") || len(f.Inputs.Args) != 1 || len(f.Inputs.Args[0]) >= 4 {
		t.Fatalf("failure %+v, want the out-of-bounds read at line 16 on an argument shorter than \".txt\"", f)
	}
	if f.Evidence == "" || strings.HasSuffix(f.Evidence, "-inputs.json") {
		t.Fatalf("failure %+v has no schedule to replay", f)
	}
	out, errOut, code = augur(t, "", "replay", f.Evidence)
	if code != 0 || strings.Contains(out, "NOT REPRODUCED") {
		t.Errorf("replay of %s (%s): exit %d\n%s%s", f.Evidence, f.Message, code, out, errOut)
	}
}

// A number scanf reads from standard input stays symbolic in the
// exploration of inputs (the default makes the given input's first bytes
// symbolic): a failure in a narrow window of values is found, and its
// evidence replays on the standard input it names.
func TestScanfNumberIsExplored(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("1234\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := augur(t, "", "analyze", "--detect-only", "--format", "json", "--stdin", in, "--evidence-dir", dir,
		"../../testdata/symex/scanf_window.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Failures []struct {
			Kind, Message, Evidence string
			Inputs                  struct{ Stdin string }
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Kind != "assert" {
		t.Fatalf("failures %+v, want the assertion in the window", rep.Failures)
	}
	f := rep.Failures[0]
	digits := strings.TrimRight(f.Inputs.Stdin, "\n")
	if n, err := strconv.Atoi(digits); err != nil || n <= 1000 || n >= 1010 {
		t.Fatalf("standard input %q does not hold a number in the window", f.Inputs.Stdin)
	}
	out, errOut, code = augur(t, "", "replay", f.Evidence)
	if code != 0 || strings.Contains(out, "NOT REPRODUCED") {
		t.Fatalf("replay of %s: exit %d\n%s%s", f.Evidence, code, out, errOut)
	}
}

func TestSymbolicStdinFailureReplays(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := augur(t, "", "analyze", "--detect-only", "--sym-stdin", "8", "--evidence-dir", dir,
		"../../testdata/symex/stdin_line.c")
	if code != 0 || !strings.Contains(out, "ERROR: augur: assert: augur_assert failed: dangerous command") ||
		!strings.Contains(out, "EXPLORATION:") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	evs, _ := filepath.Glob(filepath.Join(dir, "failure-assert-*.json"))
	if len(evs) != 1 {
		t.Fatalf("evidence files %v", evs)
	}
	if !strings.Contains(out, "Replay: augur replay "+evs[0]) {
		t.Errorf("the text report does not say how to replay the failure:\n%s", out)
	}
	_, errOut, code = augur(t, "", "run", "--inputs", evs[0], "../../testdata/symex/stdin_line.c")
	if code != 134 || !strings.Contains(errOut, "dangerous command") {
		t.Fatalf("run --inputs: exit %d\n%s", code, errOut)
	}
	out, errOut, code = augur(t, "", "replay", evs[0])
	if code != 0 || !strings.Contains(out, "augur replay: assert at") || strings.Contains(out, "NOT REPRODUCED") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errOut)
	}
}

// A failure only an explored schedule reaches gets evidence that augur
// replay runs again step by step, from any directory, with the same
// output: the analysis named the program by a relative path, which the
// program's assert message prints.
func TestExploredFailureReplays(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/explore/check_then_act.c"
	out, errOut, code := augur(t, "", "analyze", "--detect-only", "--format", "json", "--evidence-dir", dir, src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Failures []struct {
			Kind, Schedule, Evidence string
			Line                     int
		} `json:"failures"`
		Stats struct {
			Exploration *struct {
				Schedules int    `json:"schedules"`
				Ended     string `json:"ended"`
			} `json:"exploration"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Kind != "assert" || rep.Failures[0].Line != 27 || rep.Failures[0].Evidence == "" {
		t.Fatalf("failures: %+v", rep.Failures)
	}
	if x := rep.Stats.Exploration; x == nil || x.Schedules == 0 || x.Ended == "" {
		t.Fatalf("exploration stats: %+v", x)
	}
	for _, format := range []string{"text", "html"} {
		cmd := exec.Command(augurBin, "replay", "--format", format, rep.Failures[0].Evidence)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+filepath.Join(os.TempDir(), "augur-cli-test-cache"))
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("replay --format %s: %v\n%s", format, err, got)
		}
		for _, want := range []string{"assert", "check_then_act.c:27"} {
			if !strings.Contains(string(got), want) {
				t.Errorf("replay --format %s does not say %q:\n%s", format, want, got)
			}
		}
		if format == "html" && !strings.Contains(string(got), "balance = seen - amount") {
			t.Errorf("the timeline does not show the accesses the schedule switched at:\n%s", got)
		}
	}
}

// --memory-model weak reaches classification and the JSON report; an
// unknown model is a usage error.
func TestAnalyzeMemoryModel(t *testing.T) {
	out, errOut, code := augur(t, "", "analyze", "--memory-model", "weak", "--format", "json", "../../testdata/weak/no_sync_bug.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		MemoryModel string `json:"memory_model"`
		Races       []struct {
			Category  string            `json:"category"`
			WeakReads []json.RawMessage `json:"weak_reads"`
		} `json:"races"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	violated := 0
	for _, r := range rep.Races {
		if r.Category == "spec-violated" && len(r.WeakReads) > 0 {
			violated++
		}
	}
	if rep.MemoryModel != "weak" || violated == 0 {
		t.Errorf("memory model %q, %d spec-violated races with weak reads: %s", rep.MemoryModel, violated, out)
	}
	if _, errOut, code := augur(t, "", "analyze", "--memory-model", "tso", "../../testdata/weak/sync.c"); code != 2 ||
		!strings.Contains(errOut, "want one of sc, weak") {
		t.Errorf("--memory-model tso: exit %d, %s", code, errOut)
	}
}

func TestAnalyzeUndefinedFunctionIsIncomplete(t *testing.T) {
	type gapReport struct {
		Races []struct {
			Object string `json:"object"`
		} `json:"races"`
		Failures   []any `json:"failures"`
		Incomplete []struct {
			Kind     string `json:"kind"`
			Function string `json:"function"`
			Line     int    `json:"line"`
		} `json:"incomplete"`
		Havoc []string `json:"havoc"`
	}
	src := "../../testdata/incomplete/undefined_call.c"
	out, errOut, code := augur(t, "", "analyze", "--format", "json", src)
	if code != exitBudget {
		t.Fatalf("exit %d, want %d (incomplete): %s", code, exitBudget, errOut)
	}
	var rep gapReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Incomplete) != 1 || rep.Incomplete[0].Kind != "unsupported" || rep.Incomplete[0].Function != "checksum" ||
		rep.Incomplete[0].Line != 23 || len(rep.Failures) != 0 || len(rep.Races) != 0 {
		t.Fatalf("want one unsupported gap at checksum's call, no failure, no race: %s", out)
	}
	text, _, _ := augur(t, "", "analyze", src)
	if !strings.Contains(text, "INCOMPLETE: augur: call to external function 'checksum'") || !strings.Contains(text, "--undefined=havoc") {
		t.Errorf("text report does not say the analysis is incomplete:\n%s", text)
	}
	sarif, _, _ := augur(t, "", "analyze", "--format", "sarif", src)
	if !strings.Contains(sarif, `"incomplete": true`) || !strings.Contains(sarif, `"ruleId": "incomplete"`) {
		t.Errorf("SARIF does not mark the run incomplete:\n%s", sarif)
	}

	out, errOut, code = augur(t, "", "analyze", "--undefined=havoc", "--format", "json", src)
	if code != 0 {
		t.Fatalf("havoc: exit %d: %s", code, errOut)
	}
	rep = gapReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Incomplete) != 0 || len(rep.Havoc) != 1 || rep.Havoc[0] != "checksum" || len(rep.Races) != 1 || rep.Races[0].Object != "total" {
		t.Fatalf("havoc: want the race on total and checksum listed as havocked: %s", out)
	}
	if _, errOut, code := augur(t, "", "analyze", "--undefined=maybe", src); code != 2 || !strings.Contains(errOut, "want one of stop, havoc") {
		t.Errorf("bad --undefined: exit %d: %s", code, errOut)
	}
}

// A program that reads its inputs through __VERIFIER_nondet_* has them
// explored without any --sym-* flag: the failure needs x=7 and y=29.
func TestNondetInputsAreExploredWithoutFlags(t *testing.T) {
	src := filepath.Join(t.TempDir(), "nondet.c")
	prog := "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n" +
		"int main(void) { int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(); if (x == 7 && y == 29) assert(0); return 0; }\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := augur(t, "", "analyze", src)
	if !strings.Contains(out, "assertion `0' failed") || !strings.Contains(out, "nondet_int=7 nondet_int_2=29") {
		t.Fatalf("the failing inputs were not found:\n%s%s", out, errOut)
	}
}

// C++ code written against gcc falls off the end of functions that
// return a value (a thread function that returns nothing): clang traps
// there, and --cflag=-fno-strict-return runs it as gcc's build does.
func TestNoStrictReturn(t *testing.T) {
	src := filepath.Join(t.TempDir(), "worker.cpp")
	os.WriteFile(src, []byte(`#include <pthread.h>
#include <stdio.h>
static int done;
void *worker(void *) { done = 1; }
int main() {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	printf("done %d\n", done);
}
`), 0o644)
	if out, errOut, code := augur(t, "", "run", src); code == 0 || strings.Contains(out, "done") || !strings.Contains(errOut, "trap at the end of worker") {
		t.Errorf("strict return: exit %d, %q, want the trap\n%s", code, out, errOut)
	}
	if out, errOut, code := augur(t, "", "run", "--cflag=-fno-strict-return", src); code != 0 || out != "done 1\n" {
		t.Errorf("-fno-strict-return: exit %d, %q\n%s", code, out, errOut)
	}
}

// The command line compiles as the editor can: -U, -include, -isystem,
// -std and any allowed flag through --cflag, checked by the same
// allow-list; --stdin gives the program a file as its standard input, in
// run and in analyze.
func TestCompileFlagsAndStdin(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "flags.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
#ifndef FROM_HEADER
#error the -include header was not included
#endif
#ifdef GONE
#error -U did not undefine GONE
#endif
int main(void) {
	char line[64];
	if (!fgets(line, sizeof line, stdin))
		return 3;
	printf("read: %s", line);
	return 0;
}
`), 0o644)
	os.WriteFile(filepath.Join(dir, "pre.h"), []byte("#define FROM_HEADER 1\n"), 0o644)
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("from a file\n"), 0o644)
	pre := filepath.Join(dir, "pre.h")
	out, errOut, code := augur(t, "from the terminal\n", "run", "-include", pre, "-D", "GONE", "-U", "GONE", "-std=c11",
		"--cflag=-fno-builtin", "--stdin", in, src)
	if code != 0 || out != "read: from a file\n" {
		t.Errorf("run: exit %d, %q\n%s", code, out, errOut)
	}
	if _, errOut, code := augur(t, "", "run", "--cflag=-fplugin=/tmp/x.so", src); code != 2 || !strings.Contains(errOut, "-fplugin") {
		t.Errorf("a refused flag: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := augur(t, "", "run", "--stdin", "/dev/zero", src); code != 2 || !strings.Contains(errOut, "character device") {
		t.Errorf("--stdin /dev/zero: exit %d\n%s", code, errOut)
	}
	out, errOut, code = augur(t, "", "analyze", "--format", "json", "-include", pre, "-U", "GONE", "--stdin", in, src)
	if code != 0 || !strings.Contains(out, `"races"`) {
		t.Errorf("analyze: exit %d\n%s\n%s", code, out, errOut)
	}
}

// augur run and analyze build an augur.toml target as the editor does:
// --target NAME from the directory or below it, or the one target that
// lists the files given; its compile flags, arguments, standard input,
// files and environment, with the command's own flags over them.
func TestTargetFromAugurToml(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src", "inc"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "inc", "greet.h"), []byte("#define GREETING \"hello\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "main.c"), []byte(`#include <stdio.h>
#include <stdlib.h>
#include "greet.h"
const char *who(void);
int main(int argc, char **argv) {
	char line[32] = "";
	fgets(line, sizeof line, stdin);
	FILE *f = fopen("data.txt", "r");
	char data[32] = "";
	if (f) fgets(data, sizeof data, f);
	printf("%s %s %s from %s; stdin %s; data %s; mode %s\n", GREETING, argc > 1 ? argv[1] : "?", who(), argv[0],
		line, data, getenv("MODE"));
	return 0;
}
`), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "who.c"), []byte("#ifndef WHO\n#error no WHO\n#endif\nconst char *who(void) { return WHO; }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "data.txt"), []byte("42"), 0o644)
	os.WriteFile(filepath.Join(dir, "augur.toml"), []byte(`[[target]]
name = "greeter"
sources = ["src/main.c", "src/who.c"]
include = ["src/inc"]
define = ["WHO=\"augur\""]
args = ["world"]
argv0 = "greeter"
stdin = "line"
files = ["data.txt"]
env = ["MODE=toml"]

[[target]]
name = "other"
sources = ["src/main.c"]
`), 0o644)
	sub := filepath.Join(dir, "src")
	run := func(stdin string, args ...string) (string, string, int) {
		t.Helper()
		r := runAugurIn(t, sub, stdin, args...) // augur.toml is found above
		return r.stdout, r.stderr, r.code
	}
	want := "hello world augur from greeter; stdin line; data 42; mode toml\n"
	if out, errOut, code := run("", "run", "--target", "greeter"); code != 0 || out != want {
		t.Errorf("run --target greeter: exit %d, %q\n%s", code, out, errOut)
	}
	// The files given pick the one target listing both; the command's
	// flags go over the target's.
	want = "hello there augur from greeter; stdin line; data 42; mode cli\n"
	out, errOut, code := run("", "run", "--env", "MODE=cli", "main.c", "who.c", "--", "there")
	if code != 0 || out != want || !strings.Contains(errOut, "building target greeter") {
		t.Errorf("run main.c who.c: exit %d, %q\n%s", code, out, errOut)
	}
	if _, errOut, code := run("", "run", "--target", "nope"); code != 2 || !strings.Contains(errOut, "no such target") {
		t.Errorf("an unknown target: exit %d\n%s", code, errOut)
	}
	if out, errOut, code := run("", "analyze", "--format", "json", "--target", "greeter"); code != 0 || !strings.Contains(out, `"races": []`) {
		t.Errorf("analyze --target greeter: exit %d\n%s\n%s", code, out, errOut)
	}
}

// gets, which C11 removed and glibc no longer links, still serves the
// old programs that call it: a line without its newline, NULL at the end.
func TestGetsReadsALine(t *testing.T) {
	src := filepath.Join(t.TempDir(), "gets.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
char *gets(char *s);
int main(void) {
	char line[64];
	while (gets(line))
		printf("[%s]\n", line);
	return 0;
}
`), 0o644)
	out, errOut, code := augur(t, "one\ntwo words\n\nlast", "run", src)
	if code != 0 || out != "[one]\n[two words]\n[]\n[last]\n" {
		t.Errorf("exit %d, %q\n%s", code, out, errOut)
	}
}

// Evidence records the compile flags the analysis built the program with:
// a program whose header sits in another directory (given relative, -I
// inc) replays from anywhere. Evidence asking for a flag augur.toml would
// refuse is refused.
func TestEvidenceReplaysWithTheBuildFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "inc"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "inc", "shared.h"), []byte("static int *slot;\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "uaf.c"), []byte(`#include <pthread.h>
#include <stdlib.h>
#include "shared.h"
static void *reader(void *arg) {
	(void)arg;
	if (slot)
		return (void *)(long)*slot;
	return NULL;
}
int main(void) {
	pthread_t t;
	slot = malloc(sizeof *slot);
	*slot = 1;
	pthread_create(&t, NULL, reader, NULL);
	free(slot);
	pthread_join(t, NULL);
	return 0;
}
`), 0o644)
	r := runAugurIn(t, dir, "", "analyze", "--explore-time", "0", "--format", "json", "--evidence-dir", "ev", "-I", "inc", "uaf.c")
	if r.code != 0 && r.code != 3 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	evs, _ := filepath.Glob(filepath.Join(dir, "ev", "*.json"))
	if len(evs) == 0 {
		t.Fatalf("no evidence written:\n%s", r.stdout)
	}
	for _, ev := range evs {
		if out, errOut, code := augur(t, "", "replay", ev); code != 0 {
			t.Errorf("replay %s: exit %d\n%s%s", filepath.Base(ev), code, out, errOut)
		}
	}
	data, err := os.ReadFile(evs[0])
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	prog := doc["program"].(map[string]any)
	if fl, _ := prog["flags"].([]any); len(fl) != 1 || fl[0] != "-Iinc" {
		t.Errorf("evidence records the flags %v, want [-Iinc]", prog["flags"])
	}
	prog["flags"] = []string{"-fplugin=/tmp/x.so"}
	data, _ = json.Marshal(doc)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, data, 0o644)
	if _, errOut, code := augur(t, "", "replay", bad); code != 1 || !strings.Contains(errOut, "compile flags") {
		t.Errorf("evidence asking for -fplugin: exit %d, %s", code, errOut)
	}
}

// The replay of a race found after 850,000 scheduling decisions (four
// threads taking a lock in turns) lists them in a few dozen rows, the
// rounds of the lock folded into one, and still replays the race: a row
// per decision was a transcript of 100 MB.
func TestReplayOfALongScheduleFolds(t *testing.T) {
	dir := t.TempDir()
	prog := "../../testdata/budget/long_replay.c"
	if _, errOut, code := augur(t, "", "analyze", "--explore-time", "0", "--evidence-dir", dir, prog); code != 0 {
		t.Fatalf("analyze: exit %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "race-*.json"))
	if len(files) != 1 {
		t.Fatalf("%d evidence files", len(files))
	}
	r := runAugur(t, "", "replay", files[0])
	if r.code != 0 || strings.Contains(r.stdout, "NOT REPRODUCED") || !strings.Contains(r.stdout, "more times (steps") {
		t.Fatalf("replay: exit %d\n%s", r.code, tail(r.stdout, 3000))
	}
	if lines := strings.Count(r.stdout, "\n"); lines > 200 {
		t.Errorf("the transcript has %d lines", lines)
	}
	if r.rss > 200<<20 {
		t.Errorf("the replay peaked at %d MiB", r.rss>>20)
	}
}
