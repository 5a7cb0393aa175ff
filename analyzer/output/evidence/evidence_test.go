package evidence_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/analyzer/judge/classify"
	"augur/analyzer/output/evidence"
)

// Every spec-violated and output-differs verdict of the race and
// classification corpora replays, from its evidence file, to the same
// outcome, marking both racing accesses.
func TestHarmfulVerdictsReplay(t *testing.T) {
	cache := t.TempDir()
	var files []string
	for _, dir := range []string{"../../../testdata/race", "../../../testdata/classify"} {
		fs, _ := filepath.Glob(dir + "/*.c")
		files = append(files, fs...)
	}
	replayed := 0
	for _, f := range files {
		prog := loadtest.Program(t, cache, f)
		cfg := vm.Config{Args: []string{strings.TrimSuffix(filepath.Base(f), ".c")}, MaxInstructions: 20_000_000}
		res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Races {
			v := classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1})
			if v.Category != classify.SpecViolated && v.Category != classify.OutputDiffers {
				continue
			}
			ev, err := evidence.FromVerdict(r, v, []string{f}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "race.json")
			if err := ev.Write(path); err != nil {
				t.Fatal(err)
			}
			back, err := evidence.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			tr := evidence.Replay(prog, back, vm.Limits{})
			if !tr.Reproduced {
				t.Errorf("%s: %s race on %s did not replay: %s", filepath.Base(f), v.Category, r.Object, tr.Mismatch)
				continue
			}
			marks := 0
			for _, s := range tr.Steps {
				if s.Racing != 0 {
					marks++
				}
			}
			if marks != 2 && v.Failure == nil {
				t.Errorf("%s: replay marked %d racing accesses, want 2", filepath.Base(f), marks)
			}
			replayed++
		}
	}
	if replayed < 8 {
		t.Fatalf("only %d harmful verdicts replayed", replayed)
	}
}

func TestChangedProgramIsRefused(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644)
	hash, _ := evidence.Hash([]string{src})
	ev := &evidence.Evidence{Version: 1, Program: evidence.Program{Files: []string{src}, Hash: hash}, Schedule: &schedTrace,
		Inputs: evidence.Inputs{Argv: []string{"p"}}, Category: "spec-violated", Order: "alternate",
		Expected: evidence.Expected{Termination: "crash"}}
	path := filepath.Join(dir, "e.json")
	if err := ev.Write(path); err != nil {
		t.Fatal(err)
	}
	if _, err := evidence.Read(path); err != nil {
		t.Fatalf("unchanged program refused: %v", err)
	}
	os.WriteFile(src, []byte("int main(void) { return 1; }\n"), 0o644)
	if _, err := evidence.Read(path); err == nil || !strings.Contains(err.Error(), "another version") {
		t.Fatalf("changed program: %v", err)
	}
}

var schedTrace = sched.Trace{Policy: "round-robin"}

