package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"augur/internal/bytesize"
)

// measurement is one process run: wall time and peak resident memory.
type measurement struct {
	wall time.Duration
	rss  uint64
	out  string
}

// peakRSSSource is a tiny C program that runs a command and prints its
// peak resident memory. A process started from Go would count the Go
// process's own pages in its peak (it is cloned from it before it
// execs); one forked from this small program counts what it uses itself.
const peakRSSSource = `#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
	pid_t pid = fork();
	if (pid == 0) {
		int fd = dup(2);
		(void)fd;
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int status;
	struct rusage ru;
	wait4(pid, &status, 0, &ru);
	fprintf(stderr, "peak-rss-kb %ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
`

var peakRSSBin string

// measure runs a command and returns its wall time and peak resident
// memory (the largest of it and its children: the benchmarks warm augur's
// bitcode cache first, so no clang runs while they measure).
func measure(b *testing.B, name string, args ...string) measurement {
	b.Helper()
	if peakRSSBin == "" {
		dir, err := os.MkdirTemp("", "augur-peakrss-")
		if err != nil {
			b.Fatal(err)
		}
		src := filepath.Join(dir, "peakrss.c")
		os.WriteFile(src, []byte(peakRSSSource), 0o644)
		peakRSSBin = filepath.Join(dir, "peakrss")
		if out, err := exec.Command("clang-14", "-O1", "-o", peakRSSBin, src).CombinedOutput(); err != nil {
			b.Fatalf("build peakrss: %v\n%s", err, out)
		}
	}
	cmd := exec.Command(peakRSSBin, append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+benchCache)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		b.Fatal(err)
	}
	m := measurement{wall: wall, out: out.String()}
	if i := strings.LastIndex(errOut.String(), "peak-rss-kb "); i >= 0 {
		var kb uint64
		fmt.Sscanf(errOut.String()[i:], "peak-rss-kb %d", &kb)
		m.rss = kb << 10
	}
	return m
}

var benchCache = filepath.Join(os.TempDir(), "augur-bench-cache")

// medianOf runs a command n times and returns the median wall time and
// the median peak RSS (separately).
func medianOf(b *testing.B, n int, name string, args ...string) measurement {
	b.Helper()
	var ms []measurement
	for i := 0; i < n; i++ {
		ms = append(ms, measure(b, name, args...))
	}
	return medianMeasurement(ms)
}

