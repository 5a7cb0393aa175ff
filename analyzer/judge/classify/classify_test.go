package classify_test

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/detect/race/racetest"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load/loadtest"
	"augur/analyzer/judge/classify"
	"augur/internal/testutil"
)

var cacheDir string

func TestMain(m *testing.M) { testutil.MainWithCache(m, &cacheDir) }

// expected returns, per source line, the category its race annotation
// expects.
func expected(t *testing.T, path string) map[int]string {
	out := map[int]string{}
	for _, a := range testutil.RaceAnnotations(t, path) {
		out[a.Line] = a.Category
	}
	return out
}

// pairCategories returns, per pair of endpoint lines, the sorted
// categories the annotations of a program name for its races.
func pairCategories(t *testing.T, path string) map[[2]int][]string {
	lines := map[string][]int{}
	cats := map[string]string{}
	for _, a := range testutil.RaceAnnotations(t, path) {
		lines[a.Name] = append(lines[a.Name], a.Line)
		cats[a.Name] = a.Category
	}
	out := map[[2]int][]string{}
	for name, ls := range lines {
		pair := [2]int{min(ls[0], ls[len(ls)-1]), max(ls[0], ls[len(ls)-1])}
		out[pair] = append(out[pair], cats[name])
	}
	for _, cs := range out {
		sort.Strings(cs)
	}
	return out
}

// classifyFile detects and classifies the races of a program.
func classifyFile(t *testing.T, path string) []classified {
	return classifyFileMa(t, path, 0)
}

// classified is a race with its verdict.
type classified struct {
	*classify.Verdict
	Race *race.Race
}

// TestCategories classifies every annotated race of testdata/race and
// testdata/classify and checks the category each annotation names.
func TestCategories(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../../testdata/race", "../../../testdata/classify"} {
		files = append(files, testutil.Programs(dir)...)
	}
	for _, f := range files {
		f := f
		want := expected(t, f)
		if len(want) == 0 {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			verdicts := classifyFile(t, f)
			if len(verdicts) == 0 {
				t.Fatal("no race found")
			}
			byPair := pairCategories(t, f)
			got := map[[2]int][]string{}
			for _, v := range verdicts {
				a, b := racetest.LineIn(v.Race.First, f), racetest.LineIn(v.Race.Second, f)
				pair := [2]int{min(a, b), max(a, b)}
				if _, ok := byPair[pair]; ok {
					got[pair] = append(got[pair], string(v.Category))
					continue
				}
				line := racetest.LineIn(v.Race.Second, f)
				cat, ok := want[line]
				if !ok {
					cat = want[racetest.LineIn(v.Race.First, f)]
				}
				if string(v.Category) != cat {
					t.Errorf("race on %s (line %d): %s (%s), want %s", v.Race.Object, line, v.Category, v.Reason, cat)
				}
			}
			// Two races on one pair of lines (each thread may be the one
			// that initializes) may have two categories: the pair's
			// categories must be the annotations'.
			for pair, cats := range got {
				sort.Strings(cats)
				if w := byPair[pair]; strings.Join(cats, ",") != strings.Join(w, ",") {
					t.Errorf("races at lines %d and %d: %v, want %v", pair[0], pair[1], cats, w)
				}
			}
		})
	}
}

// A detector that ignores mutexes reports races on lock-protected data;
// classification must never call them harmful: the other order cannot be
// enforced while the first thread holds the lock.
func TestMutexBlindRacesAreSingleOrdering(t *testing.T) {
	path := "../../../testdata/run/mutex_counter.c"
	prog := loadtest.Program(t, cacheDir, path)
	cfg := vm.Config{Args: []string{"mutex_counter"}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 2, Seed: 1, Run: cfg, MutexBlind: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Races) == 0 {
		t.Fatal("the mutex-blind detector found no race")
	}
	for _, r := range res.Races {
		v := classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1})
		if v.Category != classify.SingleOrdering {
			t.Errorf("race on %s (%s:%d / %s:%d): %s (%s), want single-ordering", r.Object, r.First.Function,
				r.First.Loc.Line, r.Second.Function, r.Second.Loc.Line, v.Category, v.Reason)
		}
	}
}

