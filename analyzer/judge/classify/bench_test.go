package classify_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/analyzer/judge/classify"
)

// BenchmarkClassificationCost reports, over the race and classification
// corpora, the median of (classification time per race / time of a plain
// run of the same program), the figure Portend+ reports as 1.1x-49.9x
// (target: at most 10x).
func BenchmarkClassificationCost(b *testing.B) {
	var files []string
	for _, dir := range []string{"../../../testdata/race", "../../../testdata/classify"} {
		fs, _ := filepath.Glob(dir + "/*.c")
		files = append(files, fs...)
	}
	var ratios, baseRatios []float64
	for _, f := range files {
		prog := loadtest.Program(b, b.TempDir(), f)
		cfg := vm.Config{Args: []string{"p"}, MaxInstructions: 20_000_000}
		res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Races) == 0 {
			continue
		}
		// The programs run for microseconds: take medians of repetitions.
		var plain []time.Duration
		for i := 0; i < 21; i++ {
			cfg.Models = libc.Models()
			cfg.Models = libc.Models()
			m, _ := vm.New(prog, cfg)
			start := time.Now()
			m.Run()
			plain = append(plain, time.Since(start))
		}
		sort.Slice(plain, func(i, j int) bool { return plain[i] < plain[j] })
		p := plain[len(plain)/2]
		timeRaces := func(f func(*race.Race)) time.Duration {
			var ds []time.Duration
			for i := 0; i < 5; i++ {
				start := time.Now()
				for _, r := range res.Races {
					f(r)
				}
				ds = append(ds, time.Since(start)/time.Duration(len(res.Races)))
			}
			sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
			return ds[len(ds)/2]
		}
		per := timeRaces(func(r *race.Race) { classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1}) })
		basePer := timeRaces(func(r *race.Race) { classify.ReplayAnalyzer(prog, r, classify.Options{Run: cfg}) })
		ratio := float64(per) / float64(p)
		ratios = append(ratios, ratio)
		baseRatios = append(baseRatios, float64(basePer)/float64(p))
		fmt.Printf("  %-22s %d races, plain run %v, classification %v per race: %.1fx (replay-analyzer %.1fx)\n",
			strings.TrimSuffix(filepath.Base(f), ".c"), len(res.Races), p, per, ratio, float64(basePer)/float64(p))
	}
	sort.Float64s(ratios)
	sort.Float64s(baseRatios)
	med := ratios[len(ratios)/2]
	fmt.Printf("classification cost: median %.1fx a plain run per race over %d programs (range %.1fx-%.1fx; target <= 10x); replay-analyzer baseline median %.1fx\n",
		med, len(ratios), ratios[0], ratios[len(ratios)-1], baseRatios[len(baseRatios)/2])
	b.ReportMetric(med, "x-plain-run")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}
