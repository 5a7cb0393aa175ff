package analyzer

import (
	"testing"

	"augur/analyzer/vm"
)

// An analysis the time budget stopped while it explored inputs has not
// run detection: its report says why it stopped and what it found, and
// building it does not dereference the missing detection (it did: a Go
// panic and exit 2 instead of INCOMPLETE and exit 4).
func TestReportOfAnAnalysisStoppedBeforeDetection(t *testing.T) {
	res := &Result{Options: &Options{Run: vm.Config{Args: []string{"prog"}}},
		Stopped: &Stop{Budget: vm.BudgetTime, Message: "time budget of 3s exhausted", Stage: "exploring"}}
	rep := res.Report("/w")
	if rep.Stopped == nil || rep.Stopped.Stage != "exploring" || len(rep.Races) != 0 {
		t.Errorf("report: stopped %+v, %d races", rep.Stopped, len(rep.Races))
	}
	if rep.Complete() {
		t.Error("a stopped analysis's report says it is complete")
	}
}