// Ten runs give the same categories, reasons and evidence schedules.
func TestClassificationIsDeterministic(t *testing.T) {
	summary := func() string {
		var b strings.Builder
		for _, f := range []string{"../../../testdata/classify/predicate_alt.c", "../../../testdata/race/counter.c"} {
			for _, v := range classifyFile(t, f) {
				b.WriteString(string(v.Category) + "|" + v.Reason + "|" + v.Stage + "\n")
				if v.Trace != nil {
					for _, e := range v.Trace.Events() {
						b.WriteString(e.Loc + ">" + string(rune('0'+e.Next)))
					}
				}
				b.WriteString("\n")
			}
		}
		return b.String()
	}
	first := summary()
	for i := 1; i < 10; i++ {
		if got := summary(); got != first {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i+1, got, first)
		}
	}
}

// Parallel classification gives the verdicts of a sequential one.
func TestParallelMatchesSequential(t *testing.T) {
	path := "../../../testdata/classify/double_checked.c"
	prog := loadtest.Program(t, cacheDir, path)
	cfg := vm.Config{Args: []string{"dcl"}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil || len(res.Races) < 2 {
		t.Fatalf("%v, %d races", err, len(res.Races))
	}
	par := classify.ClassifyAll(prog, res.Races, classify.Options{Run: cfg, Seed: 1}, 4)
	for i, r := range res.Races {
		seq := classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1})
		if par[i].Category != seq.Category || par[i].Reason != seq.Reason || par[i].K != seq.K {
			t.Errorf("race %d: parallel %s/%s, sequential %s/%s", i, par[i].Category, par[i].Reason, seq.Category, seq.Reason)
		}
	}
}

// The replay-analyzer baseline compares state after both orders: redundant
// writes are benign, a lost update is harmful, and ad hoc synchronization,
// whose other order cannot be replayed, counts as harmful (the weakness
// Portend+ addresses with single-ordering).
func TestReplayAnalyzerBaseline(t *testing.T) {
	for _, c := range []struct {
		file string
		want classify.Category
	}{
		{"../../../testdata/classify/redundant_write.c", classify.Benign},
		{"../../../testdata/classify/disjoint_bits.c", classify.Benign},
		{"../../../testdata/race/counter.c", classify.Harmful},
		{"../../../testdata/race/ad_hoc_flag.c", classify.Harmful},
	} {
		prog := loadtest.Program(t, cacheDir, c.file)
		cfg := vm.Config{Args: []string{"p"}, MaxInstructions: 20_000_000}
		res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
		if err != nil || len(res.Races) == 0 {
			t.Fatalf("%s: %v, %d races", c.file, err, len(res.Races))
		}
		for _, r := range res.Races {
			if v := classify.ReplayAnalyzer(prog, r, classify.Options{Run: cfg}); v.Category != c.want {
				t.Errorf("%s race on %s: %s (%s), want %s", filepath.Base(c.file), r.Object, v.Category, v.Reason, c.want)
			}
		}
	}
}

