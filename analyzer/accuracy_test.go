package analyzer_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/detect/race/racetest"
	"augur/internal/testutil"
)

// The accuracy corpus (testdata/accuracy) holds races of every category
// with their true category, and why, written in the programs: races whose
// harm or output difference needs a particular input (and some a thread
// switch as well), harmless ones of every pattern of seed paper 001, ad
// hoc synchronization, output that the schedule reorders anyway. Each
// program runs with its `// args:` and `// stdin:` as given, and the
// analysis's defaults make them symbolic around those values.

// corpusOptions are the analysis options of a corpus program: the
// defaults, with the program's arguments and standard input.
func corpusOptions(t testing.TB, path string) analyzer.Options {
	opts := options(path)
	args, stdin := testutil.Directives(t, path)
	opts.Run.Args = append(opts.Run.Args, args...)
	opts.Run.Stdin = []byte(stdin)
	opts.Run.MaxMemory = 1 << 30
	return opts
}

// truth is an annotated race of a corpus program: its two lines and its
// true category.
type truth struct {
	lines    [2]int
	category string
}

// truths are a corpus program's expected races, in the order of their
// names.
func truths(t testing.TB, path string) []truth {
	lines := map[string][]int{}
	cats := map[string]string{}
	var names []string
	for _, a := range testutil.RaceAnnotations(t, path) {
		if lines[a.Name] == nil {
			names = append(names, a.Name)
		}
		lines[a.Name] = append(lines[a.Name], a.Line)
		cats[a.Name] = a.Category
	}
	var out []truth
	for _, name := range names {
		ls := lines[name]
		out = append(out, truth{[2]int{min(ls[0], ls[len(ls)-1]), max(ls[0], ls[len(ls)-1])}, cats[name]})
	}
	return out
}

// matchTruths pairs each annotated race with a race found on its two
// lines and that race's category ("" when none was found): two races on
// one pair of lines (each thread's read with the other's write) are
// matched category for category, so their truths match whichever was
// found first.
func matchTruths(t testing.TB, path string, races []*race.Race, category func(i int) string) []string {
	found := map[[2]int][]string{}
	for i, r := range races {
		x, y := racetest.LineIn(r.First, path), racetest.LineIn(r.Second, path)
		pair := [2]int{min(x, y), max(x, y)}
		found[pair] = append(found[pair], category(i))
	}
	ts := truths(t, path)
	got := make([]string, len(ts))
	for i, tr := range ts {
		cands := found[tr.lines]
		k := slices.Index(cands, tr.category)
		if k < 0 && len(cands) > 0 {
			k = 0
		}
		if k >= 0 {
			got[i] = cands[k]
			found[tr.lines] = slices.Delete(cands, k, k+1)
		}
	}
	return got
}

// TestAccuracyCorpus analyzes every program of the accuracy corpus with
// the default settings and checks that the races found are the annotated
// ones, each with its true category.
func TestAccuracyCorpus(t *testing.T) {
	for _, f := range testutil.Programs("../testdata/accuracy") {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			res, err := analyzer.Analyze(context.Background(), mustLoad(t, f), corpusOptions(t, f), analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			racetest.CheckRaces(t, f, res.Races)
			got := matchTruths(t, f, res.Races, func(i int) string { return string(res.Verdicts[i].Category) })
			for i, tr := range truths(t, f) {
				if got[i] != "" && got[i] != tr.category {
					t.Errorf("race at lines %d and %d: %s, want %s", tr.lines[0], tr.lines[1], got[i], tr.category)
				}
			}
		})
	}
}
