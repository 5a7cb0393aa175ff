package analyzer_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/category"
	"augur/analyzer/judge/classify"
	"augur/internal/testutil"
)

// precisionRuns is how many times BenchmarkAccuracy analyzes the corpus to
// see whether any verdict moves (Portend+'s precision).
const precisionRuns = 10

// corpusRace is one annotated race of the accuracy corpus as the default
// analysis found it, with the verdicts of the other classifiers.
type corpusRace struct {
	file  string
	lines [2]int
	truth string
	found bool
	// got are the categories by classifier: "augur" (the defaults),
	// "single-pre/single-post", "multischedule" (no multipath) and
	// "replay-analyzer" (the PLDI 2007 baseline, benign or harmful).
	got     map[string]string
	seconds float64
}

// The classifiers compared, in the order the techniques add up (Portend+
// Fig. 13), then the baseline.
var classifiers = []string{"single-pre/single-post", "multischedule", "augur", "replay-analyzer"}

// BenchmarkAccuracy measures classification accuracy on the accuracy
// corpus, as Portend+'s Table V does: per true category, the share of
// races augur classifies so with its default settings, beside the same
// races classified on their recorded input alone (single path), with one
// post-race schedule and no harm search (single-pre/single-post), and by
// a Record/Replay-Analyzer-style classifier (the state after both orders
// compared); the contribution of each technique (Fig. 13); the time per
// race; and, over precisionRuns analyses of the whole corpus, every
// verdict that moved.
func BenchmarkAccuracy(b *testing.B) {
	var all []*corpusRace
	runs := map[string][]string{} // file|lines -> category per run
	for _, f := range testutil.Programs("../testdata/accuracy") {
		prog := mustLoad(b, f)
		res, err := analyzer.Analyze(context.Background(), prog, corpusOptions(b, f), analyzer.Observer{})
		if err != nil {
			b.Fatal(err)
		}
		copts, err := analyzer.ClassifyOptions(res, prog)
		if err != nil {
			b.Fatal(err)
		}
		// Every classifier's category for every race found, matched to the
		// annotations by lines (matchTruths) classifier by classifier.
		type found struct {
			got     map[string]string
			seconds float64
		}
		byRace := make([]found, len(res.Races))
		single, multisched := make([]*classify.Verdict, len(res.Races)), make([]*classify.Verdict, len(res.Races))
		for i, r := range res.Races {
			byRace[i] = found{got: map[string]string{"augur": string(res.Verdicts[i].Category)}, seconds: res.Verdicts[i].Seconds}
			var rra string
			single[i], multisched[i], rra = variants(prog, r, copts)
			byRace[i].got["replay-analyzer"] = rra
		}
		// Attribution is part of each classifier that judges one order
		// alone, as it is of augur's (analyzer.Analyze).
		classify.Attribute(single, nil)
		classify.Attribute(multisched, nil)
		for i := range res.Races {
			byRace[i].got["single-pre/single-post"], byRace[i].got["multischedule"] = string(single[i].Category), string(multisched[i].Category)
		}
		ts := truths(b, f)
		crs := make([]*corpusRace, len(ts))
		for i, tr := range ts {
			crs[i] = &corpusRace{file: filepath.Base(f), lines: tr.lines, truth: tr.category, got: map[string]string{}}
		}
		for _, cl := range classifiers {
			got := matchTruths(b, f, res.Races, func(i int) string { return byRace[i].got[cl] })
			for i, g := range got {
				crs[i].got[cl] = g
				crs[i].found = crs[i].found || g != ""
			}
		}
		for i, g := range matchTruths(b, f, res.Races, func(i int) string { return fmt.Sprint(i) }) {
			if g != "" {
				var k int
				fmt.Sscan(g, &k)
				crs[i].seconds = byRace[k].seconds
			}
		}
		all = append(all, crs...)
	}
	for run := 0; run < precisionRuns; run++ {
		for _, f := range testutil.Programs("../testdata/accuracy") {
			prog := mustLoad(b, f)
			res, err := analyzer.Analyze(context.Background(), prog, corpusOptions(b, f), analyzer.Observer{})
			if err != nil {
				b.Fatal(err)
			}
			got := matchTruths(b, f, res.Races, func(i int) string {
				return fmt.Sprintf("%s k=%d", res.Verdicts[i].Category, res.Verdicts[i].K)
			})
			for i, tr := range truths(b, f) {
				key := fmt.Sprintf("%s race %d, lines %d-%d", filepath.Base(f), i+1, tr.lines[0], tr.lines[1])
				if got[i] == "" {
					got[i] = "missed"
				}
				runs[key] = append(runs[key], got[i])
			}
		}
	}
	printAccuracy(all)
	printPrecision(runs)
	correct := 0
	for _, cr := range all {
		if cr.got["augur"] == cr.truth {
			correct++
		}
	}
	b.ReportMetric(100*float64(correct)/float64(len(all)), "%accurate")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// variants classifies r as the other classifiers do: without multipath on
// one post-race schedule of its first occurrence and no harm search,
// without multipath with
// augur's schedules, and as the Record/Replay Analyzer (its harmful
// counted as spec-violated, its benign as k-witness-harmless, as Portend+
// counts it).
func variants(prog *ir.Program, r *race.Race, copts classify.Options) (single, multisched *classify.Verdict, rra string) {
	one := copts
	one.Symbolic, one.AroundInputs, one.Ma, one.Search = false, false, 1, -1
	sched := copts
	sched.Symbolic, sched.AroundInputs = false, false
	base := classify.ReplayAnalyzer(prog, r, classify.Options{Run: copts.Run, Seed: copts.Seed})
	rra = string(category.Harmless)
	switch base.Category {
	case classify.Harmful:
		rra = string(category.SpecViolated)
	case classify.Unclassified:
		rra = string(category.Unclassified)
	}
	// One execution, as Portend+'s single-pre/single-post has: the race's
	// first occurrence, not the others detection's schedules reached.
	first := *r
	first.Alternates = nil
	return classify.Classify(prog, &first, one), classify.Classify(prog, r, sched), rra
}

// printAccuracy prints Table V and Fig. 13 for the corpus, and the time
// per race.
func printAccuracy(all []*corpusRace) {
	cats := []string{string(category.SpecViolated), string(category.OutputDiffers), string(category.Harmless), string(category.SingleOrdering)}
	fmt.Printf("accuracy on testdata/accuracy: %d races (%s)\n", len(all), truthCounts(all, cats))
	fmt.Printf("%-24s", "classifier")
	for _, c := range cats {
		fmt.Printf(" %-20s", c)
	}
	fmt.Printf(" %s\n", "all")
	for _, cl := range []string{"augur", "single-pre/single-post", "multischedule", "replay-analyzer"} {
		name := cl
		if cl == "multischedule" {
			name = "single path" // every technique but multipath
		}
		fmt.Printf("%-24s", name)
		total, right := 0, 0
		for _, c := range cats {
			n, ok := 0, 0
			for _, cr := range all {
				if cr.truth != c {
					continue
				}
				n++
				if cr.got[cl] == c {
					ok++
				}
			}
			total, right = total+n, right+ok
			cell := "-"
			if n > 0 {
				cell = fmt.Sprintf("%d/%d (%.0f%%)", ok, n, 100*float64(ok)/float64(n))
			}
			fmt.Printf(" %-20s", cell)
		}
		fmt.Printf(" %d/%d (%.1f%%)\n", right, total, 100*float64(right)/float64(total))
	}
	fmt.Println("contribution of each technique (Portend+ Fig. 13), races classified right, and the others:")
	for i, cl := range classifiers[:3] {
		n := 0
		var wrong []string
		for _, cr := range all {
			if cr.got[cl] == cr.truth {
				n++
			} else if cr.found {
				wrong = append(wrong, fmt.Sprintf("%s:%d-%d %s", strings.TrimSuffix(cr.file, ".c"), cr.lines[0], cr.lines[1], cr.got[cl]))
			}
		}
		sort.Strings(wrong)
		step := []string{"single-pre/single-post (one post-race schedule, ad hoc synchronization)", "+ multischedule (post-race schedules, harm search)", "+ multipath (inputs explored)"}[i]
		fmt.Printf("  %-75s %d of %d\n", step, n, len(all))
		if len(wrong) > 0 {
			fmt.Printf("    not: %s\n", strings.Join(wrong, "; "))
		}
	}
	var missed, wrong []string
	var secs []float64
	for _, cr := range all {
		where := fmt.Sprintf("%s lines %d-%d (%s)", cr.file, cr.lines[0], cr.lines[1], cr.truth)
		switch {
		case !cr.found:
			missed = append(missed, where)
		case cr.got["augur"] != cr.truth:
			wrong = append(wrong, where+": "+cr.got["augur"])
		default:
		}
		if cr.found {
			secs = append(secs, cr.seconds)
		}
	}
	sort.Strings(missed)
	sort.Strings(wrong)
	fmt.Printf("not found by detection: %d %s\n", len(missed), strings.Join(missed, "; "))
	fmt.Printf("classified wrong: %d %s\n", len(wrong), strings.Join(wrong, "; "))
	sort.Float64s(secs)
	if len(secs) > 0 {
		fmt.Printf("time per race: median %v, max %v (Portend+ Table IV: 0.72 s to 11 min)\n",
			time.Duration(secs[len(secs)/2]*float64(time.Second)).Round(time.Millisecond),
			time.Duration(secs[len(secs)-1]*float64(time.Second)).Round(time.Millisecond))
	}
}

func truthCounts(all []*corpusRace, cats []string) string {
	var parts []string
	for _, c := range cats {
		n := 0
		for _, cr := range all {
			if cr.truth == c {
				n++
			}
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, c))
	}
	return strings.Join(parts, ", ")
}

// printPrecision prints every race whose verdict was not the same in all
// the runs.
func printPrecision(runs map[string][]string) {
	var moved []string
	for key, got := range runs {
		for _, g := range got[1:] {
			if g != got[0] {
				moved = append(moved, fmt.Sprintf("%s: %s", key, strings.Join(got, ", ")))
				break
			}
		}
	}
	sort.Strings(moved)
	fmt.Printf("precision over %d analyses of the corpus: %d of %d verdicts moved\n", precisionRuns, len(moved), len(runs))
	for _, m := range moved {
		fmt.Println("  " + m)
	}
}