// The overflow reachable only on another input is found by multipath; on
// the recorded input the race only changes the output.
func TestMultipathFindsOtherInputs(t *testing.T) {
	path := "../../../testdata/classify/overflow_other_input.c"
	prog := loadtest.Program(t, cacheDir, path)
	cfg := vm.Config{Args: []string{"overflow"}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil || len(res.Races) != 1 {
		t.Fatalf("%v, %d races", err, len(res.Races))
	}
	single := classify.Classify(prog, res.Races[0], classify.Options{Run: cfg, Seed: 1})
	multi := classify.Classify(prog, res.Races[0], classify.Options{Run: cfg, Seed: 1, Symbolic: true})
	if single.Category != classify.OutputDiffers {
		t.Errorf("single path: %s (%s), want output-differs", single.Category, single.Reason)
	}
	if multi.Category != classify.SpecViolated || multi.Inputs == nil || !strings.Contains(multi.Failure.Message, "out of bounds") {
		t.Fatalf("multipath: %s (%s)", multi.Category, multi.Reason)
	}
	if req := int32(multi.Inputs.Vars["request[0]"] | multi.Inputs.Vars["request[1]"]<<8 |
		multi.Inputs.Vars["request[2]"]<<16 | multi.Inputs.Vars["request[3]"]<<24); req < 4 || req >= 100 {
		t.Errorf("witness request %d is not an overflowing input", req)
	}
}

// The second post-race schedule makes the alternate order's two accesses
// back to back: in the race of one withdrawal's update (line 14) with the
// other's check (line 13), the check passes, the update lands, and the
// checked withdrawal then takes the money again (-20). Round robin after
// the race (the first) lets the checking thread go on first, which prints
// what the primary prints.
func TestAlternateAccessesBackToBack(t *testing.T) {
	const path = "../../../testdata/classify/multischedule_output.c"
	var lines []int // of the race its annotations name "withdraw"
	for _, a := range testutil.RaceAnnotations(t, path) {
		if a.Name == "withdraw" {
			lines = append(lines, a.Line)
		}
	}
	check := func(vs []classified) *classified {
		t.Helper()
		for i, v := range vs {
			a, b := racetest.LineIn(v.Race.First, path), racetest.LineIn(v.Race.Second, path)
			if len(lines) == 2 && min(a, b) == lines[0] && max(a, b) == lines[1] {
				return &vs[i]
			}
		}
		t.Fatalf("no race of the check with the update among %d", len(vs))
		return nil
	}
	v := check(classifyFile(t, path))
	if v.Category != classify.OutputDiffers || !strings.Contains(v.Outputs[1].Stdout, "-20") || !strings.Contains(v.Stage, "post-race schedule 2 of") {
		t.Fatalf("%s by %q: %s (outputs %q, %q)", v.Category, v.Stage, v.Reason, v.Outputs[0].Stdout, v.Outputs[1].Stdout)
	}
	// Its schedule after the race is random, drawn by place: the trace
	// stops where it starts deciding and names it with its seed, for a
	// replay to draw it again (TestHarmfulVerdictsReplay replays it).
	if then := v.Trace.Then; then == nil || then.Policy != "random" || v.Trace.Len() > 20 {
		t.Errorf("then %+v, a trace of %d decisions", then, v.Trace.Len())
	}
}

// classifyFileMa is classifyFile with ma post-race schedules (0: the
// default).
func classifyFileMa(t *testing.T, path string, ma int) []classified {
	prog, cfg, races := detectFile(t, path)
	var out []classified
	for _, r := range races {
		out = append(out, classified{classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1, Ma: ma,
			Symbolic: classify.UsesSymbolicInputs(prog, vm.UndefinedStop)}), r})
	}
	return out
}

// detectFile loads a test program and detects its races, with the
// execution template the tests classify them with.
func detectFile(t *testing.T, path string) (*ir.Program, vm.Config, []*race.Race) {
	t.Helper()
	prog := loadtest.Program(t, cacheDir, path)
	cfg := vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return prog, cfg, res.Races
}

// A spin is the same instruction reached again in the same state: two
// loads of one field at one source location (a macro) with every register
// unchanged between them are two instructions, not a spin, and the other
// order of a race after such a loop is enforced at its first occurrence.
func TestSpinNeedsTheSameInstruction(t *testing.T) {
	for _, c := range classifyFile(t, "../../../testdata/classify/macro_loop.c") {
		if c.Category != classify.OutputDiffers || strings.Contains(c.Stage, "could not enforce") {
			t.Errorf("race on %s: %s, decided by %s", c.Race.Object, c.Category, c.Stage)
		}
	}
}

// encodedVerdicts classifies the races of files with 8 post-race
// schedules and returns their verdicts encoded, every field included.
func encodedVerdicts(t *testing.T, files []string) []string {
	var out []string
	for _, f := range files {
		for _, c := range classifyFileMa(t, f, 8) {
			data, err := classify.EncodeVerdict(c.Verdict)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(data))
		}
	}
	return out
}

