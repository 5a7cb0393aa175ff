package analyzer_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/tsan"
	"augur/analyzer/output/report"
)

// tsanLog builds a program with ThreadSanitizer, runs it natively (capped)
// and returns what ThreadSanitizer printed, read as warnings numbered from
// first.
func tsanLog(t *testing.T, src, dir string, first int, args ...string) []tsan.Warning {
	t.Helper()
	cc := "clang-14"
	if strings.HasSuffix(src, ".cpp") {
		cc = "clang++-14"
	}
	bin := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"-tsan")
	if out, err := exec.Command(cc, "-g", "-O1", "-fsanitize=thread", "-pthread", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("%s -fsanitize=thread: %v\n%s", cc, err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stderr = &stderr
	_ = cmd.Run() // ThreadSanitizer exits 66 when it warned
	if strings.Contains(stderr.String(), "FATAL: ThreadSanitizer") {
		// The machine, not augur: clang 14's runtime cannot start under
		// some kernels' address-space randomization.
		t.Skipf("ThreadSanitizer cannot run here: %s", strings.TrimSpace(stderr.String()))
	}
	ws, err := tsan.Parse(&stderr, filepath.Base(bin)+".log", first)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	return ws
}

// Programs of the corpus built with -fsanitize=thread and run natively:
// their ThreadSanitizer warnings, fed back, are each either a race of the
// analysis, with the category augur's own detection gives the same race,
// or reported as not reproduced with a reason; none is dropped. The
// inline-assembly spinlock of asm_spinlock.c is lost on ThreadSanitizer,
// which reports the balance it guards: augur's schedule cannot bring the
// two accesses together past the lock, and says so. testdata/tsan's
// destroy_in_use.c has a mutex destroyed against a lock, which both
// detectors count as a write and a read of the mutex.
func TestTSanWarningsClassified(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"counter.c", "check_then_act.c", "mixed_sizes.c", "asm_spinlock.c", "same_line.c", "cpp_counter.cpp",
		"../tsan/destroy_in_use.c"} {
		t.Run(name, func(t *testing.T) {
			path := "../testdata/race/" + name
			prog := mustLoad(t, path)
			ws := tsanLog(t, path, dir, 1)
			analyze := func(ws []tsan.Warning) *analyzer.Result {
				opts := options(path)
				opts.ExploreTime, opts.TSan = analyzer.ExploreSetting(0), ws
				res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			own, with := analyze(nil), analyze(ws)
			category := map[string]string{}
			for i, r := range own.Races {
				category[r.ID] = string(own.Verdicts[i].Category)
			}
			seen := map[int]bool{}
			for i, r := range with.Races {
				for _, w := range with.TSan[r] {
					seen[w] = true
					if c, ok := category[r.ID]; ok && c != string(with.Verdicts[i].Category) {
						t.Errorf("warning %d: race %s is %s, augur's own detection says %s", w, r.ID, with.Verdicts[i].Category, c)
					}
				}
			}
			for _, m := range with.TSanMissed {
				if m.Reason == "" {
					t.Errorf("warnings %v missed without a reason", m.Warnings)
				}
				for _, w := range m.Warnings {
					seen[w] = true
				}
				t.Logf("not reproduced: %v %s / %s: %s", m.Warnings, m.First, m.Second, m.Reason)
			}
			for _, w := range ws {
				if !seen[w.Index] {
					t.Errorf("warning %d (%s:%d) is neither a race nor reported missed", w.Index, w.Source, w.Line)
				}
			}
			if name == "asm_spinlock.c" {
				if len(with.TSanMissed) != 1 || !strings.Contains(with.TSanMissed[0].Reason, "never reached together") {
					t.Errorf("the spinlock-guarded balance: %+v, want one warning not reproduced, the lock keeping the accesses apart", with.TSanMissed)
				}
			} else if len(with.TSanMissed) != 0 {
				t.Errorf("%d warnings not reproduced", len(with.TSanMissed))
			}
		})
	}
}

// The same race in two logs (two CI test binaries) is one race with both
// warnings; a log of a source edited since (a line added inside the
// function) still finds it; a truncated warning is reported with why.
func TestTSanLogsDeduplicatedAndEdited(t *testing.T) {
	dir := t.TempDir()
	ws := tsanLog(t, "../testdata/race/counter.c", dir, 1)
	more := tsanLog(t, "../testdata/race/counter.c", dir, len(ws)+1)
	src, err := os.ReadFile("../testdata/race/counter.c")
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "counter.c")
	text := strings.Replace(string(src), "\t(void)arg;\n", "\t(void)arg;\n\t/* an edit after the CI run */\n", 1)
	if err := os.WriteFile(edited, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := ws[0]
	cut.Index, cut.Accesses, cut.Truncated = len(ws)+len(more)+1, cut.Accesses[:1], true
	all := append(append(append([]tsan.Warning(nil), ws...), more...), cut)
	opts := options(edited)
	opts.ExploreTime, opts.TSan = analyzer.ExploreSetting(0), all
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, edited), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Races) != 1 {
		t.Fatalf("%d races, want counter.c's one", len(res.Races))
	}
	if got := res.TSan[res.Races[0]]; len(got) != len(ws)+len(more) {
		t.Errorf("the race stands for warnings %v, want all %d of both logs", got, len(ws)+len(more))
	}
	if len(res.TSanMissed) != 1 || res.TSanMissed[0].Warnings[0] != cut.Index || !strings.Contains(res.TSanMissed[0].Reason, "cut short") {
		t.Errorf("the truncated warning: %+v", res.TSanMissed)
	}
	rep := report.FromResult(res, "")
	if rep.Races[0].TSan == nil || len(rep.TSanUnreproduced) != 1 {
		t.Errorf("the report: tsan %v, unreproduced %v", rep.Races[0].TSan, rep.TSanUnreproduced)
	}
}

