package analyzer_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/exec/vm"
	"augur/internal/testutil"
)

// nativeRuns and tsanRuns are how often the baselines run each program.
const nativeRuns, tsanRuns = 100, 10

// BenchmarkExploreCorpus runs the annotated programs of testdata/explore
// through augur with the plan alone (the previous default, no
// exploration) and with the default exploration, and in the same run
// through 100 plain native executions and 10 ThreadSanitizer executions
// of each. It prints, per bug program, who reaches the bug (augur: the
// failure or a spec-violated race at its `bug:` line; native: a run that
// fails; TSan: a run that fails or reports a race), augur's time (median
// of 3) and its time to the first failure against a native run's
// (median), and its schedules per second;
// per must-not-harm program, any failure or harmful verdict augur gives.
// Targets: every bug reached with the defaults within 60 s, no false harm.
func BenchmarkExploreCorpus(b *testing.B) {
	dir := b.TempDir()
	var planFound, augurFound, nativeFound, tsanFound, bugs, falseHarm int
	var slowest time.Duration
	fmt.Printf("%-18s %-9s %-6s %-6s %-10s %-10s %-12s %-12s %-10s %-8s\n", "program", "expect", "plan", "augur", "native", "tsan",
		"augur time", "1st failure", "native", "sched/s")
	for _, f := range testutil.Programs("../testdata/explore") {
		want := readExploreExpect(b, f)
		if want.what == "race" {
			continue // recall, not harm: BenchmarkRecall's kind
		}
		prog := mustLoad(b, f)
		analyze := func(explore time.Duration) (*analyzer.Result, time.Duration) {
			opts := options(f)
			opts.Workers, opts.ExploreTime = 0, explore
			opts.Run.MaxMemory = 1 << 30
			start := time.Now()
			res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
			if err != nil {
				b.Fatal(err)
			}
			return res, time.Since(start)
		}
		plan, _ := analyze(-1)
		var res *analyzer.Result
		var times []time.Duration
		for rep := 0; rep < 3; rep++ {
			r, took := analyze(time.Minute)
			res, times = r, append(times, took)
		}
		took := medianOf(times)
		slowest = max(slowest, took)
		nativeFails, tsanHits, nativeTime := runBaselines(b, f, dir)
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		perSec := float64(res.Detection.Schedules) / res.Detection.Elapsed.Seconds()
		if want.what == "no harm" {
			harm := 0
			for _, fl := range res.Detection.Failures {
				if fl.Kind != vm.TermBudget { // a budget reached is a limit of the analysis
					harm++
				}
			}
			for _, v := range res.Verdicts {
				if v.Harmful() {
					harm++
				}
			}
			falseHarm += harm
			fmt.Printf("%-18s %-9s %-6s %-6d %-10s %-10s %-12v %-12s %-10v %-8.0f\n", name, "no harm", "-", harm, "-", "-",
				took.Round(time.Millisecond), "-", nativeTime.Round(time.Microsecond), perSec)
			continue
		}
		bugs++
		p, a := reachedBug(b, prog, plan, want, f), reachedBug(b, prog, res, want, f)
		planFound += b2i(p)
		augurFound += b2i(a)
		nativeFound += b2i(nativeFails > 0)
		tsanFound += b2i(tsanHits > 0)
		first := "-" // detection's first failure; a bug shown by a race's classification has none
		if t := res.Detection.FirstFailure; t > 0 {
			first = t.Round(time.Millisecond).String()
		}
		fmt.Printf("%-18s %-9s %-6v %-6v %3d/%-6d %2d/%-7d %-12v %-12s %-10v %-8.0f\n", name, want.what, p, a, nativeFails, nativeRuns,
			tsanHits, tsanRuns, took.Round(time.Millisecond), first, nativeTime.Round(time.Microsecond), perSec)
	}
	fmt.Printf("bugs reached: augur with exploration %d of %d, augur plan alone %d, native (%d runs) %d, ThreadSanitizer (%d runs, a failure or a race) %d\n",
		augurFound, bugs, planFound, nativeRuns, nativeFound, tsanRuns, tsanFound)
	fmt.Printf("false harm on the must-not programs: %d (target 0); slowest analysis %v (target <= 60s)\n", falseHarm, slowest.Round(time.Millisecond))
	b.ReportMetric(float64(augurFound), "found")
	b.ReportMetric(float64(bugs-augurFound), "missed")
	b.ReportMetric(float64(falseHarm), "false-harm")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// runBaselines builds f natively and with ThreadSanitizer, and counts the
// native runs that fail (a non-zero status, a signal, or no end within 2 s:
// a deadlock) and the TSan runs that fail or report a race; it returns
// the median native run's time too.
func runBaselines(b *testing.B, f, dir string) (nativeFails, tsanHits int, nativeTime time.Duration) {
	name := strings.TrimSuffix(filepath.Base(f), ".c")
	native, tsan := filepath.Join(dir, name), filepath.Join(dir, name+"-tsan")
	for _, args := range [][]string{{"-O1", "-o", native, "-lpthread"}, {"-O1", "-g", "-fsanitize=thread", "-o", tsan}} {
		if out, err := exec.Command("clang-14", append(args, f)...).CombinedOutput(); err != nil {
			b.Fatalf("clang-14: %v\n%s", err, out)
		}
	}
	var times []time.Duration
	for i := 0; i < nativeRuns; i++ {
		start := time.Now()
		if _, err := runCappedFor(2*time.Second, native); err != nil {
			nativeFails++
		}
		times = append(times, time.Since(start))
	}
	for i := 0; i < tsanRuns; i++ {
		out, err := runCappedFor(5*time.Second, tsan)
		if err != nil || strings.Contains(out, "WARNING: ThreadSanitizer") {
			tsanHits++
		}
	}
	return nativeFails, tsanHits, medianOf(times)
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
