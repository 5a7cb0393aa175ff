package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"augur/internal/bytesize"
)

// speedProgram is one program of BenchmarkInterpreterSpeed: a source in
// testdata/bench, its arguments, and its kind (the kinds have targets of
// their own).
type speedProgram struct {
	name, kind string
	args       []string
}

// speedPrograms are of the kinds issue #26 measures on: Benchmarks-Game-
// style compute, allocation-heavy, lock-heavy and a producer/consumer
// ring. Their sizes make native -O0 take tens of milliseconds, so process
// start-up is noise and the interpreted runs stay within seconds.
var speedPrograms = []speedProgram{
	{"nbody", "compute", []string{"500000"}},
	{"fannkuch", "compute", []string{"9"}},
	{"spectral", "compute", []string{"600"}},
	{"compute", "compute", nil},
	{"binary_trees", "allocation", []string{"14"}},
	{"parallel_sum", "lock", []string{"2000000"}},
	{"ring", "lock", []string{"100000"}},
}

// BenchmarkInterpreterSpeed runs each program natively (clang -O0, the code
// augur interprets; clang -O2), under ThreadSanitizer (clang -O1
// -fsanitize=thread), under Helgrind when valgrind is installed, and under
// `augur run`, medians of five runs each, interleaved so that all see the
// same machine load (of three, the same binary's compute median read 9.2x
// in one run and 11.1x in the next on a shared machine). It prints wall
// time and peak RSS beside each, and augur's ratio to every baseline. Targets (issue #26): augur/native-O0
// within 10x on compute programs (median) and 5x on lock-heavy ones; run
// RSS within 10x native above augur's fixed floor.
//
// Then, against the same baselines, it measures what a user of the
// analysis waits for (analysisRounds each, interleaved): detection of one
// schedule on the given inputs, and the whole default `augur analyze`
// (inputs explored, every race classified), with its schedules per second
// (the report's schedules over the analysis's wall time).
func BenchmarkInterpreterSpeed(b *testing.B) {
	const rounds = 5
	dir := b.TempDir()
	_, helgrindErr := exec.LookPath("valgrind")
	ratios := map[string][]float64{}
	for _, p := range speedPrograms {
		src := filepath.Join("..", "..", "testdata", "bench", p.name+".c")
		builds := map[string][]string{
			"O0":   {"-O0"},
			"O2":   {"-O2"},
			"tsan": {"-O1", "-g", "-fsanitize=thread"},
		}
		bins := map[string]string{}
		for kind, flags := range builds {
			bin := filepath.Join(dir, p.name+"-"+kind)
			args := append(append([]string{}, flags...), "-pthread", "-o", bin, src, "-lm")
			if out, err := exec.Command("clang-14", args...).CombinedOutput(); err != nil {
				b.Fatalf("build %s %s: %v\n%s", p.name, kind, err, out)
			}
			bins[kind] = bin
		}
		augurArgs := append([]string{"run", src, "--"}, p.args...)
		measure(b, augurBin, augurArgs...) // warm the caches: no clang in what is measured
		runs := map[string][]measurement{}
		for i := 0; i < rounds; i++ {
			for _, kind := range []string{"O0", "O2", "tsan"} {
				runs[kind] = append(runs[kind], measure(b, bins[kind], p.args...))
			}
			if helgrindErr == nil {
				hg := append([]string{"--tool=helgrind", "-q", bins["O0"]}, p.args...)
				runs["helgrind"] = append(runs["helgrind"], measure(b, "valgrind", hg...))
			}
			runs["augur"] = append(runs["augur"], measure(b, augurBin, augurArgs...))
		}
		med := map[string]measurement{}
		for kind, ms := range runs {
			med[kind] = medianMeasurement(ms)
		}
		if med["augur"].out != med["O0"].out {
			b.Fatalf("%s: augur run printed %q, native %q", p.name, med["augur"].out, med["O0"].out)
		}
		a := med["augur"].wall.Seconds()
		line := fmt.Sprintf("speed %-12s %-10s augur %7v %9s", p.name, p.kind, med["augur"].wall.Round(time.Millisecond),
			bytesize.Format(med["augur"].rss))
		for _, kind := range []string{"O0", "O2", "tsan", "helgrind"} {
			m, ok := med[kind]
			if !ok {
				line += fmt.Sprintf(" | %s skipped (no valgrind)", kind)
				continue
			}
			line += fmt.Sprintf(" | %s %7v %9s %5.1fx", kind, m.wall.Round(time.Millisecond), bytesize.Format(m.rss), a/m.wall.Seconds())
		}
		fmt.Println(line)
		ratios[p.kind] = append(ratios[p.kind], a/med["O0"].wall.Seconds())
		b.ReportMetric(a/med["O0"].wall.Seconds(), p.name+"-x-O0")
		analysisSpeed(b, p, src, med)
	}
	targets := map[string]float64{"compute": 10, "lock": 5}
	for _, kind := range []string{"compute", "allocation", "lock"} {
		rs := append([]float64(nil), ratios[kind]...)
		sort.Float64s(rs)
		verdict := ""
		if t, ok := targets[kind]; ok {
			verdict = fmt.Sprintf(" (target <= %.0fx: %s)", t, map[bool]string{true: "ok", false: "MISSED"}[rs[len(rs)/2] <= t])
		}
		fmt.Printf("speed median augur/native-O0 on %s programs: %.1fx%s\n", kind, rs[len(rs)/2], verdict)
	}
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// medianMeasurement is the median wall time and, separately, the median
// peak RSS of ms, with the last run's output.
func medianMeasurement(ms []measurement) measurement {
	walls := make([]time.Duration, len(ms))
	rsss := make([]uint64, len(ms))
	for i, m := range ms {
		walls[i], rsss[i] = m.wall, m.rss
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	sort.Slice(rsss, func(i, j int) bool { return rsss[i] < rsss[j] })
	return measurement{wall: walls[len(ms)/2], rss: rsss[len(ms)/2], out: strings.TrimSpace(ms[len(ms)-1].out)}
}

// analysisRounds is how many times BenchmarkInterpreterSpeed runs each
// program's detection and whole analysis: a whole analysis takes seconds
// to tens of seconds, so three, not five.
const analysisRounds = 3

// analysisSpeed measures p's detection of one schedule and its whole
// default analysis, medians of analysisRounds, and prints each against
// the baselines in base (medians measured just before), with peak RSS
// beside each, and the analysis's schedules per second.
func analysisSpeed(b *testing.B, p speedProgram, src string, base map[string]measurement) {
	b.Helper()
	detectArgs := append([]string{"analyze", "--detect-only", "--schedules", "1", "--explore-time", "0",
		"--sym-inputs", "none", "--directed", "0", src, "--"}, p.args...)
	analyzeArgs := append([]string{"analyze", "--format", "json", src, "--"}, p.args...)
	var detects, analyses []measurement
	var schedules []float64
	for i := 0; i < analysisRounds; i++ {
		detects = append(detects, measure(b, augurBin, detectArgs...))
		m := measure(b, augurBin, analyzeArgs...)
		var r struct {
			Stats struct {
				Schedules int `json:"schedules"`
			} `json:"stats"`
		}
		if err := json.Unmarshal([]byte(m.out), &r); err != nil {
			b.Fatalf("%s: augur analyze --format json: %v\n%.300s", p.name, err, m.out)
		}
		analyses = append(analyses, m)
		schedules = append(schedules, float64(r.Stats.Schedules)/m.wall.Seconds())
	}
	sort.Float64s(schedules)
	perSecond := schedules[len(schedules)/2]
	for _, stage := range []struct {
		name string
		m    measurement
	}{{"detect (1 schedule)", medianMeasurement(detects)}, {"analyze (default)", medianMeasurement(analyses)}} {
		line := fmt.Sprintf("speed %-12s %-19s %7v %9s", p.name, stage.name, stage.m.wall.Round(time.Millisecond),
			bytesize.Format(stage.m.rss))
		for _, kind := range []string{"O0", "O2", "tsan", "helgrind"} {
			if m, ok := base[kind]; ok {
				line += fmt.Sprintf(" | %s %6.1fx", kind, stage.m.wall.Seconds()/m.wall.Seconds())
			}
		}
		if stage.name == "analyze (default)" {
			line += fmt.Sprintf(" | %.1f schedules/s", perSecond)
		}
		fmt.Println(line)
	}
	b.ReportMetric(medianMeasurement(analyses).wall.Seconds()/base["O0"].wall.Seconds(), p.name+"-analyze-x-O0")
	b.ReportMetric(perSecond, p.name+"-schedules/s")
}
