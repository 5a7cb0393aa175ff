package symex_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// outcomesRe reads a litmus program's allowed outcomes per model:
//
//	outcomes sc: 0,0 0,1 1,1
var outcomesRe = regexp.MustCompile(`outcomes (sc|weak): (.*)`)

// Exploring every schedule of a litmus program finds exactly the outcomes
// its comment allows under each memory model: all of them (state
// coverage 100%) and nothing else.
func TestLitmusOutcomes(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/weak/*.c")
	n := 0
	for _, path := range files {
		src, _ := os.ReadFile(path)
		allowed := map[string][]string{}
		for _, m := range outcomesRe.FindAllStringSubmatch(string(src), -1) {
			allowed[m[1]] = strings.Fields(m[2])
		}
		if len(allowed) == 0 {
			continue
		}
		n++
		prog := loadtest.Program(t, cacheDir, path)
		for _, model := range []string{"sc", "weak"} {
			res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"litmus"}, MaxInstructions: 1_000_000},
				AllSchedules: true, Model: modelOf(model), MaxPaths: 100000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.StoppedBy != "" || res.Stats.ForksRefused > 0 {
				t.Fatalf("%s %s: exploration incomplete: %s, %d forks refused", filepath.Base(path), model,
					res.Stats.StoppedBy, res.Stats.ForksRefused)
			}
			got := outputsOf(t, res, filepath.Base(path)+" "+model)
			want := append([]string(nil), allowed[model]...)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s under %s: explored outcomes %v, want exactly %v", filepath.Base(path), model, got, want)
			}
			t.Logf("%s %-4s: %d paths, %d schedule forks, %d weak forks, %d stale reads: %v",
				filepath.Base(path), model, res.Stats.Paths, res.Stats.ScheduleForks, res.Stats.WeakForks, res.Stats.StaleReads, got)
		}
	}
	if n < 3 {
		t.Fatalf("only %d litmus programs", n)
	}
}

// The weak model's bookkeeping, program by program (testdata/weak/vm):
// identical stores compress to one history entry, re-reads return the
// same value, a join hides everything older, a spin on a stale flag ends.
// Each program is explored depth-first and breadth-first (states pause at
// every fork), which must agree.
func TestWeakBookkeeping(t *testing.T) {
	wantForks := map[string]int{"compress.c": 1, "reread.c": 1, "joined.c": 0}
	for _, name := range []string{"compress.c", "reread.c", "joined.c", "spin.c"} {
		path := "../../../testdata/weak/vm/" + name
		src, _ := os.ReadFile(path)
		m := outcomesRe.FindStringSubmatch(string(src))
		if m == nil {
			t.Fatalf("%s: no outcomes line", name)
		}
		want := strings.Fields(m[2])
		if name == "reread.c" {
			want = []string{"0 0", "2 2"}
		}
		sort.Strings(want)
		prog := loadtest.Program(t, cacheDir, path)
		for _, searcher := range []string{"dfs", "bfs"} {
			res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"w"}, MaxInstructions: 10_000_000},
				Model: memmodel.Weak, Searcher: searcher})
			if err != nil {
				t.Fatal(err)
			}
			got := outputsOf(t, res, name+" "+searcher)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%s (%s): outputs %q, want %q", name, searcher, got, want)
			}
			if w, ok := wantForks[name]; ok && res.Stats.WeakForks != w {
				t.Errorf("%s (%s): %d weak forks, want %d", name, searcher, res.Stats.WeakForks, w)
			}
		}
	}
}

// outputsOf returns the distinct outputs of an exploration's paths,
// sorted, failing the test on a path that did not exit.
func outputsOf(t *testing.T, res *symex.Result, what string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range res.Paths {
		if p.Term.Kind != vm.TermExit {
			t.Errorf("%s: a path ended in %s: %s", what, p.Term.Kind, p.Term.Message)
			continue
		}
		var out strings.Builder
		for _, e := range p.Output {
			out.Write(e.Data)
		}
		seen[strings.TrimSpace(out.String())] = true
	}
	var got []string
	for o := range seen {
		got = append(got, o)
	}
	sort.Strings(got)
	return got
}

func modelOf(name string) memmodel.Model {
	m, _ := memmodel.Parse(name)
	return m
}