// A race's post-race pairs run ahead on idle processors give the verdicts
// of pairs run in turn: the same categories, reasons, stages, outputs and
// evidence, for harmless races (every pair judged) and harmful ones (a
// later pair decides, the rest are canceled).
func TestPairsRunAheadGiveTheSameVerdicts(t *testing.T) {
	files := []string{"../../../testdata/classify/stats_counter.c", "../../../testdata/classify/multischedule_output.c",
		"../../../testdata/classify/double_free.c", "../../../testdata/classify/writer_past_end.c"}
	verdicts := func(cpus int) []string {
		defer classify.LendCPUs(cpus)()
		return encodedVerdicts(t, files)
	}
	inTurn := verdicts(0)
	lent := classify.CPUsLent()
	ahead := verdicts(4)
	if classify.CPUsLent() == lent {
		t.Fatal("no pair ran ahead")
	}
	// A pair runs ahead only where the memory budget has room for its
	// two executions beside what is admitted (vm.TryAdmit).
	lent = classify.CPUsLent()
	defer classify.LendCPUs(4)()
	prog, cfg, races := detectFile(t, files[0])
	cfg.MaxMemory, cfg.MemoryHint = 64<<20+3, 40<<20 // a pool of its own, with no room for a pair
	for _, r := range races {
		classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1, Ma: 8})
	}
	if n := classify.CPUsLent() - lent; n != 0 {
		t.Errorf("%d pairs ran ahead without room under the memory budget", n)
	}
	if len(inTurn) != len(ahead) {
		t.Fatalf("%d verdicts in turn, %d ahead", len(inTurn), len(ahead))
	}
	for i := range inTurn {
		if inTurn[i] != ahead[i] {
			t.Errorf("verdict %d differs:\nin turn %s\nahead   %s", i, inTurn[i], ahead[i])
		}
	}
}

// The pairs of a checkpoint start from one run of each order's hold
// (holdshare.go) and give the verdicts of pairs that each run their own:
// the same categories, reasons, stages, outputs and evidence, with pairs
// run ahead on idle processors too. A harmless race runs every pair and
// the harm search, so the holds shrink to two per path.
func TestPairsShareTheirHold(t *testing.T) {
	files := []string{"../../../testdata/classify/stats_counter.c", "../../../testdata/classify/multischedule_output.c",
		"../../../testdata/classify/writer_past_end.c", "../../../testdata/classify/double_checked.c", "../../../testdata/classify/deadlock_alt.c"}
	verdicts := func(share bool) ([]string, uint64) {
		holds, restore := classify.ShareHolds(share)
		defer restore()
		return encodedVerdicts(t, files), holds()
	}
	own, ownHolds := verdicts(false)
	shared, sharedHolds := verdicts(true)
	if len(own) != len(shared) {
		t.Fatalf("%d verdicts with holds of their own, %d shared", len(own), len(shared))
	}
	for i := range own {
		if own[i] != shared[i] {
			t.Errorf("verdict %d differs:\nown    %s\nshared %s", i, own[i], shared[i])
		}
	}
	if sharedHolds == 0 || sharedHolds*4 > ownHolds {
		t.Errorf("%d holds run when shared, %d when not", sharedHolds, ownHolds)
	}
	t.Logf("%d holds shared against %d", sharedHolds, ownHolds)
}

