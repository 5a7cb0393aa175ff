package lsp

import (
	"strings"
	"testing"

	"augur/analyzer/judge/category"
	"augur/analyzer/output/report"
)

func TestOutputDifferenceQuotesTheFirstDifferingLine(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"Making pool\nAdding tasks\nTask 7\nTask 8\n", "Making pool\nAdding tasks\nTask 8\nTask 7\n",
			"at line 3 of the output, one order prints `Task 7`, the other `Task 8` (both after `Adding tasks`)"},
		{"total 3\n", "total 3\nwarning: late\n", "at line 2 of the output, one order prints nothing more, the other `warning: late` (both after `total 3`)"},
		{"a\n", "b\n", "at line 1 of the output, one order prints `a`, the other `b`"},
	} {
		if got := outputDifference(c.a, c.b); got != c.want {
			t.Errorf("outputDifference(%q, %q) =\n%s\nwant\n%s", c.a, c.b, got, c.want)
		}
	}
}

// A race between a synchronization call and the end of its object's life
// gets advice about when to let the object go, not "hold a mutex or make
// it atomic": a signal after the unlock is moved before it, a lock comes
// before what lets the destroying thread go on. A harmless destroy race
// gets that advice too (POSIX leaves it undefined), with ignoring it as
// the alternative; other races keep their advice.
func TestTeardownRaceFixSaysWhenToLetGo(t *testing.T) {
	signal := report.Access{Kind: "read", Call: "pthread_cond_signal", Function: "worker"}
	lock := report.Access{Kind: "read", Call: "pthread_spin_lock", Function: "worker"}
	destroy := func(call string) report.Access { return report.Access{Kind: "write", Call: call, Function: "main"} }
	free := report.Access{Kind: "free", Function: "main"}
	plain := report.Access{Kind: "write", Function: "main"}
	for _, c := range []struct {
		category string
		a, b     report.Access
		want     []string
	}{
		{string(category.SpecViolated), signal, destroy("pthread_cond_destroy"),
			[]string{"Call pthread_cond_signal while still holding the mutex, before pthread_mutex_unlock",
				"go on to the pthread_cond_destroy", "Or join worker's thread"}},
		{string(category.SpecViolated), free, signal, []string{"Call pthread_cond_signal while still holding", "go on to the free"}},
		{string(category.Harmless), lock, destroy("pthread_spin_destroy"),
			[]string{"Let main go on to the pthread_spin_destroy only after worker's last pthread_spin_lock",
				"*Ignore this race*"}},
		{string(category.Harmless), signal, free, []string{"Nothing to fix if this is intended"}},
		{string(category.SpecViolated), plain, signal, []string{"Hold the same mutex around both accesses"}},
	} {
		r := &report.Race{Accesses: []report.Access{c.a, c.b}}
		st := raceStory{site: &raceSite{race: r, category: c.category, shown: [2]report.Access{c.a, c.b}}, me: c.a, other: c.b, name: "`c->cond`"}
		got := st.fix()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s race of %s and %s: fix %q lacks %q", c.category, c.a.Noun(), c.b.Noun(), got, w)
			}
		}
		if strings.Contains(got, "atomic") && c.a.Call != "" {
			t.Errorf("%s race of %s and %s: fix %q says to make a synchronization object atomic", c.category, c.a.Noun(), c.b.Noun(), got)
		}
	}
}
