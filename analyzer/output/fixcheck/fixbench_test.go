package fixcheck_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/output/fix"
	"augur/analyzer/output/fixcheck"
	"augur/analyzer/output/report"
	"augur/internal/testutil"
)

// outcome is what became of one harmful race's fixes.
type outcome string

const (
	verified outcome = "verified" // at least one fix verified
	refused  outcome = "refused"  // none verified, one refused with a reason
	rejected outcome = "rejected" // proposed, and every proposal rejected or not verified
	none     outcome = "none"     // nothing proposed
)

// outcomeOf sorts a race's fixes into its outcome.
func outcomeOf(fs []fix.Fix) outcome {
	switch {
	case slices.ContainsFunc(fs, func(f fix.Fix) bool { return f.Verified }):
		return verified
	case slices.ContainsFunc(fs, func(f fix.Fix) bool { return f.Refused != "" }):
		return refused
	case len(fs) > 0:
		return rejected
	}
	return none
}

// BenchmarkFixCorpus proposes and verifies fixes for every harmful race
// of the programs in testdata/fixbench (realistic shapes: member and C++
// mutexes, read-compute-write regions, reference counts, caches, queues,
// early reads and publications), compares them with each program's
// annotations (`fix: KIND [LOCK] verified|rejected|refused`, as in
// testdata/fix) and prints the differences; and prints, per program and in all, the
// share of harmful races that get a verified fix, the share refused with
// a reason, the share whose proposals were all rejected and the share
// with none; the time each verification took (one build and analysis of
// a changed program); and every verified fix that the verification
// rejects when run again with a larger budget (four times the base
// schedules, twice the exploration's instructions, another seed).
func BenchmarkFixCorpus(b *testing.B) {
	counts := map[outcome]int{}
	var perAnalysis []time.Duration
	var unstable, differ []string
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	fmt.Printf("%-22s %6s %9s %8s %9s %5s\n", "program", "races", "verified", "refused", "rejected", "none")
	for _, path := range testutil.Programs("../../../testdata/fixbench") {
		path, _ := filepath.Abs(path)
		prog := mustLoad(b, path)
		opts := options(path)
		res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		fixcheck.Suggest(context.Background(), res, buildOpts(), prog)
		if n := changesAnalyzed(res.Fixes); n > 0 {
			perAnalysis = append(perAnalysis, time.Since(start)/time.Duration(n))
		}
		want := expectedFixes(b, path)
		got := fixKeys(report.FromResult(res, root), want, func(string, report.Fix) {})
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			differ = append(differ, fmt.Sprintf("%s: fixes %q, annotated %q", filepath.Base(path), got, want))
		}
		mine := map[outcome]int{}
		harmful := 0
		for i := range res.Races {
			if res.Verdicts[i].Harmful() {
				harmful++
				mine[outcomeOf(res.Fixes[i])]++
			}
		}
		for k, v := range mine {
			counts[k] += v
		}
		fmt.Printf("%-22s %6d %9d %8d %9d %5d\n", filepath.Base(path), harmful, mine[verified], mine[refused], mine[rejected], mine[none])
		unstable = append(unstable, reverify(b, res, path)...)
	}
	total := counts[verified] + counts[refused] + counts[rejected] + counts[none]
	if total == 0 {
		b.Fatal("no harmful race in testdata/fixbench")
	}
	share := func(o outcome) string {
		return fmt.Sprintf("%d (%.0f%%)", counts[o], 100*float64(counts[o])/float64(total))
	}
	fmt.Printf("harmful races: %d; verified fix: %s; refused with a reason: %s; all proposals rejected: %s; none proposed: %s\n",
		total, share(verified), share(refused), share(rejected), share(none))
	slices.Sort(perAnalysis)
	if len(perAnalysis) > 0 {
		fmt.Printf("time per verification (a changed program built and analyzed), by program: median %.2fs, max %.2fs\n",
			perAnalysis[len(perAnalysis)/2].Seconds(), perAnalysis[len(perAnalysis)-1].Seconds())
	}
	fmt.Printf("programs whose fixes differ from their annotations: %d\n", len(differ))
	for _, d := range differ {
		fmt.Printf("  %s\n", d)
	}
	fmt.Printf("verified fixes rejected again with a larger budget: %d\n", len(unstable))
	for _, u := range unstable {
		fmt.Printf("  %s\n", u)
	}
}

// changesAnalyzed counts the distinct changes the fixes of an analysis
// built and analyzed (a refused fix is not analyzed; one change serves
// every race it is proposed for).
func changesAnalyzed(fixes [][]fix.Fix) int {
	seen := map[string]bool{}
	for _, fs := range fixes {
		for _, f := range fs {
			if f.Refused == "" && !strings.HasPrefix(f.Checked, "not verified: an analysis checks at most") {
				seen[fmt.Sprint(f.Edits)] = true
			}
		}
	}
	return len(seen)
}

// reverify verifies res's fixes again with a larger budget and returns
// the verified ones that are now rejected, each with why.
func reverify(b *testing.B, res *analyzer.Result, path string) []string {
	b.Helper()
	p := mustLoad(b, path)
	big := *res
	opts := *res.Options
	opts.Schedules = 4 * max(opts.Schedules, 5)
	opts.ExploreInstructions = 2 * race.ExploreFloor
	opts.Seed += 100
	big.Options, big.Fixes = &opts, nil
	fixcheck.Suggest(context.Background(), &big, buildOpts(), p)
	var out []string
	for i, fs := range res.Fixes {
		for _, f := range fs {
			if !f.Verified {
				continue
			}
			for _, g := range big.Fixes[i] {
				if g.Title == f.Title && fmt.Sprint(g.Edits) == fmt.Sprint(f.Edits) && !g.Verified {
					out = append(out, fmt.Sprintf("%s: %s: %s", filepath.Base(path), f.Title, g.Checked))
				}
			}
		}
	}
	return out
}
