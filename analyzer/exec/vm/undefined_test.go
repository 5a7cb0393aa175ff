package vm_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
	"augur/internal/testutil"
)

// Under UndefinedHavoc, calls to declared but undefined functions return
// an integer input, a pointer to fresh zeroed memory, or nothing, and the
// result lists them; under UndefinedStop the first such call ends the run
// as unsupported, naming the function.
func TestUndefinedFunctions(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/incomplete/havoc_results.c")
	if got := libc.Models().Undefined(prog); !reflect.DeepEqual(got, []string{"log_event", "lookup", "read_sensor"}) {
		t.Errorf("Undefined = %v", got)
	}
	run := func(cfg vm.Config) (string, *vm.Result) {
		var out bytes.Buffer
		cfg.Args, cfg.Stdout = []string{"havoc"}, &out
		cfg.MaxInstructions, cfg.MaxMemory = 10_000_000, 256<<20
		cfg.Models = libc.Models()
		m, err := vm.New(prog, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := m.Run()
		return out.String(), res
	}
	_, res := run(vm.Config{})
	if res.Term.Kind != vm.TermUnsupported || res.Term.Function != "read_sensor" || res.Term.Loc.Line != 13 {
		t.Fatalf("stop: %s", res.Term.Report())
	}
	out, res := run(vm.Config{Undefined: vm.UndefinedHavoc})
	if res.Term.Kind != vm.TermExit || out != "r=0 v=42 p0=0 p4095=0 len=0\n" {
		t.Fatalf("havoc: %q, %s", out, res.Term.Report())
	}
	if !reflect.DeepEqual(res.Havoc, []string{"log_event", "lookup", "read_sensor"}) {
		t.Errorf("Havoc = %v", res.Havoc)
	}
	out, res = run(vm.Config{Undefined: vm.UndefinedHavoc, Inputs: map[string]uint64{"havoc_read_sensor": 7}})
	if out != "r=7 v=42 p0=0 p4095=0 len=0\n" || res.Term.Status != 7 {
		t.Errorf("replayed input: %q, %s", out, res.Term.Report())
	}
}

// Network and process calls fail inside augur's sandbox the way refused
// real calls do; testdata/sandbox programs list their expected output,
// the files they look for in vain (expect-missing) and the files they
// leave written (expect-written). Each is given given.txt and kept.txt.
func TestSandboxedCalls(t *testing.T) {
	files := testutil.Programs("../../../testdata/sandbox")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/sandbox")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := commentBlock(string(src), "expect-stdout:")
		if !ok {
			t.Fatalf("%s: no expect-stdout block", f)
		}
		wantMissing, _ := commentBlock(string(src), "expect-missing:")
		wantWritten, _ := commentBlock(string(src), "expect-written:")
		prog := loadtest.Program(t, t.TempDir(), f)
		var out bytes.Buffer
		given := map[string][]byte{"given.txt": []byte("as given\n"), "kept.txt": []byte("kept\n")}
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"sandbox"}, Stdout: &out, MaxInstructions: 10_000_000,
			Limits: vm.Limits{MaxMemory: 256 << 20}, Files: given})
		if err != nil {
			t.Fatal(err)
		}
		res := m.Run()
		if res.Term.Kind != vm.TermExit || out.String() != want {
			t.Errorf("%s: %s\ngot:\n%s\nwant:\n%s", f, res.Term.Report(), out.String(), want)
		}
		var missing strings.Builder
		for _, m := range res.Missing {
			fmt.Fprintf(&missing, "%s %s:%d\n", m.Path, filepath.Base(m.At.File), m.At.Line)
		}
		if missing.String() != wantMissing {
			t.Errorf("%s: files looked for in vain:\n%swant:\n%s", f, missing.String(), wantMissing)
		}
		var written strings.Builder
		for _, w := range res.Written {
			if w.Removed {
				fmt.Fprintf(&written, "%s removed\n", strings.TrimPrefix(w.Path, "/"))
				continue
			}
			fmt.Fprintf(&written, "%s %d %q\n", strings.TrimPrefix(w.Path, "/"), w.Size, w.Head)
		}
		if written.String() != wantWritten {
			t.Errorf("%s: files left written:\n%swant:\n%s", f, written.String(), wantWritten)
		}
		if (res.Digest.Files == 0) != (len(res.Written) == 0) {
			t.Errorf("%s: digest of the files %#x for %d files written", f, res.Digest.Files, len(res.Written))
		}
	}
}

// commentBlock returns the lines of src's comment after the line that is
// head, up to a blank line or the comment's end, without their " * ".
func commentBlock(src, head string) (string, bool) {
	_, block, ok := strings.Cut(src, head+"\n")
	if !ok {
		return "", false
	}
	block, _, _ = strings.Cut(block, "*/")
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimRight(block, " \n"), "\n") {
		line = strings.TrimPrefix(strings.TrimPrefix(line, " *"), " ")
		if line == "" {
			break
		}
		out.WriteString(line + "\n")
	}
	return out.String(), true
}