// The races of one execution replay it to their first accesses from one
// another's checkpoints (replayshare.go) and get the verdicts of replays
// from the program's start: the same categories, reasons, stages, outputs
// and evidence, whichever race comes first (in turn, and the other way
// round: a checkpoint past a race's first access must not serve it).
func TestRacesOfOneRunShareTheirReplays(t *testing.T) {
	files := []string{"../../../testdata/classify/moved_pair.c", "../../../testdata/classify/stats_counter.c",
		"../../../testdata/classify/writer_past_end.c", "../../../testdata/classify/double_checked.c"}
	verdicts := func(share, reversed bool) ([]string, uint64) {
		resumed, hold, restore := classify.ShareReplays(share)
		defer restore()
		var out []string
		for _, f := range files {
			prog, cfg, races := detectFile(t, f)
			leave := hold(prog.Key())
			encoded := make([]string, len(races))
			for i := range races {
				if reversed {
					i = len(races) - 1 - i
				}
				v := classify.Classify(prog, races[i], classify.Options{Run: cfg, Seed: 1, Ma: 8,
					Symbolic: classify.UsesSymbolicInputs(prog, vm.UndefinedStop)})
				data, err := classify.EncodeVerdict(v)
				if err != nil {
					t.Fatal(err)
				}
				encoded[i] = string(data)
			}
			leave()
			out = append(out, encoded...)
		}
		return out, resumed()
	}
	own, _ := verdicts(false, false)
	for _, reversed := range []bool{false, true} {
		shared, resumed := verdicts(true, reversed)
		if len(own) != len(shared) {
			t.Fatalf("%d verdicts replaying from the start, %d sharing", len(own), len(shared))
		}
		for i := range own {
			if own[i] != shared[i] {
				t.Errorf("races in reverse order %v: verdict %d differs:\nown    %s\nshared %s", reversed, i, own[i], shared[i])
			}
		}
		if resumed == 0 {
			t.Errorf("races in reverse order %v: no replay went on from another race's checkpoint", reversed)
		}
		t.Logf("races in reverse order %v: %d replays went on from a kept checkpoint", reversed, resumed)
	}
}

// A kept hold serves later pairs as a fork stopped by their own cancel
// channel, not by the one of the pair that ran it (a pair run ahead, whose
// channel closes when its runner is done); a hold whose run was canceled
// is not kept.
func TestKeptHoldTakesTheCallersCancel(t *testing.T) {
	prog, cfg, _ := detectFile(t, "../../../testdata/classify/stats_counter.c")
	cfg.Models = libc.Models()
	machine := func(cancel chan struct{}) *vm.Machine {
		m, err := vm.New(prog, cfg)
		if err != nil {
			t.Fatal(err)
		}
		m.SetCancel(cancel)
		return m
	}
	var share classify.HoldShare
	ran := 0
	canceled := make(chan struct{})
	close(canceled)
	share.Get(machine(canceled), &ran)
	ahead := make(chan struct{})
	share.Get(machine(ahead), &ran)
	if ran != 2 {
		t.Fatalf("%d holds run: a canceled one was kept", ran)
	}
	close(ahead) // the runner that ran it ahead is done
	mine := make(chan struct{})
	m := share.Get(machine(mine), &ran)
	if ran != 2 {
		t.Fatalf("%d holds run: the kept one was not used", ran)
	}
	if m.Cancel() != (<-chan struct{})(mine) || m.Interrupted() {
		t.Error("the kept hold's fork is stopped by the channel of the pair that ran it")
	}
}

// A harmful verdict stands only on evidence that replays to what it
// claims: the double free's verdict verifies, and the same verdict
// claiming the accesses the other way round, or another failure, does
// not.
func TestVerifyRefusesWhatTheReplayDoesNotShow(t *testing.T) {
	prog, cfg, races := detectFile(t, "../../../testdata/classify/double_free.c")
	if len(races) != 1 {
		t.Fatalf("%d races, want 1", len(races))
	}
	opts := classify.Options{Run: cfg, Seed: 1}
	v := classify.Classify(prog, races[0], opts)
	if v.Category != classify.SpecViolated {
		t.Fatalf("%s (%s), want spec-violated", v.Category, v.Reason)
	}
	if why := classify.Verify(prog, races[0], v, opts); why != "" {
		t.Fatalf("the verdict does not verify: %s", why)
	}
	swapped := *v
	swapped.Points[0], swapped.Points[1] = v.Points[1], v.Points[0]
	if why := classify.Verify(prog, races[0], &swapped, opts); !strings.Contains(why, "other order") {
		t.Errorf("the accesses claimed the other way round: %q", why)
	}
	other := *v
	fail := *v.Failure
	fail.Loc.Line++
	other.Failure = &fail
	if why := classify.Verify(prog, races[0], &other, opts); !strings.Contains(why, "ended in") {
		t.Errorf("another failure claimed: %q", why)
	}
}

