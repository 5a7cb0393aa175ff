package race_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// BenchmarkDetectionCost compares one execution of testdata/bench/threads.c
// with the race detector against the same execution without it (target:
// at most 2x).
func BenchmarkDetectionCost(b *testing.B) {
	prog := loadtest.Program(b, b.TempDir(), "../../../testdata/bench/threads.c")
	var plain, detect []time.Duration
	var insts uint64
	// Each measured run starts from a collected heap, so one run's garbage
	// (the detector's shadow memory) is not collected on the next one's time.
	for i := 0; i < 5; i++ {
		m, _ := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"threads"}, Policy: sched.RoundRobin{}})
		runtime.GC()
		start := time.Now()
		r := m.Run()
		plain = append(plain, time.Since(start))
		insts = r.Instructions
		d := race.New()
		m, _ = vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"threads"}, Policy: sched.RoundRobin{}, Monitor: d})
		d.Bind(m)
		runtime.GC()
		start = time.Now()
		r = m.Run()
		detect = append(detect, time.Since(start))
		if r.Term.Kind != vm.TermExit || len(d.Races()) != 0 {
			b.Fatalf("%s, %d races", r.Term.Report(), len(d.Races()))
		}
	}
	p, d := median(plain), median(detect)
	fmt.Printf("detection cost: plain %v, with detector %v, ratio %.2fx (target <= 2x), %d instructions\n", p, d, float64(d)/float64(p), insts)
	b.ReportMetric(float64(d)/float64(p), "x-plain")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkSnapshots runs detection with the exploration (the bounded
// enumeration, then at most 200 PCT schedules) on programs of the
// exploration corpus and on setup_then_race.c, whose threads start after
// a long setup: with every schedule from the program's start, and with
// schedules branching from snapshots of the prefix they share. It prints
// the schedules per second of each (median of three, two workers), their
// ratio, and the instructions the snapshots saved of those a run from the
// start interprets. Both find the same (TestSnapshotsChangeNothing).
// big_snapshot.c's schedules each write a few bytes of a 64 MiB array
// the snapshot holds: its ratio is that of copying the pages written
// (analyzer/exec/vm/cow.go) against laying out and filling the array again.
func BenchmarkSnapshots(b *testing.B) {
	files := []string{"../../../testdata/bench/setup_then_race.c", "../../../testdata/budget/big_snapshot.c", "../../../testdata/explore/lost_update.c",
		"../../../testdata/explore/aba_stack.c", "../../../testdata/explore/steal_queue.c", "../../../testdata/explore/seqlock.c"}
	cache := b.TempDir()
	fmt.Printf("%-18s %10s %12s %12s %8s %s\n", "program", "schedules", "from start/s", "snapshots/s", "ratio", "instructions skipped")
	for _, f := range files {
		prog := loadtest.Program(b, cache, f)
		rate := func(noSnapshots bool) (float64, *race.Result) {
			var rates []float64
			var res *race.Result
			for rep := 0; rep < 3; rep++ {
				runtime.GC()
				start := time.Now()
				var err error
				res, err = race.Detect(prog, race.Options{Schedules: 1, Seed: 1,
					Run:     vm.Config{Args: []string{filepath.Base(f)}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
					Explore: &race.Explore{Max: 200, Workers: 2, NoSnapshots: noSnapshots}})
				if err != nil {
					b.Fatal(err)
				}
				rates = append(rates, float64(res.Schedules)/time.Since(start).Seconds())
			}
			sort.Float64s(rates)
			return rates[1], res
		}
		plain, _ := rate(true)
		snap, res := rate(false)
		fmt.Printf("%-18s %10d %12.0f %12.0f %7.2fx %d of %d\n", filepath.Base(f), res.Schedules, plain, snap, snap/plain,
			res.Explore.Skipped, res.Instructions)
	}
}
