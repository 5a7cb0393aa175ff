package report

import (
	"strings"
	"testing"

	"augur/analyzer/detect/race"
)

// TestBudgetLineSaysWhatRan checks the BUDGET line against what ran: a
// report of one schedule names no later execution, since none ran; one
// of several gives the budget the later ones had.
func TestBudgetLineSaysWhatRan(t *testing.T) {
	for _, c := range []struct {
		schedules int
		want      string
	}{
		{1, "BUDGET: the one schedule ran 59 instructions with no instruction budget\n"},
		{5, "BUDGET: the first schedule ran 59 instructions with no instruction budget; every later execution had 10000000 (10x, at least 10000000)\n"},
	} {
		var b strings.Builder
		r := &Report{Stats: Stats{Schedules: c.schedules, FirstInstructions: 59, InstructionBudget: 10000000}}
		if err := WriteText(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("%d schedules: the report\n%s\nlacks %q", c.schedules, b.String(), c.want)
		}
	}
}

// TestExplorationLineSaysThePathBudget checks that the EXPLORATION line
// gives the instruction budget the explored paths had, and the inputs
// left out for outrunning it: each stage's budget is in the report.
func TestExplorationLineSaysThePathBudget(t *testing.T) {
	var b strings.Builder
	r := &Report{Stats: Stats{Paths: 13, SolverQueries: 57, PathBudget: 35000000, LongInputRuns: 2,
		LongInputSchedule: "round-robin on inputs args [\"6\"]", LongInputsLeftOut: 2}}
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"each path after the given inputs' had 35000000 instructions (10x theirs, at least 10000000)",
		"2 executions on explored inputs ran out of their budget",
		"2 more such inputs not run under the detector",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report\n%s\nlacks %q", b.String(), want)
		}
	}
}

// TestShareLinesSayWhatWasLeftOut checks that a stage its share of
// instructions ended says so, with what it left out, and that one that
// ran all it planned adds no line.
func TestShareLinesSayWhatWasLeftOut(t *testing.T) {
	var b strings.Builder
	r := &Report{Stats: Stats{Schedules: 20,
		InputsShare:   &Share{InstructionBudget: 250000000, Instructions: 1200},
		DirectedShare: &Share{InstructionBudget: 993585520, Instructions: 993585531, LeftOut: 15}}}
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "BUDGET: race-directed runs ran their share of instructions on executions that found nothing new, 993585531 of 993585520 " +
		"(a stage's budget: 1x the first schedule's, at least 250000000 up to a first schedule of 1000000, a floor that falls to none at 50000000; --explore-instructions), and left out 15 potential races\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the report\n%s\nlacks %q", b.String(), want)
	}
	if strings.Contains(b.String(), "plans on explored inputs") {
		t.Errorf("the report\n%s\nsays the inputs' plans ended on their share; they left nothing out", b.String())
	}
}

// TestForkJoinLineSaysWhatCanDiffer checks the SCHEDULES line of an
// analysis whose first schedule was the only execution: when the threads
// printed while two of them lived, it says the order of what they print
// can differ; otherwise that every schedule is the one run.
func TestForkJoinLineSaysWhatCanDiffer(t *testing.T) {
	for _, c := range []struct {
		order      bool
		want, lack string
	}{
		{false, "so every schedule is the one already run\n", "order of what they print"},
		{true, "so every schedule runs them as this one did (only the order of what they print can differ)\n", "is the one already run"},
	} {
		var b strings.Builder
		r := &Report{Stats: Stats{Schedules: 1, Exploration: &Exploration{Ended: race.EndedForkJoin, OutputOrder: c.order}}}
		if err := WriteText(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) || strings.Contains(b.String(), c.lack) {
			t.Errorf("output order %v: the report\n%s\nlacks %q or has %q", c.order, b.String(), c.want, c.lack)
		}
	}
}
