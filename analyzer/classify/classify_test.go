package classify_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/classify"
	"augur/analyzer/race"
	"augur/analyzer/vm"
)

var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "augur-classify-")
	if err != nil {
		panic(err)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var raceComment = regexp.MustCompile(`//\s*race:\s*(\S+)\s+(\S+)`)

// expected returns, per source line, the category its race annotation
// expects.
func expected(t *testing.T, path string) map[int]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if m := raceComment.FindStringSubmatch(sc.Text()); m != nil {
			out[n] = m[2]
		}
	}
	return out
}

func lineIn(e race.Endpoint, file string) int {
	for _, f := range e.Stack {
		if filepath.Base(f.Loc.File) == filepath.Base(file) {
			return f.Loc.Line
		}
	}
	return 0
}

// classifyFile detects and classifies the races of a program.
func classifyFile(t *testing.T, path string) []*classify.Verdict {
	prog, err := analyzer.LoadProgram([]string{path}, build.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	cfg := vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var out []*classify.Verdict
	for _, r := range res.Races {
		out = append(out, classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1}))
	}
	return out
}

// TestCategories classifies every annotated race of testdata/race and
// testdata/classify and checks the category each annotation names.
func TestCategories(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../testdata/race", "../../testdata/classify"} {
		fs, _ := filepath.Glob(dir + "/*.c")
		files = append(files, fs...)
	}
	for _, f := range files {
		f := f
		want := expected(t, f)
		if len(want) == 0 {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".c"), func(t *testing.T) {
			t.Parallel()
			verdicts := classifyFile(t, f)
			if len(verdicts) == 0 {
				t.Fatal("no race found")
			}
			for _, v := range verdicts {
				line := lineIn(v.Race.Second, f)
				cat, ok := want[line]
				if !ok {
					cat = want[lineIn(v.Race.First, f)]
				}
				if string(v.Category) != cat {
					t.Errorf("race on %s (line %d): %s (%s), want %s", v.Race.Object, line, v.Category, v.Reason, cat)
				}
			}
		})
	}
}
