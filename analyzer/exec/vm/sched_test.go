package vm_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load/loadtest"
)

func loadSched(t *testing.T) *ir.Program {
	t.Helper()
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/interleave.c")
	return prog
}

func runWith(t *testing.T, prog *ir.Program, p sched.Policy) (string, *vm.Result) {
	t.Helper()
	var out bytes.Buffer
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"interleave"}, Stdout: &out, Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermExit {
		t.Fatalf("run ended with %s", res.Term.Report())
	}
	return out.String(), res
}

// The same seed gives the same schedule trace and output, byte for byte.
func TestSameSeedSameSchedule(t *testing.T) {
	prog := loadSched(t)
	out1, r1 := runWith(t, prog, sched.NewRandom(7))
	out2, r2 := runWith(t, prog, sched.NewRandom(7))
	if out1 != out2 || !reflect.DeepEqual(r1.Trace.Events(), r2.Trace.Events()) {
		t.Fatalf("seed 7 twice: %q vs %q, traces equal: %v", out1, out2, reflect.DeepEqual(r1.Trace.Events(), r2.Trace.Events()))
	}
	if r1.Trace.Len() < 30 {
		t.Fatalf("only %d scheduling decisions recorded", r1.Trace.Len())
	}
	// Different seeds explore different interleavings of the critical sections.
	outputs := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		out, _ := runWith(t, prog, sched.NewRandom(seed))
		outputs[out] = true
	}
	if len(outputs) < 5 {
		t.Errorf("20 seeds gave only %d distinct interleavings", len(outputs))
	}
}

// Replaying a recorded trace, after a round trip through its file, reproduces
// the run: same output, same decisions.
func TestReplayReproducesRun(t *testing.T) {
	prog := loadSched(t)
	want, rec := runWith(t, prog, sched.NewRandom(11))
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := rec.Trace.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	tr, err := sched.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, rep := runWith(t, prog, &sched.Replay{Trace: tr})
	if got != want {
		t.Fatalf("replay printed %q, recorded run printed %q", got, want)
	}
	recEvents, repEvents := rec.Trace.Events(), rep.Trace.Events()
	if len(recEvents) != len(repEvents) {
		t.Fatalf("replay made %d decisions, the recorded run %d", len(repEvents), len(recEvents))
	}
	for i := range recEvents {
		if recEvents[i] != repEvents[i] {
			t.Fatalf("decision %d differs: %+v vs %+v", i, recEvents[i], repEvents[i])
		}
	}
}

// tamperedTrace is the trace of a seeded run of the scheduling program
// with its sixth decision changed: a run replaying it leaves it there.
func tamperedTrace(t *testing.T) (*ir.Program, *sched.Trace) {
	prog := loadSched(t)
	_, rec := runWith(t, prog, sched.NewRandom(3))
	events := rec.Trace.Events()
	events[5].Next = (events[5].Next + 1) % 4
	return prog, sched.FromEvents(rec.Trace.Policy, rec.Trace.Seed, events)
}

// A trace from another program's run is detected as a divergence, not
// silently followed.
func TestReplayDivergence(t *testing.T) {
	prog, tampered := tamperedTrace(t)
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"interleave"}, Policy: &sched.Replay{Trace: tampered}})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermReplay {
		t.Fatalf("tampered trace: got %s, want replay divergence", res.Term.Kind)
	}
}

// A replayed prefix goes on past a divergence under its fallback, unless
// it prunes: then the execution ends where it left the trace, at the
// decision that differs, without running on.
func TestReplayPrefixPrunes(t *testing.T) {
	prog, tampered := tamperedTrace(t)
	run := func(prune bool) *vm.Result {
		p := &sched.ReplayPrefix{Trace: tampered, Fallback: sched.RoundRobin{}, Prune: prune}
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"interleave"}, Policy: p})
		if err != nil {
			t.Fatal(err)
		}
		return m.Run()
	}
	if res := run(false); res.Term.Kind != vm.TermExit {
		t.Fatalf("without pruning: %s, want the run to go on to its exit", res.Term.Report())
	}
	res := run(true)
	if res.Term.Kind != vm.TermReplay || !errors.Is(res.Term.Err, sched.ErrLeft) {
		t.Fatalf("pruning: %s, want it to end where it left the trace", res.Term.Report())
	}
	if res.Trace.Len() > 6 {
		t.Errorf("pruning: %d decisions made, want it to stop at the sixth", res.Trace.Len())
	}
}

