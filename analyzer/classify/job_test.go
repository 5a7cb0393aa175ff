package classify_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/classify"
	"augur/analyzer/evidence"
	"augur/analyzer/memmodel"
	"augur/analyzer/race"
	"augur/analyzer/vm"
)

// jobsOf detects the races of a program and makes their classification
// jobs.
func jobsOf(t *testing.T, path string, model memmodel.Model) ([]classify.Job, []*race.Race) {
	t.Helper()
	prog, cfg, races := detectFile(t, path)
	opts := classify.Options{Run: cfg, Seed: 1, Symbolic: classify.UsesSymbolicInputs(prog, vm.UndefinedStop), Model: model}
	var jobs []classify.Job
	for _, r := range races {
		jobs = append(jobs, classify.NewJob(classify.RefOf(prog), r, opts, ""))
	}
	return jobs, races
}

// TestVerdictFromAnotherProcess runs classification jobs in this process
// and, encoded, in another that loads the program from the job's bitcode:
// the verdicts, and the evidence made from them, are identical byte for
// byte.
func TestVerdictFromAnotherProcess(t *testing.T) {
	cases := []struct {
		file  string
		model memmodel.Model
	}{
		{"../../testdata/classify/double_free.c", memmodel.SC},          // spec-violated
		{"../../testdata/classify/multischedule_output.c", memmodel.SC}, // output-differs, harmless
		{"../../testdata/classify/redundant_write.c", memmodel.SC},      // harmless
		{"../../testdata/classify/loop_alt.c", memmodel.SC},             // single-ordering
		{"../../testdata/classify/overflow_other_input.c", memmodel.SC}, // multipath
		{"../../testdata/weak/sb.c", memmodel.Weak},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".c")+"/"+c.model.String(), func(t *testing.T) {
			jobs, races := jobsOf(t, c.file, c.model)
			if len(jobs) == 0 {
				t.Fatal("no race")
			}
			prog, err := jobs[0].Program.Load()
			if err != nil {
				t.Fatal(err)
			}
			var input bytes.Buffer
			var here [][]byte
			for _, j := range jobs {
				data, err := classify.EncodeJob(j)
				if err != nil {
					t.Fatal(err)
				}
				input.Write(append(data, '\n'))
				v, err := classify.EncodeVerdict(j.Run(prog, nil))
				if err != nil {
					t.Fatal(err)
				}
				here = append(here, v)
			}
			jobFile := filepath.Join(t.TempDir(), "jobs")
			if err := os.WriteFile(jobFile, input.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestJobWorkerProcess$")
			cmd.Env = append(os.Environ(), "AUGUR_TEST_JOBS="+jobFile)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("worker process: %v\n%s", err, out)
			}
			there := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
			if len(there) < len(here) {
				t.Fatalf("the worker returned %d verdicts for %d jobs:\n%s", len(there), len(here), out)
			}
			for i := range here {
				if !bytes.Equal(here[i], there[i]) {
					t.Errorf("race %s: verdicts differ\nhere:  %s\nthere: %s", races[i].ID, here[i], there[i])
					continue
				}
				v, err := classify.DecodeVerdict(there[i])
				if err != nil {
					t.Fatal(err)
				}
				if again, _ := classify.EncodeVerdict(v); !bytes.Equal(again, here[i]) {
					t.Errorf("race %s: decoding and encoding changed the verdict\n%s\n%s", races[i].ID, here[i], again)
				}
				orig, _ := classify.DecodeVerdict(here[i])
				sameEvidence(t, races[i], orig, v, jobs[i].Options.Run.Config())
			}
		})
	}
}

// sameEvidence checks that a verdict from another process makes the same
// evidence as the original.
func sameEvidence(t *testing.T, r *race.Race, a, b *classify.Verdict, cfg vm.Config) {
	t.Helper()
	if a.Trace == nil {
		return
	}
	ea, err := evidence.FromVerdict(r, a, []string{"../../testdata/classify/double_free.c"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := evidence.FromVerdict(r, b, []string{"../../testdata/classify/double_free.c"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := filepath.Join(t.TempDir(), "a.json"), filepath.Join(t.TempDir(), "b.json")
	if err := ea.Write(pa); err != nil {
		t.Fatal(err)
	}
	if err := eb.Write(pb); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(pa)
	db, _ := os.ReadFile(pb)
	if !bytes.Equal(da, db) {
		t.Errorf("race %s: evidence differs\n%s\n%s", r.ID, da, db)
	}
}

// TestJobWorkerProcess is the other process of TestVerdictFromAnotherProcess:
// it reads encoded jobs, one per line, from the file AUGUR_TEST_JOBS names,
// loads their program from its bitcode and prints each encoded verdict on
// a line.
func TestJobWorkerProcess(t *testing.T) {
	path := os.Getenv("AUGUR_TEST_JOBS")
	if path == "" {
		t.Skip("started by TestVerdictFromAnotherProcess")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	var out bytes.Buffer
	for sc.Scan() {
		job, err := classify.DecodeJob(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		prog, err := job.Program.Load()
		if err != nil {
			t.Fatal(err)
		}
		v, err := classify.EncodeVerdict(job.Run(prog, nil))
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(v, '\n'))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	os.Stdout.Write(out.Bytes())
}

// TestDecodeRefuses checks that jobs and verdicts of another version, with
// unknown fields or missing parts are refused with a reason.
func TestDecodeRefuses(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"version":2,"job":{}}`, "encoding version 2"},
		{`{"version":1}`, "no job"},
		{`{"version":1,"job":{"program":{"key":"k"},"race":{"id":"r"},"options":{"run":{"args":["p"]},"memory_model":"sc"},"extra":1}}`, "unknown field"},
		{`{"version":1,"job":{"program":{"key":"k"},"race":{"id":"r"},"options":{"run":{"args":["p"]},"classifier":"x","memory_model":"sc"}}}`, "unknown classifier"},
		{`not json`, "invalid character"},
	} {
		if _, err := classify.DecodeJob([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeJob(%s) = %v, want %q", c.data, err, c.want)
		}
	}
	for _, c := range []struct{ data, want string }{
		{`{"version":0,"verdict":{}}`, "encoding version 0"},
		{`{"version":1,"verdict":{"race":"r","category":"fine","memory_model":"sc"}}`, "unknown category"},
		{`{"version":1,"verdict":{"race":"r","category":"spec-violated","order":"sideways","memory_model":"sc"}}`, "unknown order"},
	} {
		if _, err := classify.DecodeVerdict([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeVerdict(%s) = %v, want %q", c.data, err, c.want)
		}
	}
}

// TestJobForAnotherProgram checks that a job run on a program that is not
// its own says so instead of classifying.
func TestJobForAnotherProgram(t *testing.T) {
	jobs, _ := jobsOf(t, "../../testdata/classify/double_free.c", memmodel.SC)
	other, err := analyzer.LoadProgram([]string{"../../testdata/classify/loop_alt.c"}, build.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	v := jobs[0].Run(other, nil)
	if v.Category != classify.Unclassified || !strings.Contains(v.Reason, "the job is for program") {
		t.Fatalf("%s: %s", v.Category, v.Reason)
	}
}
