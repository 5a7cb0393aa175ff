package race_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/race"
	"augur/analyzer/vm"
	"augur/internal/testutil"
)

// expectation is what a test program's comments promise.
type expectation struct {
	races      map[string][2]int // name -> the two endpoint lines (equal for a one-line race)
	inversions []string          // pairs of lock names, "a b"
}

var raceComment = regexp.MustCompile(`//\s*race:\s*(\S+)`)
var invComment = regexp.MustCompile(`//\s*inversion:\s*(\S+)\s+(\S+)`)

func readExpectations(t testing.TB, path string) expectation {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ex := expectation{races: map[string][2]int{}}
	lines := map[string][]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		for _, m := range raceComment.FindAllStringSubmatch(sc.Text(), -1) {
			lines[m[1]] = append(lines[m[1]], n)
		}
		if m := invComment.FindStringSubmatch(sc.Text()); m != nil {
			ex.inversions = append(ex.inversions, m[1]+" "+m[2])
		}
	}
	for name, ls := range lines {
		switch len(ls) {
		case 1:
			ex.races[name] = [2]int{ls[0], ls[0]}
		case 2:
			ex.races[name] = [2]int{ls[0], ls[1]}
		default:
			t.Fatalf("%s: race %s annotated on %d lines, want 1 or 2", path, name, len(ls))
		}
	}
	return ex
}

func detect(t *testing.T, path string, schedules int) *race.Result {
	t.Helper()
	prog, err := analyzer.LoadProgram([]string{path}, build.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	res, err := race.Detect(prog, race.Options{Schedules: schedules, Seed: 1,
		Run: vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 50_000_000}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var cacheDir string

func TestMain(m *testing.M) { testutil.MainWithCache(m, &cacheDir) }

// TestAnnotatedRaces matches the races found in every testdata/race program
// 1:1 against its // race: comments: every expected race is reported with
// both endpoint lines, and nothing else is.
func TestAnnotatedRaces(t *testing.T) {
	files := testutil.Programs("../../testdata/race")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/race")
	}
	for _, f := range files {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			ex := readExpectations(t, f)
			res := detect(t, f, 5)
			testutil.CheckRaces(t, f, res.Races)
			var inv []string
			for _, i := range res.Inversions {
				names := []string{i.LockA, i.LockB}
				sort.Strings(names)
				inv = append(inv, strings.Join(names, " "))
			}
			sort.Strings(inv)
			sort.Strings(ex.inversions)
			if fmt.Sprint(inv) != fmt.Sprint(ex.inversions) {
				t.Errorf("inversions %v, want %v", inv, ex.inversions)
			}
		})
	}
}

// Every program of the differential corpus is correctly synchronized (their
// output does not depend on the schedule), so none may report a race.
func TestNoFalsePositivesOnCorpus(t *testing.T) {
	files := append(testutil.Programs("../../testdata/run"), "../../testdata/demo/bank.c")
	for _, f := range files {
		f := f
		src, _ := os.ReadFile(f)
		if !strings.Contains(string(src), "pthread") && !strings.Contains(string(src), "std::thread") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			res := detect(t, f, 3)
			for _, r := range res.Races {
				t.Errorf("false race on %s: %s %s vs %s %s", r.Object, r.First.KindName(), r.First.Loc,
					r.Second.KindName(), r.Second.Loc)
			}
			for _, i := range res.Inversions {
				t.Errorf("false inversion %s / %s", i.LockA, i.LockB)
			}
		})
	}
}