// Without access preemption a thread runs from one synchronization call to
// the next, so an unsynchronized count++ loop never loses an update; with
// it, some seeded schedules interleave the loads and stores and do.
func TestPreemptAccessesExposesInterleavings(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/lost_update.c")
	run := func(seed uint64, preempt bool) string {
		var out bytes.Buffer
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"lost"}, Stdout: &out, Policy: sched.NewRandom(seed), PreemptAccesses: preempt})
		if err != nil {
			t.Fatal(err)
		}
		if res := m.Run(); res.Term.Kind != vm.TermExit {
			t.Fatalf("%s", res.Term.Report())
		}
		return out.String()
	}
	lost := 0
	for seed := uint64(1); seed <= 10; seed++ {
		if got := run(seed, false); got != "40\n" {
			t.Errorf("seed %d without access preemption printed %q", seed, got)
		}
		if run(seed, true) != "40\n" {
			lost++
		}
		if first, second := run(seed, true), run(seed, true); first != second {
			t.Errorf("seed %d with access preemption is not deterministic", seed)
		}
	}
	if lost == 0 {
		t.Error("no seed lost an update with access preemption")
	}
}

// Reads of the clock are recorded as inputs with where they happened, and
// the same run gives the same values.
func TestTimeReadsAreRecordedInputs(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/run/sleep_time.c")
	runOnce := func() *vm.Result {
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"sleep_time"}})
		if err != nil {
			t.Fatal(err)
		}
		return m.Run()
	}
	r1, r2 := runOnce(), runOnce()
	kinds := map[string]int{}
	for _, in := range r1.Inputs {
		kinds[in.Kind]++
		if in.Loc.Line == 0 {
			t.Errorf("input %+v without a location", in)
		}
	}
	if kinds["gettimeofday"] != 2 || kinds["time"] != 2 {
		t.Errorf("recorded inputs %v, want 2 gettimeofday and 2 time", kinds)
	}
	if !reflect.DeepEqual(r1.Inputs, r2.Inputs) {
		t.Error("the same run read different times")
	}
}

// Under sched.Quantum a thread passes the lock acquisitions that do not
// wait: testdata/sched/quantum.c's four adders make under a third of round
// robin's decisions, and its polling consumer still gets each item at the
// producer's next unlock, not a time slice later: the run fits a budget a
// slice per hand-over would exceed many times over. A trace recorded
// under Quantum replays, through its file, with the same output and
// decisions.
func TestQuantumPassesLocksThatDoNotWait(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/quantum.c")
	const want = "total 199990000\nreceived 2000 items, sum 2001000\n"
	run := func(p sched.Policy) (string, *vm.Result) {
		t.Helper()
		return runWithinBudget(t, prog, p)
	}
	rrOut, rr := run(sched.RoundRobin{})
	qOut, q := run(sched.Quantum{})
	if rrOut != want || qOut != want {
		t.Fatalf("round robin printed %q, quantum %q; want %q", rrOut, qOut, want)
	}
	t.Logf("decisions: round robin %d, quantum %d; instructions %d and %d", rr.Trace.Len(), q.Trace.Len(), rr.Instructions, q.Instructions)
	if q.Trace.Len()*3 > rr.Trace.Len() {
		t.Errorf("quantum made %d decisions, round robin %d: not under a third", q.Trace.Len(), rr.Trace.Len())
	}
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := q.Trace.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	tr, err := sched.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	repOut, rep := run(&sched.Replay{Trace: tr})
	if repOut != want || rep.Trace.Len() != q.Trace.Len() || rep.Instructions != q.Instructions {
		t.Fatalf("replay of the quantum trace: %q, %d decisions, %d instructions; recorded %d and %d",
			repOut, rep.Trace.Len(), rep.Instructions, q.Trace.Len(), q.Instructions)
	}
}

