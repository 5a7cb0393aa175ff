package race

import "augur/analyzer/exec/vm"

// Shares of detection's instructions. After the plan on the analysis's own
// inputs, detection has three stages whose executions grow with what the
// program shows rather than with one run of it: the plans on the explored
// inputs (up to Schedules executions for each), the race-directed runs
// (up to Directed for each input, one per potential race) and the
// exploration of schedules. A program that runs for a tenth of a second
// and shows dozens of potential races, or inputs that run it in full,
// would spend the most on them: pigz compressing 350 kB on two threads
// (100 million instructions a run) made 25 race-directed runs of the
// whole compression at its 89 potential races, 2.5 of the 6.06 billion
// instructions of its detection, and confirmed none. Each stage therefore
// has StageRuns runs' worth of instructions, and a short program's at
// least ExploreFloor, which its stages do not reach (followProgram;
// StageInstructions sets each stage's budget instead). The plans on
// inputs and the race-directed runs count only the executions that found
// no new race or failure, so a stage that keeps finding goes on (SPLASH-2
// fmm finds 37 of its 52 races in its race-directed runs). The counts are
// of instructions, so a share ends a stage at the same execution on any
// machine.

// LongRun is the first schedule's instruction count from which a program
// is long (a fifth of a second of a plain run or more): its stages have
// no floor, which would be several runs of it (pigz's 350 kB, 100 million
// instructions a run, had 2.5 runs a stage; stageFloor). Every program
// of the test corpus runs far fewer instructions.
const LongRun = 50_000_000

// Share is what one stage may run and ran.
type Share struct {
	// Budget is the instructions the stage's executions may run in all,
	// each counted from the program's start; 0 until the stage starts.
	Budget uint64
	// Spent is what they ran, but for the executions that found a new
	// race or failure.
	Spent uint64
	// LeftOut counts the executions the stage had planned and did not run
	// once it had spent Budget.
	LeftOut int
}

// open fixes the share's budget at the stage's start.
func (s *Share) open(budget uint64) {
	if s.Budget == 0 {
		s.Budget = budget
	}
}

// charge counts an execution of the stage (nil: not run), unless it found
// a new race or failure (fresh).
func (s *Share) charge(run *vm.Result, fresh bool) {
	if run != nil && !fresh {
		s.Spent += run.Instructions
	}
}

// spent reports whether the stage has run its budget.
func (s *Share) spent() bool { return s.Budget != 0 && s.Spent >= s.Budget }

// stageBudget is the instructions each stage after the plan may run in
// all, given what the first execution ran: Options.StageInstructions
// (0 following the program like the exploration's auto budget).
func (d *detection) stageBudget() uint64 { return followProgram(d.opts.StageInstructions, d.firstRan) }

// found counts the distinct races and failures found so far: an execution
// after which it grew found something new.
func (d *detection) found() int { return len(d.first) + len(d.seenFail) }
