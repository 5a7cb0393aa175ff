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

// A long program's exploration keeps two executions in each wave, as its
// budget affords: the enumeration's root runs alone by its nature, and
// PCT's first schedules run beside it instead of after the whole
// enumeration; a short program's PCT schedules all run after it. The waves are fixed by
// instruction counts, so one worker or two run the same schedules.
func TestLongProgramsExploreBesideTheEnumeration(t *testing.T) {
	prog := loadtest.Program(t, cacheDir, "../../../testdata/bench/parallel_sum.c")
	run := func(n string, budget uint64, workers int) race.ExploreStats {
		args := []string{"parallel_sum", n}
		res, err := race.Detect(prog, race.Options{Schedules: 1, Seed: 1, AutoInstructions: true,
			Run:     vm.Config{Args: args, Limits: vm.Limits{MaxMemory: 1 << 30}},
			Explore: &race.Explore{Instructions: budget, Workers: workers, Until: time.Now().Add(2 * time.Minute)}})
		if err != nil {
			t.Fatal(err)
		}
		if long := n == "100000"; res.FirstInstructions <= race.FloorRun == long {
			t.Fatalf("%v ran %d instructions: the wrong side of FloorRun for this test", args, res.FirstInstructions)
		}
		return res.Explore
	}
	// 100,000 additions: 1.2 million instructions a schedule; a budget of
	// about four gives the enumeration two and PCT two.
	one, two := run("100000", 5_000_000, 1), run("100000", 5_000_000, 2)
	t.Logf("long: %d bounded, %d PCT (%d beside), %d instructions of %d, ended %s",
		one.Enumerated, one.Schedules, one.Beside, one.Instructions, one.Budget, one.Ended)
	if one.Enumerated == 0 || one.Beside == 0 || one.Beside > one.Schedules {
		t.Errorf("long program: %d bounded, %d PCT schedules, %d beside the enumeration; want PCT beside it", one.Enumerated, one.Schedules, one.Beside)
	}
	if one.Instructions > one.Budget+2_000_000 {
		t.Errorf("long program: ran %d instructions for a budget of %d", one.Instructions, one.Budget)
	}
	if one.Enumerated != two.Enumerated || one.Schedules != two.Schedules || one.Beside != two.Beside ||
		one.Instructions != two.Instructions || one.Seeds != two.Seeds {
		t.Errorf("one worker: %+v\ntwo: %+v", one, two)
	}
	// A budget of about one run pays for the enumeration's root alone,
	// though each half of it would round to a whole execution.
	if once := run("100000", 1_500_000, 2); once.Beside != 0 || once.Instructions > 1_500_000+700_000 {
		t.Errorf("a budget of about one run: %d bounded, %d PCT (%d beside), %d instructions; want none beside, within half a run",
			once.Enumerated, once.Schedules, once.Beside, once.Instructions)
	}
	// 1,000 additions: a short program, whose PCT schedules follow the
	// enumeration's.
	if short := run("1000", 3_000_000, 2); short.Beside != 0 || short.Schedules == 0 {
		t.Errorf("short program: %d PCT schedules, %d beside the enumeration; want some, none beside", short.Schedules, short.Beside)
	}
}