// A failure multipath found on another input replays concretely with the
// witness input.
func TestMultipathEvidenceReplays(t *testing.T) {
	f := "../../../testdata/classify/overflow_other_input.c"
	prog := loadtest.Program(t, t.TempDir(), f)
	cfg := vm.Config{Args: []string{"overflow"}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil || len(res.Races) != 1 {
		t.Fatalf("%v %d", err, len(res.Races))
	}
	r := res.Races[0]
	v := classify.Classify(prog, r, classify.Options{Run: cfg, Seed: 1, Symbolic: true})
	if v.Category != classify.SpecViolated {
		t.Fatalf("%s: %s", v.Category, v.Reason)
	}
	ev, err := evidence.FromVerdict(r, v, []string{f}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr := evidence.Replay(prog, ev, vm.Limits{}); !tr.Reproduced {
		t.Fatalf("did not replay: %s", tr.Mismatch)
	}
}

// Evidence that lacks what a replay needs, or holds values augur does not
// know, is refused with the reason, never half-replayed (an evidence file
// without argv once crashed the transcript).
func TestDecodeRefusesIncompleteEvidence(t *testing.T) {
	good := `{"version":1,"program":{"files":["/p.c"],"hash":"x"},"inputs":{"argv":["p"],"max_instructions":0},
		"category":"spec-violated","order":"alternate","schedule":{"policy":"round-robin","seed":1,"events":[]},
		"actions":[{"at":{"Thread":1,"Count":3,"Loc":0},"do":"yield"}],"expected":{"termination":"crash","stdout":"","stderr":""}}`
	if _, err := evidence.Decode([]byte(good)); err != nil {
		t.Fatalf("good evidence refused: %v", err)
	}
	for change, want := range map[[2]string]string{
		{`"argv":["p"]`, `"argv":[]`}:                                     "no argv",
		{`"inputs":{"argv":["p"],`, `"inputs":{`}:                         "no argv",
		{`"version":1`, `"version":7`}:                                    "version 7",
		{`"do":"yield"`, `"do":"teleport"`}:                               `"teleport": want yield, preempt-accesses, preempt-at, steady-clock or grant`,
		{`"policy":"round-robin"`, `"policy":"chaos"`}:                    `policy "chaos"`,
		{`"category":"spec-violated"`, `"category":"benign"`}:             `category "benign"`,
		{`"order":"alternate"`, `"order":"sideways"`}:                     `order "sideways"`,
		{`"termination":"crash"`, `"termination":"meltdown"`}:             `"meltdown"`,
		{`"files":["/p.c"]`, `"files":[]`}:                                "no program files",
		{`"schedule":{"policy":"round-robin","seed":1,"events":[]},`, ``}: "no schedule",
	} {
		bad := strings.Replace(good, change[0], change[1], 1)
		if bad == good {
			t.Fatalf("test change %q does not apply", change[0])
		}
		if _, err := evidence.Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("with %s: %v, want an error containing %q", change[1], err, want)
		}
	}
}

// The evidence of a failure names no race and expects a failure; anything
// else in it is refused.
func TestDecodeChecksFailureEvidence(t *testing.T) {
	good := `{"version":1,"kind":"failure","program":{"files":["/p.c"],"hash":"x"},"inputs":{"argv":["p"],"max_instructions":0},
		"race":{"id":"","object":"","first":{},"second":{}},"schedule":{"policy":"pct","seed":1,"events":[]},
		"expected":{"termination":"assert","file":"/p.c","line":3,"stdout":"","stderr":""}}`
	if _, err := evidence.Decode([]byte(good)); err != nil {
		t.Fatalf("good failure evidence refused: %v", err)
	}
	for change, want := range map[[2]string]string{
		{`"kind":"failure"`, `"kind":"rumour"`}:                                                                   `kind "rumour"`,
		{`"termination":"assert"`, `"termination":"exit"`}:                                                        `"exit" is not a failure`,
		{`"kind":"failure",`, `"kind":"failure","category":"output-differs",`}:                                    "names a race",
		{`"race":{"id":""`, `"race":{"id":"r1"`}:                                                                  "names a race",
		{`"policy":"pct"`, `"policy":"chaos"`}:                                                                    `policy "chaos"`,
		{`"kind":"failure",`, `"kind":"failure","actions":[{"at":{"Thread":1,"Count":3,"Loc":0},"do":"yield"}],`}: "has actions",
	} {
		bad := strings.Replace(good, change[0], change[1], 1)
		if bad == good {
			t.Fatalf("test change %q does not apply", change[0])
		}
		if _, err := evidence.Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("with %s: %v, want an error containing %q", change[1], err, want)
		}
	}
}

// An output-differs race whose consequence is only in a file the program
// writes carries both versions of the file in its evidence, and a replay
// must leave the file as the evidence records it.
func TestWrittenFileEvidence(t *testing.T) {
	f := "../../../testdata/accuracy/written_report.c"
	prog := loadtest.Program(t, t.TempDir(), f)
	cfg := vm.Config{Args: []string{"written_report"}, MaxInstructions: 20_000_000}
	res, err := race.Detect(prog, race.Options{Schedules: 5, Seed: 1, Run: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Races) != 1 {
		t.Fatalf("%d races, want 1", len(res.Races))
	}
	v := classify.Classify(prog, res.Races[0], classify.Options{Run: cfg, Seed: 1})
	if v.Category != classify.OutputDiffers || !strings.Contains(v.Reason, "report.txt") {
		t.Fatalf("%s: %s", v.Category, v.Reason)
	}
	ev, err := evidence.FromVerdict(res.Races[0], v, []string{f}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := ev.Expected
	if x.Stdout != x.OtherStdout || len(x.Files) != 1 || len(x.OtherFiles) != 1 || x.Files[0].Name() != "report.txt" ||
		x.Files[0].Contents == x.OtherFiles[0].Contents || !strings.HasPrefix(x.Files[0].Contents, "mode ") {
		t.Fatalf("expected outcome %+v", x)
	}
	if tr := evidence.Replay(prog, ev, vm.Limits{}); !tr.Reproduced {
		t.Fatalf("did not replay: %s", tr.Mismatch)
	}
	var b strings.Builder
	evidence.RenderOutputDifference(&b, ev, evidence.Text)
	if !strings.Contains(b.String(), "report.txt as this order left it") || !strings.Contains(b.String(), x.OtherFiles[0].Contents[:6]) {
		t.Errorf("rendered difference:\n%s", b.String())
	}
	// Evidence that records the other order's file does not replay.
	ev.Expected.Files = ev.Expected.OtherFiles
	if tr := evidence.Replay(prog, ev, vm.Limits{}); tr.Reproduced || !strings.Contains(tr.Mismatch, "left report.txt otherwise") {
		t.Fatalf("replay against the other order's file: reproduced %v, %q", tr.Reproduced, tr.Mismatch)
	}
}