// TestHarmSearchCutIsSaid runs out of time as the harm search of a
// harmless race starts: the verdict stands on the post-race schedules
// that ran, and says what the budget left out, rather than reading as a
// finished search.
func TestHarmSearchCutIsSaid(t *testing.T) {
	prog, cfg, races := detectFile(t, "../../../testdata/classify/stats_counter.c")
	if len(races) == 0 {
		t.Fatal("no race found")
	}
	interrupt := make(chan struct{})
	cfg.Interrupt = interrupt
	defer classify.OnHarmSearch(func() {
		select {
		case <-interrupt:
		default:
			close(interrupt)
		}
	})()
	v := classify.Classify(prog, races[0], classify.Options{Run: cfg, Seed: 1})
	if v.Category != classify.Harmless || v.K == 0 {
		t.Fatalf("%s (k=%d): %s; want k-witness-harmless from the post-race schedules", v.Category, v.K, v.Reason)
	}
	if want := "the harm search ran 0 of its"; !strings.HasPrefix(v.Cut, want) || v.CutBudget != vm.BudgetTime {
		t.Fatalf("cut %q by %v, want %q... by the time budget", v.Cut, v.CutBudget, want)
	}
	if !strings.Contains(v.Reason, "budget cut it short: "+v.Cut) {
		t.Errorf("reason %q does not say the cut", v.Reason)
	}
}

// Under a memory budget less than twice what the pre-race checkpoint
// holds, a harmful verdict's replay runs after the path's executions are
// let go, and a verdict whose replay does not hold makes the path run
// again: the verdicts are those made with the replay beside the
// checkpoint, whether every verdict holds, the first does not, or none
// does.
func TestVerdictsCheckedAloneUnderATightBudget(t *testing.T) {
	prog, cfg, races := detectFile(t, "../../../testdata/classify/big_buffer_counter.c")
	if len(races) != 1 {
		t.Fatalf("%d races, want 1", len(races))
	}
	loose := classify.Options{Run: cfg, Seed: 1}
	tight := loose
	tight.Run.MaxMemory = 6 << 20 // the buffer is 4 MiB
	alone, holding := 0, ""
	defer classify.OnCheckAlone(func() { alone++ })()
	for _, c := range []struct {
		name    string
		refused int // how many verdicts the replay refuses, in turn
	}{{"every verdict holds", 0}, {"the first does not", 1}, {"none does", 1 << 30}} {
		t.Run(c.name, func(t *testing.T) {
			verdict := func(opts classify.Options) (string, int) {
				asked := 0
				defer classify.RefuseVerdicts(func(*classify.Verdict) string {
					asked++
					if asked <= c.refused {
						return "refused by the test"
					}
					return ""
				})()
				data, err := json.Marshal(classify.Classify(prog, races[0], opts))
				if err != nil {
					t.Fatal(err)
				}
				return string(data), asked
			}
			alone = 0
			want, wantAsked := verdict(loose)
			if alone != 0 {
				t.Fatalf("%d replays alone without a memory budget", alone)
			}
			got, gotAsked := verdict(tight)
			if alone != wantAsked {
				t.Errorf("%d replays alone under the budget, want all %d", alone, wantAsked)
			}
			if got != want || gotAsked != wantAsked {
				t.Errorf("under the budget (%d replays):\n%s\nwithout (%d replays):\n%s", gotAsked, got, wantAsked, want)
			}
			// The refusals must have changed the verdict: a later pair
			// decides, or none does and the reason says why.
			if c.refused > 0 && want == holding {
				t.Errorf("the refusals did not change the verdict:\n%s", want)
			}
			if c.refused >= wantAsked && !strings.Contains(want, "refused by the test") {
				t.Errorf("the refusals are not in the verdict:\n%s", want)
			}
			if c.refused == 0 {
				holding = want
			}
		})
	}
}
