package analyzer_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/internal/testutil"
)

var patternComment = regexp.MustCompile(`//\s*pattern:\s*(\S+)`)

// TestBenignPatterns analyzes every program of testdata/race and
// testdata/classify and matches the benign patterns claimed against the
// programs' `// pattern: NAME` comments, each on a line of its race:
// every annotated pattern is recognized on its race, no race without an
// annotation is given one, and no harmful race is (the programs of
// testdata/race are mostly harmful).
func TestBenignPatterns(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata/race", "../testdata/classify"} {
		files = append(files, testutil.Programs(dir)...)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			var want []string
			for _, c := range testutil.Comments(t, path, patternComment) {
				want = append(want, fmt.Sprintf("%d %s", c.Line, c.Match[1]))
			}
			sort.Strings(want)
			res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), options(path), analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, r := range res.Races {
				p := res.Patterns[i]
				if p == nil {
					continue
				}
				if v := res.Verdicts[i]; v == nil || v.Harmful() {
					t.Errorf("pattern %s claimed on a race that is not harmless: %v", p.Name, v)
				}
				if p.Evidence == "" {
					t.Errorf("pattern %s on %s without evidence", p.Name, r.Object)
				}
				// The race matches the annotation on either of its lines.
				lines := []int{r.First.Loc.Line, r.Second.Loc.Line}
				sort.Ints(lines)
				key := fmt.Sprintf("%d %s", lines[0], p.Name)
				for _, l := range lines {
					if k := fmt.Sprintf("%d %s", l, p.Name); contains(want, k) {
						key = k
					}
				}
				if !contains(got, key) {
					got = append(got, key)
				}
				t.Logf("%s: %s: %s", r.Object, p.Name, p.Evidence)
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("patterns (line name):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
