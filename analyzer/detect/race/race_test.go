package race_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/detect/race/racetest"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/internal/testutil"
)

var invComment = regexp.MustCompile(`//\s*inversion:\s*(\S+)\s+(\S+)`)

// expectedInversions reads a test program's `// inversion: A B` comments:
// the lock-order inversions it expects, each a pair of lock names in
// sorted order.
func expectedInversions(t testing.TB, path string) []string {
	var out []string
	for _, c := range testutil.Comments(t, path, invComment) {
		out = append(out, c.Match[1]+" "+c.Match[2])
	}
	return out
}

func detect(t *testing.T, path string, schedules int) *race.Result {
	t.Helper()
	prog := loadtest.Program(t, cacheDir, path)
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
	files := testutil.Programs("../../../testdata/race")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/race")
	}
	for _, f := range files {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			checkAnnotated(t, f)
		})
	}
}

// checkAnnotated detects the races and lock-order inversions of the
// program at path with five schedules and matches them against its
// annotations.
func checkAnnotated(t *testing.T, path string) {
	res := detect(t, path, 5)
	racetest.CheckRaces(t, path, res.Races)
	var inv []string
	for _, i := range res.Inversions {
		names := []string{i.LockA, i.LockB}
		sort.Strings(names)
		inv = append(inv, strings.Join(names, " "))
	}
	sort.Strings(inv)
	want := expectedInversions(t, path)
	sort.Strings(want)
	if fmt.Sprint(inv) != fmt.Sprint(want) {
		t.Errorf("inversions %v, want %v", inv, want)
	}
}

// TestAnnotatedRacesWithWideLeaves is TestAnnotatedRaces with the
// detector's wide leaf cache made at its first miss: the slot a shadow is
// cached in must not change what is found. Not parallel with other
// tests, as it sets the threshold for every detector.
func TestAnnotatedRacesWithWideLeaves(t *testing.T) {
	defer race.SetWideAfter(1)()
	t.Run("group", func(t *testing.T) {
		for _, f := range testutil.Programs("../../../testdata/race") {
			t.Run(filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				checkAnnotated(t, f)
			})
		}
	})
}

// TestWideLeavesFollowAColumnWalk detects the race of a matrix walked
// down its columns, whose every access misses the sixteen leaves, with
// the wide leaf cache never made, made at its default (partway through
// the execution) and made at the first miss: each finds the one race,
// with the same racing accesses, every one of them counted (an access
// the cache served from the wrong shadow would change the count).
func TestWideLeavesFollowAColumnWalk(t *testing.T) {
	const path = "../../../testdata/bench/column_walk.c"
	prog := loadtest.Program(t, cacheDir, path)
	var want string
	for _, after := range []int{math.MaxInt, 0, 1} {
		restore := race.SetWideAfter(after)
		if after == 0 {
			restore()
		}
		res, err := race.Detect(prog, race.Options{Schedules: 1, Seed: 1, Explore: &race.Explore{Max: -1, Instructions: 1},
			Run: vm.Config{Args: []string{"column_walk.c"}, MaxInstructions: 50_000_000}})
		restore()
		if err != nil {
			t.Fatal(err)
		}
		racetest.CheckRaces(t, path, res.Races)
		var got []string
		for _, r := range res.Races {
			got = append(got, fmt.Sprintf("%s+%d %s %v %s %v x%d", r.Object, r.Offset, r.First.Loc, r.FirstAt, r.Second.Loc, r.SecondAt, r.Instances))
		}
		if after == math.MaxInt {
			want = fmt.Sprint(got)
		} else if fmt.Sprint(got) != want {
			t.Errorf("wide leaves after %d misses: races %v; the sixteen leaves alone: %v", after, got, want)
		}
	}
}

// Every program of the differential corpus is correctly synchronized (their
// output does not depend on the schedule), so none may report a race.
func TestNoFalsePositivesOnCorpus(t *testing.T) {
	files := append(testutil.Programs("../../../testdata/run"), "../../../testdata/demo/bank.c")
	for _, f := range files {
		f := f
		src, _ := os.ReadFile(f)
		if !strings.Contains(string(src), "pthread") && !strings.Contains(string(src), "std::thread") &&
			!strings.Contains(string(src), "thrd_create") {
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

// A race found by the plan keeps the plan's occurrences for
// classification when the exploration was cut by time; one the
// exploration alone found keeps its first occurrence.
func TestFromPlan(t *testing.T) {
	r := &race.Race{ID: "x", Instance: race.Instance{Technique: race.ByExplore, FirstAt: vm.StopPoint{Count: 1}},
		Alternates: []race.Instance{{Technique: race.ByRoundRobin, FirstAt: vm.StopPoint{Count: 2}}, {Technique: race.ByEnumeration},
			{Technique: race.ByDirected, FirstAt: vm.StopPoint{Count: 3}}}}
	p := r.FromPlan()
	if p.Technique != race.ByRoundRobin || len(p.Alternates) != 1 || p.Alternates[0].Technique != race.ByDirected || p.ID != "x" {
		t.Errorf("from the plan: %+v", p)
	}
	only := (&race.Race{ID: "y", Instance: race.Instance{Technique: race.ByExplore}, Alternates: []race.Instance{{Technique: race.ByEnumeration}}}).FromPlan()
	if only.Technique != race.ByExplore || len(only.Alternates) != 0 {
		t.Errorf("exploration only: %+v", only)
	}
}