// An analysis's execution decides at every lock for its first
// Config.LockQuantumAfter decisions, then passes the acquisitions that do
// not wait, as augur run's schedule does: testdata/sched/quantum.c under
// round robin so makes under half the decisions, with the same output.
// Its trace records where passing began, so a replay through the trace's
// file (whose own configuration says nothing of it) passes the same
// points, and a policy that replays a prefix of it under the same
// configuration (a reversal) follows the recorded decisions.
func TestLockQuantumAfterFirstDecisions(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/quantum.c")
	const want = "total 199990000\nreceived 2000 items, sum 2001000\n"
	run := func(p sched.Policy, after int) (string, *vm.Result) {
		t.Helper()
		out, res := runQuantumAfter(t, prog, p, after)
		if out != want {
			t.Fatalf("%s (lock quantum after %d): printed %q, want %q", p.Name(), after, out, want)
		}
		return out, res
	}
	_, rr := run(sched.RoundRobin{}, 0)
	_, lq := run(sched.RoundRobin{}, 1000)
	t.Logf("decisions: round robin %d, passing after 1000 %d", rr.Trace.Len(), lq.Trace.Len())
	if lq.Trace.Len()*2 > rr.Trace.Len() || lq.Trace.Len() <= 1000 {
		t.Errorf("passing after 1000 decisions made %d, round robin %d: want over 1000 and under half", lq.Trace.Len(), rr.Trace.Len())
	}
	if lq.Trace.LockQuantumAfter != 1000 || rr.Trace.LockQuantumAfter != 0 {
		t.Errorf("traces record lock quantum after %d and %d, want 1000 and 0", lq.Trace.LockQuantumAfter, rr.Trace.LockQuantumAfter)
	}
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := lq.Trace.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	tr, err := sched.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, rep := run(&sched.Replay{Trace: tr}, 0); rep.Trace.Len() != lq.Trace.Len() || rep.Instructions != lq.Instructions {
		t.Errorf("replay: %d decisions, %d instructions; recorded %d and %d", rep.Trace.Len(), rep.Instructions, lq.Trace.Len(), lq.Instructions)
	}
	// A prefix past the point where passing began, then round robin with
	// thread 1 held back: the prefix is replayed as recorded.
	pp := &sched.Postpone{Trace: lq.Trace, Prefix: 1500, Thread: 1}
	if _, post := run(pp, 1000); post.Trace.Len() < 1500 {
		t.Errorf("postponed schedule made %d decisions, fewer than its prefix", post.Trace.Len())
	} else {
		c1, c2 := lq.Trace.Cursor(), post.Trace.Cursor()
		for i := 0; i < 1500; i++ {
			a, _ := c1.Next()
			b, _ := c2.Next()
			if a.Next != b.Next || a.Thread != b.Thread || a.Loc != b.Loc {
				t.Fatalf("decision %d: postponed schedule %+v, recorded %+v", i, b, a)
			}
		}
	}
}

// runWithinBudget runs prog under p within a budget that a time slice
// per hand-over of testdata/sched/quantum.c's polling consumer, or of
// ping_pong.c's or trylock_turns.c's spinning players, would exceed.
func runWithinBudget(t *testing.T, prog *ir.Program, p sched.Policy) (string, *vm.Result) {
	t.Helper()
	return runQuantumAfter(t, prog, p, 0)
}

// runQuantumAfter is runWithinBudget with Config.LockQuantumAfter.
func runQuantumAfter(t *testing.T, prog *ir.Program, p sched.Policy, after int) (string, *vm.Result) {
	t.Helper()
	var out bytes.Buffer
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Stdout: &out, Policy: p, MaxInstructions: 50_000_000, LockQuantumAfter: after})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermExit {
		t.Fatalf("%s: %s", p.Name(), res.Term.Report())
	}
	return out.String(), res
}

// PCT drops a thread picked again at sched.FairPoints of its points in a
// row below the others, as it drops one that ran a whole time slice, and
// the enumeration's schedules make it give way there (sched.Bounded): a
// consumer polling under a lock (testdata/sched/quantum.c) or a thread
// spinning on an atomic flag (ping_pong.c) or a try-lock (trylock_turns.c)
// otherwise kept the thread it
// waited for off the processor for a slice per hand-over, and 2,000
// hand-overs exhausted the instruction budget: a hang the schedule made,
// which detection reported as the program's.
func TestSchedulesAreFairToPollingThreads(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"quantum.c", "total 199990000\nreceived 2000 items, sum 2001000\n"},
		{"ping_pong.c", "2000 2000\n"},
		{"trylock_turns.c", "2000 2000\n"},
		{"yield_holding.c", "sum 125250\n"},
		{"semaphore_turns.c", "2000 2000\n"},
		{"nonblocking_turns.c", "2000\n"},
		{"flag_turns.c", "1000 1000\n"},
		{"counting_turns.c", "1000 1000 waited\n"},
		{"pause_turns.c", "1000 1000 rdtsc ok\n"},
		{"relax_turns.c", "1000 1000\n"},
		{"reader_turns.c", "1000 1000\n"},
	} {
		prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/"+c.file)
		for seed := uint64(1); seed <= 8; seed++ {
			for _, depth := range []int{2, 3} {
				if out, _ := runWithinBudget(t, prog, sched.NewPCT(seed, depth, 1000)); out != c.want {
					t.Fatalf("%s, pct seed %d depth %d: printed %q, want %q", c.file, seed, depth, out, c.want)
				}
			}
		}
		// The analysis's executions pass lock acquisitions after their
		// first decisions (Config.LockQuantumAfter): from the first here.
		for seed := uint64(1); seed <= 4; seed++ {
			if out, _ := runQuantumAfter(t, prog, sched.NewPCT(seed, 3, 1000), 1); out != c.want {
				t.Fatalf("%s, pct seed %d passing locks: printed %q, want %q", c.file, seed, out, c.want)
			}
		}
		if out, _ := runQuantumAfter(t, prog, &sched.Bounded{}, 1); out != c.want {
			t.Fatalf("%s, bounded passing locks: printed %q, want %q", c.file, out, c.want)
		}
		// augur run's schedule: an unlock that wakes a waiter is a
		// decision, or yield_holding.c's consumer took the mutex again,
		// under the quantum, before the producer it woke ran.
		if out, _ := runWithinBudget(t, prog, sched.Quantum{}); out != c.want {
			t.Fatalf("%s, quantum: printed %q, want %q", c.file, out, c.want)
		}
		// The enumeration's schedules: the one that never preempts, and
		// those that choose another thread at one of its first decisions.
		first := &sched.Bounded{}
		runWithinBudget(t, prog, first)
		for i, d := range first.Decisions[:min(len(first.Decisions), 16)] {
			for _, r := range d.Runnable {
				if r == d.Chose {
					continue
				}
				prefix := []int{}
				for _, e := range first.Decisions[:i] {
					prefix = append(prefix, e.Chose)
				}
				prefix = append(prefix, r)
				var out bytes.Buffer
				m, err := vm.New(prog, vm.Config{Models: libc.Models(), Stdout: &out, Policy: &sched.Bounded{Prefix: prefix}, MaxInstructions: 50_000_000})
				if err != nil {
					t.Fatal(err)
				}
				if res := m.Run(); res.Term.Kind != vm.TermExit || out.String() != c.want {
					t.Fatalf("%s, bounded schedule with prefix %v: printed %q; %s", c.file, prefix, out.String(), res.Term.Report())
				}
			}
		}
	}
}