// A race ThreadSanitizer saw on an input the analysis was not given: with
// the inputs kept as given (--sym-inputs none), the directed schedule on
// the analysis's own inputs cannot reach it, and the report says so; with
// the inputs explored around the given ones (the default) or a symbolic
// argument, the schedule directed on the explored inputs reaches it, and
// the race is classified on that input.
func TestTSanRaceOnExploredInput(t *testing.T) {
	path := "../testdata/tsan/input_race.c"
	ws := tsanLog(t, path, t.TempDir(), 1, "-v")
	if len(ws) != 1 {
		t.Fatalf("%d ThreadSanitizer warnings with -v, want 1", len(ws))
	}
	prog := mustLoad(t, path)
	analyze := func(symArgs []int, symInputs string) *analyzer.Result {
		opts := options(path)
		opts.ExploreTime, opts.TSan, opts.SymArgs, opts.SymInputs = analyzer.ExploreSetting(0), ws, symArgs, symInputs
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	plain := analyze(nil, analyzer.SymInputsNone)
	if len(plain.TSanMissed) != 1 || !strings.Contains(plain.TSanMissed[0].Reason, "never reached together") {
		t.Errorf("without inputs to explore: missed %+v", plain.TSanMissed)
	}
	for name, res := range map[string]*analyzer.Result{"by default": analyze(nil, ""), "with a symbolic argument": analyze([]int{2}, "")} {
		if len(res.TSanMissed) != 0 || len(res.Races) != 1 || len(res.TSan[res.Races[0]]) != 1 {
			t.Fatalf("%s: races %d, missed %+v", name, len(res.Races), res.TSanMissed)
		}
		if v := res.Verdicts[0]; v == nil || v.Inputs == nil {
			t.Errorf("%s: the race's verdict does not carry the explored input it needs: %+v", name, v)
		}
	}
}

// A warning whose earlier access is an unlock, ThreadSanitizer's last
// record of the worker's use of a mutex main then destroys (as ctrace's
// trc_end against trc_trace): augur counts the lock that opened that
// critical section, so the warning is that race's, not one "never
// reached together". The log is written here in ThreadSanitizer's layout
// (a native run reports the lock instead when nothing else releases in
// between, as TestTSanWarningsClassified's run of the same program does).
func TestTSanUnlockIsTheCriticalSectionsLock(t *testing.T) {
	path := "../testdata/tsan/destroy_in_use.c"
	log := `WARNING: ThreadSanitizer: data race (pid=1)
  Write of size 1 at 0x5600 by main thread:
    #0 pthread_mutex_destroy <null> (prog+0x52d3a)
    #1 main /ci/src/testdata/tsan/destroy_in_use.c:31:2 (prog+0xd0122)

  Previous atomic read of size 1 at 0x5600 by thread T1:
    #0 pthread_mutex_unlock <null> (prog+0x6f11a)
    #1 worker /ci/src/testdata/tsan/destroy_in_use.c:21:2 (prog+0xd01b6)

SUMMARY: ThreadSanitizer: data race in pthread_mutex_destroy
`
	ws, err := tsan.Parse(strings.NewReader(log), "ci.log", 1)
	if err != nil {
		t.Fatal(err)
	}
	opts := options(path)
	opts.ExploreTime, opts.TSan = analyzer.ExploreSetting(0), ws
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.TSanMissed) != 0 {
		t.Fatalf("the unlock's warning was not reproduced: %+v", res.TSanMissed)
	}
	for _, r := range res.Races {
		if len(res.TSan[r]) == 0 {
			continue
		}
		lines := []int{r.First.Loc.Line, r.Second.Loc.Line}
		slices.Sort(lines)
		if lines[0] != 18 || lines[1] != 31 {
			t.Errorf("warning 1 given to the race of lines %v, want the lock's (18) against the destroy (31)", lines)
		}
		return
	}
	t.Error("no race carries the warning")
}
