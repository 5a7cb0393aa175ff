package race_test

import (
	"testing"
	"time"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// TestExploreInstructionBudget explores a program whose every schedule
// runs about 120,000 instructions under a budget of 3,000,000: the
// exploration must end by it ("instructions"), at the first schedule that
// reaches it, and at the same schedule with one worker or two (the
// budget is a count, so no machine's speed or parallelism moves it). A
// time bound far off keeps a regression from running for long.
func TestExploreInstructionBudget(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/explore/fair_poll.c")
	const budget = 3_000_000
	run := func(workers int) *race.Result {
		res, err := race.Detect(prog, race.Options{Schedules: 3, Seed: 1,
			Run:     vm.Config{Args: []string{"fair_poll"}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
			Explore: &race.Explore{Instructions: budget, Workers: workers, Until: time.Now().Add(2 * time.Minute)}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, two := run(1), run(2)
	x := one.Explore
	t.Logf("%d bounded and %d PCT schedules ran %d instructions of %d", x.Enumerated, x.Schedules, x.Instructions, x.Budget)
	if x.Ended != race.EndedInstructions || x.Budget != budget {
		t.Fatalf("ended %q with a budget of %d, want %q and %d", x.Ended, x.Budget, race.EndedInstructions, budget)
	}
	if x.Instructions < budget {
		t.Errorf("ended after %d instructions, short of its budget", x.Instructions)
	}
	// One schedule runs at most a few hundred thousand: ending at the
	// first schedule past the budget leaves it short of one more.
	if over := x.Instructions - budget; over > 1_000_000 {
		t.Errorf("ran %d instructions past its budget: schedules after the one that spent it were merged", over)
	}
	if one.Schedules != two.Schedules || x.Schedules != two.Explore.Schedules || x.Instructions != two.Explore.Instructions {
		t.Errorf("one worker: %d schedules (%d explored, %d instructions); two: %d (%d, %d)", one.Schedules, x.Schedules,
			x.Instructions, two.Schedules, two.Explore.Schedules, two.Explore.Instructions)
	}
}

// TestExploreBudgetFollowsTheProgram checks the default budget: ten
// times the first execution's instructions, at least ExploreFloor.
func TestExploreBudgetFollowsTheProgram(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/explore/fair_poll.c")
	res, err := race.Detect(prog, race.Options{Schedules: 1, Seed: 1,
		Run:     vm.Config{Args: []string{"fair_poll"}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
		Explore: &race.Explore{Max: 8, Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Explore.Budget; got != race.ExploreFloor {
		t.Errorf("a program of %d instructions got an exploration budget of %d, want the floor %d", res.Instructions, got, race.ExploreFloor)
	}
}

// TestOneThreadRunsOnce: a program that never creates a second thread has
// one schedule (a policy only chooses among runnable threads), so
// detection runs it once, whatever its plan and exploration would allow,
// and says why the exploration did not run.
func TestOneThreadRunsOnce(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/run/arith_int.c")
	res, err := race.Detect(prog, race.Options{Schedules: 5, Directed: 5, Seed: 1,
		Run:     vm.Config{Args: []string{"arith_int"}, MaxInstructions: 50_000_000, Limits: vm.Limits{MaxMemory: 1 << 30}},
		Explore: &race.Explore{Instructions: 1 << 40, Until: time.Now().Add(2 * time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	x := res.Explore
	if res.Schedules != 1 || x.Ended != race.EndedOneThread || x.Schedules != 0 || x.Enumerated != 0 {
		t.Errorf("%d executions, exploration ended %q after %d bounded and %d PCT schedules; want 1, %q, none",
			res.Schedules, x.Ended, x.Enumerated, x.Schedules, race.EndedOneThread)
	}
}

// The plan's reversals always run side by side; its PCT schedules do
// once the program runs more than FloorRun, and never its round robin.
func TestLongerProgramsRunTheirPlanSideBySide(t *testing.T) {
	for _, c := range []struct {
		first uint64
		tech  race.Technique
		want  bool
	}{
		{1_000, race.ByReversal, true},
		{1_000, race.ByPCT, false},
		{race.FloorRun, race.ByPCT, false},
		{race.FloorRun + 1, race.ByPCT, true},
		{race.LongRun, race.ByPCT, true},
		{race.LongRun, race.ByRoundRobin, false},
	} {
		if got := race.SideBySide(c.first, c.tech); got != c.want {
			t.Errorf("first %d, %s: side by side %v, want %v", c.first, c.tech, got, c.want)
		}
	}
}

// Each stage after the plan has one run's worth of a program; a short
// program's stage has the floor, a long one's none (LongRun), and a
// setting is each stage's budget as given. Between FloorRun and LongRun
// the floor falls: continuously, never rising, and to about a run at
// LongRun.
func TestStagesFollowTheRun(t *testing.T) {
	for _, c := range []struct{ setting, first, want uint64 }{
		{0, 300_000_000, 300_000_000},
		{0, race.LongRun, race.LongRun},
		{0, race.FloorRun, race.ExploreFloor},
		{0, 1_000, race.ExploreFloor},
		{7_000, 300_000_000, 7_000},
	} {
		if got := race.FollowProgram(c.setting, c.first); got != c.want {
			t.Errorf("setting %d, first %d: budget %d, want %d", c.setting, c.first, got, c.want)
		}
	}
	prev := race.FollowProgram(0, race.FloorRun)
	for first := uint64(race.FloorRun) + 1; first < race.LongRun; first += first / 64 {
		got := race.FollowProgram(0, first)
		if got > prev || prev-got > prev/16 {
			t.Fatalf("first %d: budget %d after %d a little before: not a continuous fall", first, got, prev)
		}
		prev = got
	}
	if near := race.FollowProgram(0, race.LongRun-1); near > race.LongRun*101/100 {
		t.Errorf("first LongRun-1: budget %d, want about a run (%d)", near, race.LongRun)
	}
	// parallel_sum 2000000's first schedule: two runs' worth, not ten.
	if got := race.FollowProgram(0, 24_500_525); got < 49_000_000 || got > 74_000_000 {
		t.Errorf("a program of 24.5 million instructions: budget %d, want two to three runs", got)
	}
}
