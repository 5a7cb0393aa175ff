package race_test

import (
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// BenchmarkDetectionCost compares one execution of testdata/bench/threads.c
// with the race detector against the same execution without it (target:
// at most 2x).
func BenchmarkDetectionCost(b *testing.B) {
	prog, err := analyzer.LoadProgram([]string{"../../testdata/bench/threads.c"}, build.Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	var plain, detect []time.Duration
	var insts uint64
	// Each measured run starts from a collected heap, so one run's garbage
	// (the detector's shadow memory) is not collected on the next one's time.
	for i := 0; i < 5; i++ {
		m, _ := vm.New(prog, vm.Config{Args: []string{"threads"}, Policy: sched.RoundRobin{}})
		runtime.GC()
		start := time.Now()
		r := m.Run()
		plain = append(plain, time.Since(start))
		insts = r.Instructions
		d := race.New()
		m, _ = vm.New(prog, vm.Config{Args: []string{"threads"}, Policy: sched.RoundRobin{}, Monitor: d})
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