// Round robin hands over at once where a thread polls: a failed try-lock,
// sem_trywait or nonblocking read is a preemption point at every second
// failure in a row (Machine.TryFailed), and a spin loop's loads are points
// (ir.markSpinLoops). Switching at each failed try kept
// testdata/race/trylock_backoff.c's two threads in step for ever (each took
// its first lock, failed to try the other's, let go and yielded); a failed
// sem_trywait or nonblocking read, and a plain-flag spin, were no point at
// all, and each hand-over cost a whole time slice.
func TestRoundRobinDoesNotRetryTryLocksInStep(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"race/trylock_backoff.c", "40 moves\n"},
		{"sched/trylock_turns.c", "2000 2000\n"},
		{"sched/semaphore_turns.c", "2000 2000\n"},
		{"sched/nonblocking_turns.c", "2000\n"},
		{"sched/flag_turns.c", "1000 1000\n"},
		{"sched/counting_turns.c", "1000 1000 waited\n"},
		{"sched/relax_turns.c", "1000 1000\n"},
		{"sched/reader_turns.c", "1000 1000\n"},
	} {
		prog := loadtest.Program(t, t.TempDir(), "../../../testdata/"+c.file)
		if out, _ := runWithinBudget(t, prog, sched.RoundRobin{}); out != c.want {
			t.Fatalf("%s printed %q, want %q", c.file, out, c.want)
		}
	}
}

// A thread backing off from a failed try-lock goes on through its next
// acquisition (Machine.TookLock): with a switch there, four threads taking
// two mutexes as std::lock does (testdata/sched/lock_pairs.c) went round in
// step for ever once detection postponed thread 1 after the round-robin
// run's second decision, and cpp_locks.cpp was reported as a hang. Every
// postponement the detection plan derives, round robin and the PCT seeds
// must let it finish.
func TestLockBackOffDoesNotRunInStep(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/lock_pairs.c")
	const want = "total 100\n"
	out, res := runWithinBudget(t, prog, sched.RoundRobin{})
	if out != want {
		t.Fatalf("round robin printed %q", out)
	}
	postponements := sched.Reversals(res.Trace, 64, func(w string) bool { return w == "pthread_mutex_lock" })
	if len(postponements) < 4 {
		t.Fatalf("only %d postponements", len(postponements))
	}
	for _, p := range postponements {
		if out, _ := runWithinBudget(t, prog, p); out != want {
			t.Fatalf("%s printed %q", p.Name(), out)
		}
	}
	for seed := uint64(1); seed <= 8; seed++ {
		if out, _ := runWithinBudget(t, prog, sched.NewPCT(seed, 3, 1000)); out != want {
			t.Fatalf("pct seed %d printed %q", seed, out)
		}
	}
}

// A steady clock never runs back in a thread's view across a join: the
// joiner sees at least the joined thread's last reading.
func TestSteadyClockGoesOnAcrossJoin(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/sched/steady_join.c")
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"steady_join"}})
	if err != nil {
		t.Fatal(err)
	}
	m.SetSteadyClock()
	res := m.Run()
	if out, _ := vm.Streams(res.Output); string(out) != "forward\n" {
		t.Fatalf("%s: printed %q", res.Term.Kind, out)
	}
}
