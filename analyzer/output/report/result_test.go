package report

import (
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// An analysis the time budget stopped while it explored inputs has not
// run detection: its report says why it stopped and what it found, and
// building it does not dereference the missing detection (it did: a Go
// panic and exit 2 instead of INCOMPLETE and exit 4).
func TestReportOfAnAnalysisStoppedBeforeDetection(t *testing.T) {
	res := &analyzer.Result{Options: &analyzer.Options{Run: vm.Config{Args: []string{"prog"}}},
		Stopped: &analyzer.Stop{Budget: vm.BudgetTime, Message: "time budget of 3s exhausted", Stage: "exploring"}}
	rep := FromResult(res, "/w")
	if rep.Stopped == nil || rep.Stopped.Stage != "exploring" || len(rep.Races) != 0 {
		t.Errorf("report: stopped %+v, %d races", rep.Stopped, len(rep.Races))
	}
	if rep.Complete() {
		t.Error("a stopped analysis's report says it is complete")
	}
}

// A verdict decided while a budget left part of its work out (the rest
// of its harm search) stands, and the report it is in says the analysis
// is incomplete: a run that ran out of time exits 4, not 0, even when
// every race has a category.
func TestReportOfAVerdictCutShort(t *testing.T) {
	res := &analyzer.Result{Options: &analyzer.Options{Run: vm.Config{Args: []string{"prog"}}},
		Cuts: []analyzer.Stop{{Budget: vm.BudgetTime, Message: "the harm search ran 3 of its 8 PCT schedules (time budget of 1m0s exhausted)",
			Stage: "classifying race abc"}}}
	rep := FromResult(res, "/w")
	if rep.Complete() || rep.Stopped != nil {
		t.Fatalf("report complete %v, stopped %+v: want incomplete and not stopped", rep.Complete(), rep.Stopped)
	}
	g := rep.Incomplete[0]
	if want := "the time budget ran out while classifying race abc: the harm search ran 3 of its 8"; g.Kind != "budget" || g.Budget != "time" ||
		!strings.HasPrefix(g.Message, want) {
		t.Errorf("gap %+v, want a time budget gap %q...", g, want)
	}
}

// A stack overflow's stack keeps its two ends in the report, the middle
// one frame that says how many it stands for; a short stack is whole, and
// the runtime's entry frame is left out of both.
func TestDeepStacksKeepTheirEnds(t *testing.T) {
	stack := func(n int) []vm.StackFrame {
		st := make([]vm.StackFrame, n, n+1)
		for i := range st {
			st[i] = vm.StackFrame{Function: "rotate", Loc: ir.Loc{File: "/w/tree.c", Line: i + 1}}
		}
		st[n-1].Function = "worker"
		return append(st, vm.StackFrame{Function: "__augur_thread_start"})
	}
	if got := frames(stack(10), "/w"); len(got) != 10 || got[9].Function != "worker" || got[0].File != "tree.c" {
		t.Errorf("a 10-frame stack: %+v", got)
	}
	got := frames(stack(20000), "/w")
	if len(got) != keptInner+1+keptOuter {
		t.Fatalf("a 20,000-frame stack kept %d frames, want %d", len(got), keptInner+1+keptOuter)
	}
	mid := got[keptInner]
	if mid.Function != "... 19936 frames ..." || mid.File != "" || got[keptInner-1].Line != keptInner ||
		got[keptInner+1].Line != 20000-keptOuter+1 || got[len(got)-1].Function != "worker" {
		t.Errorf("a 20,000-frame stack's middle is %+v; its ends %+v and %+v", mid, got[0], got[len(got)-1])
	}
	var b strings.Builder
	writeFrames(&b, got)
	if !strings.Contains(b.String(), "\n    ... 19936 frames ...\n") {
		t.Errorf("the text's stack does not say what it left out:\n%s", b.String())
	}
}