// BenchmarkResources measures, on four programs that once drove augur's
// memory up with what they did rather than what they held (a
// producer/consumer ring of 100,000 items, a mutex-heavy parallel sum,
// binary-trees of depth 16, two spinning threads), a sparse scan of a
// 16 MiB table and a matrix product on two threads (compute code whose
// every read is of shared memory), the peak resident memory and time of the native build,
// of `augur run` and of detection of one schedule on the given inputs
// (`augur analyze --detect-only --schedules 1 --explore-time 0
// --sym-inputs none --directed 0`: no exploration of inputs, no plans on
// explored ones, which the whole analysis has), medians of three runs
// each, interleaved. Targets: detect RSS <= 2x run RSS; run RSS <= 10x
// native above augur's fixed floor (its RSS running an empty program);
// detect time <= 2x run time.
func BenchmarkResources(b *testing.B) {
	const n = 3
	dir := b.TempDir()
	empty := filepath.Join(dir, "empty.c")
	os.WriteFile(empty, []byte("int main(void) { return 0; }\n"), 0o644)
	measure(b, augurBin, "run", empty) // warm the cache: no clang in what is measured
	floor := medianOf(b, n, augurBin, "run", empty)
	fmt.Printf("resources: augur's floor (run of an empty program): %s\n", bytesize.Format(floor.rss))
	ok := true
	for _, name := range []string{"ring", "parallel_sum", "binary_trees", "spin", "big_table", "matmul"} {
		src := filepath.Join("..", "..", "testdata", "bench", name+".c")
		bin := filepath.Join(dir, name)
		if out, err := exec.Command("clang-14", "-O0", "-pthread", "-o", bin, src).CombinedOutput(); err != nil {
			b.Fatalf("native build of %s: %v\n%s", name, err, out)
		}
		measure(b, augurBin, "run", src) // warm the bitcode cache
		native := medianOf(b, n, bin)
		run := medianOf(b, n, augurBin, "run", src)
		det := medianOf(b, n, augurBin, "analyze", "--detect-only", "--schedules", "1", "--explore-time", "0",
			"--sym-inputs", "none", "--directed", "0", src)
		if run.out != native.out {
			b.Fatalf("%s: augur run printed %q, native %q", name, run.out, native.out)
		}
		detRSS := float64(det.rss) / float64(run.rss)
		runRSS := float64(int64(run.rss)-int64(floor.rss)) / float64(native.rss)
		detTime := det.wall.Seconds() / run.wall.Seconds()
		fmt.Printf("resources %-13s native %7s %9v | run %9s %9v | detect %9s %9v | detect/run RSS %.2fx (<= 2x), "+
			"(run-floor)/native RSS %.1fx (<= 10x), detect/run time %.2fx (<= 2x)\n",
			name, bytesize.Format(native.rss), native.wall.Round(time.Millisecond), bytesize.Format(run.rss),
			run.wall.Round(time.Millisecond), bytesize.Format(det.rss), det.wall.Round(time.Millisecond), detRSS, runRSS, detTime)
		b.ReportMetric(detRSS, name+"-detect/run-rss")
		b.ReportMetric(detTime, name+"-detect/run-time")
		if detRSS > 2 || runRSS > 10 || detTime > 2 {
			ok = false
		}
	}
	if !ok {
		fmt.Println("resources: a target was missed (see above)")
	}
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkWeakVersusSCCounter classifies the lost-update counter (two
// threads, 100,000 unlocked increments each) under the weak memory model
// and under sequential consistency, whole `augur analyze` runs, median of
// five each, interleaved (target: weak <= 3x sc).
func BenchmarkWeakVersusSCCounter(b *testing.B) {
	src := filepath.Join("..", "..", "testdata", "bench", "lost_update.c")
	measure(b, augurBin, "analyze", "--detect-only", src) // warm the cache
	var sc, weak []time.Duration
	for i := 0; i < 5; i++ {
		sc = append(sc, measure(b, augurBin, "analyze", src).wall)
		weak = append(weak, measure(b, augurBin, "analyze", "--memory-model", "weak", src).wall)
	}
	med := func(ds []time.Duration) time.Duration {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	ratio := med(weak).Seconds() / med(sc).Seconds()
	fmt.Printf("weak/sc on the lost-update counter: sc %v, weak %v, ratio %.2fx (target <= 3x)\n",
		med(sc).Round(time.Millisecond), med(weak).Round(time.Millisecond), ratio)
	b.ReportMetric(ratio, "weak/sc")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkMemoryBudgetRSS measures how well --max-memory bounds the
// whole process: the peak resident memory of programs that grow without
// end (a file written a megabyte at a time, a buffer doubled by realloc,
// a megabyte allocated at a time), run and analyzed under a 256 MiB
// budget, against the budget plus augur's floor (its peak RSS running
// an empty program, measured in the same run). Target: at most the
// budget plus a floor of 128 MiB; the figures it prints say which miss.
func BenchmarkMemoryBudgetRSS(b *testing.B) {
	const budget = 256 << 20
	dir := b.TempDir()
	empty := filepath.Join(dir, "empty.c")
	os.WriteFile(empty, []byte("int main(void) { return 0; }\n"), 0o644)
	measure(b, augurBin, "run", empty) // warm the cache
	floor := medianOf(b, 3, augurBin, "run", empty).rss
	fmt.Printf("memory budget %s; augur's floor (an empty program's run) %s; target: peak RSS <= budget + 128 MiB\n",
		bytesize.Format(budget), bytesize.Format(floor))
	missed := 0
	// Programs that grow without end (run, and detection), and programs
	// that hold most of the budget while their race is classified (the
	// whole analysis without the exploration).
	detect, classify := []string{"--detect-only"}, []string{"--explore-time", "0"}
	cases := []struct {
		cmd, file string
		flags     []string
	}{
		{"run", "write_forever.c", nil}, {"run", "double_forever.c", nil}, {"run", "alloc_forever.c", nil},
		{"analyze", "write_forever.c", detect}, {"analyze", "double_forever.c", detect}, {"analyze", "alloc_forever.c", detect},
		{"analyze", "hold_and_race.c", classify}, {"analyze", "alloc_after_race.c", classify},
	}
	for _, c := range cases {
		src := filepath.Join("..", "..", "testdata", "budget", c.file)
		args := append([]string{c.cmd, "--max-memory", "256MiB"}, c.flags...)
		measure(b, augurBin, append(args, "--max-instructions", "1000", src)...) // warm the cache
		m := measure(b, augurBin, append(args, src)...)
		verdict := "within"
		if m.rss > budget+128<<20 {
			verdict, missed = "MISSED", missed+1
		}
		fmt.Printf("  %-8s %-16s %-20s peak RSS %9s = budget + %9s  %s\n", c.cmd, strings.Join(c.flags, " "), c.file,
			bytesize.Format(m.rss), bytesize.Format(m.rss-min(m.rss, budget)), verdict)
	}
	fmt.Printf("memory budget RSS: %d of %d over budget + 128 MiB\n", missed, len(cases))
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkSpinUnderDefaults analyzes a program that spins for ever on a
// flag no thread will set, with every setting at its default: it must end
// with a hang report within the default time budget, using under 1 GB.
func BenchmarkSpinUnderDefaults(b *testing.B) {
	src := filepath.Join("..", "..", "testdata", "budget", "flag_never_set.c")
	measure(b, augurBin, "analyze", "--detect-only", "--max-instructions", "1000", src) // warm the cache
	m := measure(b, augurBin, "analyze", src)
	hang := strings.Contains(m.out, "ERROR: augur: hang: thread 0")
	fmt.Printf("spin under defaults: ended in %v (default time budget 10m) with a hang report: %v, peak RSS %s (target < 1 GB)\n",
		m.wall.Round(time.Millisecond), hang, bytesize.Format(m.rss))
	if !hang || m.rss >= 1<<30 || m.wall >= 10*time.Minute {
		b.Errorf("spin under defaults: hang reported %v, %s, %v", hang, bytesize.Format(m.rss), m.wall)
	}
	b.ReportMetric(float64(m.rss)/(1<<20), "MiB")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkStartup measures a hello world's whole `augur run`, warm (its
// bitcode and its lowered program cached), in C and in C++, against in
// the same run a bare clang-14 compile of the same source and the native
// binary's run; medians of five. Targets: C within 0.15 s, C++ within
// 0.3 s.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	progs := map[string]string{
		"hello.c":   "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n",
		"hello.cpp": "#include <iostream>\nint main() { std::cout << \"hello\" << std::endl; return 0; }\n",
	}
	targets := map[string]time.Duration{"hello.c": 150 * time.Millisecond, "hello.cpp": 300 * time.Millisecond}
	for _, name := range []string{"hello.c", "hello.cpp"} {
		src := filepath.Join(dir, name)
		os.WriteFile(src, []byte(progs[name]), 0o644)
		compiler := "clang-14"
		if strings.HasSuffix(name, ".cpp") {
			compiler = "clang++-14"
		}
		bin := filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name)))
		measure(b, augurBin, "run", src) // warm: compiled and lowered once
		clang := medianOf(b, 5, compiler, "-O0", "-c", "-o", bin+".o", src)
		if out, err := exec.Command(compiler, "-O0", "-o", bin, src).CombinedOutput(); err != nil {
			b.Fatalf("native build: %v\n%s", err, out)
		}
		native := medianOf(b, 5, bin)
		run := medianOf(b, 5, augurBin, "run", src)
		if run.out != native.out {
			b.Fatalf("%s: augur run printed %q, native %q", name, run.out, native.out)
		}
		verdict := "ok"
		if run.wall > targets[name] {
			verdict = "OVER"
		}
		fmt.Printf("startup %-9s augur run %7v (target <= %v: %s) | clang -c %7v (%.2fx) | native run %7v | augur RSS %s\n",
			name, run.wall.Round(time.Millisecond), targets[name], verdict, clang.wall.Round(time.Millisecond),
			run.wall.Seconds()/clang.wall.Seconds(), native.wall.Round(time.Millisecond), bytesize.Format(run.rss))
	}
}

// BenchmarkInputExplorationCost measures what exploring a program's
// inputs by default (--sym-inputs auto) costs, on two programs whose
// argument sizes their work: testdata/budget/long_input.c (10^d rounds
// for a first digit d, run with "3"), whose explored inputs include
// digits whose runs outgrow the instruction budget, which bound what
// they cost; and testdata/bench/nbody.c run with "20000" (a loop whose
// bound is atoi of the argument, so the exploration asks the solver at
// every iteration until its solver budget pins the path). For each:
// whole `augur analyze --explore-time 0` runs with the default and with
// --sym-inputs none, and `augur run`, medians of three, interleaved; it
// prints the two ratios.
func BenchmarkInputExplorationCost(b *testing.B) {
	for _, c := range []struct{ src, arg string }{
		{filepath.Join("..", "..", "testdata", "budget", "long_input.c"), "3"},
		{filepath.Join("..", "..", "testdata", "bench", "nbody.c"), "20000"},
	} {
		measure(b, augurBin, "run", c.src, "--", c.arg) // warm the cache
		var run, none, auto []measurement
		for i := 0; i < 3; i++ {
			run = append(run, measure(b, augurBin, "run", c.src, "--", c.arg))
			none = append(none, measure(b, augurBin, "analyze", "--explore-time", "0", "--sym-inputs", "none", c.src, "--", c.arg))
			auto = append(auto, measure(b, augurBin, "analyze", "--explore-time", "0", c.src, "--", c.arg))
		}
		r, n, a := medianMeasurement(run), medianMeasurement(none), medianMeasurement(auto)
		fmt.Printf("input exploration on %s %s: run %v; analyze --sym-inputs none %v (%s); analyze (auto) %v (%s); "+
			"auto/none %.2fx, auto/run %.1fx\n", filepath.Base(c.src), c.arg, r.wall.Round(time.Millisecond),
			n.wall.Round(time.Millisecond), bytesize.Format(n.rss), a.wall.Round(time.Millisecond), bytesize.Format(a.rss),
			a.wall.Seconds()/n.wall.Seconds(), a.wall.Seconds()/r.wall.Seconds())
		b.ReportMetric(a.wall.Seconds()/n.wall.Seconds(), strings.TrimSuffix(filepath.Base(c.src), ".c")+"-auto/none")
	}
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkDetectionFollowsTheRun measures detection with default
// settings on terminating programs: testdata/budget/long_checksum.c (two
// workers fold 25 million values each, about a second) and
// testdata/bench/matmul.c (two workers multiply matrices), whose threads
// meet only where they are made and joined, so that detection runs one
// schedule; testdata/budget/long_locked_checksum.c, the first with a
// lock, a long program (race.LongRun) that runs the plan and the
// exploration; and testdata/bench/parallel_sum.c 2000000 (four workers
// take a mutex two million times, half a second, 24.5 million
// instructions), a program between the floor's FloorRun and LongRun.
// `augur run` against `augur analyze --detect-only`, medians of three,
// interleaved. Both the later executions' instruction budget and the
// stages' after the plan follow the first schedule, so the locked
// checksum's ratio is a small multiple (the plan's five schedules, four
// of them two at a time, then a run's worth for each stage), whatever
// --explore-time allows; parallel_sum's is larger, as the floor of a
// program of that length still pays for about three runs a stage
// (race.FollowProgram).
func BenchmarkDetectionFollowsTheRun(b *testing.B) {
	for _, c := range []struct{ src, arg string }{
		{filepath.Join("..", "..", "testdata", "budget", "long_checksum.c"), ""},
		{filepath.Join("..", "..", "testdata", "bench", "matmul.c"), ""},
		{filepath.Join("..", "..", "testdata", "budget", "long_locked_checksum.c"), ""},
		{filepath.Join("..", "..", "testdata", "bench", "parallel_sum.c"), "2000000"},
	} {
		args := []string{c.src}
		if c.arg != "" {
			args = append(args, "--", c.arg)
		}
		measure(b, augurBin, append([]string{"run"}, args...)...) // warm the cache
		var run, det []measurement
		for i := 0; i < 3; i++ {
			run = append(run, measure(b, augurBin, append([]string{"run"}, args...)...))
			det = append(det, measure(b, augurBin, append([]string{"analyze", "--detect-only"}, args...)...))
		}
		r, d := medianMeasurement(run), medianMeasurement(det)
		name := strings.TrimSpace(filepath.Base(c.src) + " " + c.arg)
		fmt.Printf("detection with defaults on %s: augur run %v; augur analyze --detect-only %v (%s); detect/run %.1fx\n",
			name, r.wall.Round(time.Millisecond), d.wall.Round(time.Millisecond), bytesize.Format(d.rss),
			d.wall.Seconds()/r.wall.Seconds())
		b.ReportMetric(d.wall.Seconds()/r.wall.Seconds(), strings.TrimSuffix(filepath.Base(c.src), ".c")+"-detect/run")
	}
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkDetectionWithLongInputs measures detection with default
// settings on a program whose arguments size its work and whose phases a
// barrier orders (testdata/bench/grid_args.c -n16, SPLASH-2 ocean's
// shape): the exploration of its arguments finds bigger grids that outrun
// the instruction budget and usage paths with one thread. `augur run`
// against `augur analyze --detect-only`, medians of three, interleaved,
// with peak RSS: the long inputs get no race-directed runs or exploration
// schedules, and only two are run under the detector.
func BenchmarkDetectionWithLongInputs(b *testing.B) {
	src := filepath.Join("..", "..", "testdata", "bench", "grid_args.c")
	measure(b, augurBin, "run", src, "--", "-n16") // warm the cache
	var run, det []measurement
	for i := 0; i < 3; i++ {
		run = append(run, measure(b, augurBin, "run", src, "--", "-n16"))
		det = append(det, measure(b, augurBin, "analyze", "--detect-only", src, "--", "-n16"))
	}
	r, d := medianMeasurement(run), medianMeasurement(det)
	fmt.Printf("detection with defaults on grid_args.c -n16: augur run %v (%s); augur analyze --detect-only %v (%s); detect/run %.1fx\n",
		r.wall.Round(time.Millisecond), bytesize.Format(r.rss), d.wall.Round(time.Millisecond), bytesize.Format(d.rss),
		d.wall.Seconds()/r.wall.Seconds())
	b.ReportMetric(d.wall.Seconds()/r.wall.Seconds(), "detect/run")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}
