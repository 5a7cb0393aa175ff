package vm_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// Every piece of output is an event with its stream, thread and the stack
// of the call that wrote it, in program order; later stages compare outputs
// by these events.
func TestOutputEvents(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "out.c")
	os.WriteFile(src, []byte(`#include <pthread.h>
#include <stdio.h>
static void report(int v) { printf("value %d\n", v); }
static void *worker(void *arg) { fprintf(stderr, "worker\n"); return arg; }
int main(void) {
	pthread_t t;
	report(1);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	puts("done");
	return 0;
}
`), 0o644)
	prog := loadtest.Program(t, dir, src)
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"out"}})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermExit {
		t.Fatal(res.Term.Report())
	}
	want := []struct {
		stream, thread int
		data, fn       string
		line           int
	}{
		{1, 0, "value 1\n", "report", 3},
		{2, 1, "worker\n", "worker", 4},
		{1, 0, "done\n", "main", 10},
	}
	if len(res.Output) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(res.Output), len(want), res.Output)
	}
	for i, w := range want {
		ev := res.Output[i]
		if ev.Stream != w.stream || ev.Thread != w.thread || string(ev.Data) != w.data ||
			ev.Stack[0].Function != w.fn || ev.Stack[0].Loc.Line != w.line {
			t.Errorf("event %d: stream %d thread %d %q at %s %s; want %+v", i, ev.Stream, ev.Thread, ev.Data,
				ev.Stack[0].Function, ev.Stack[0].Loc, w)
		}
	}
	if res.Output[0].Stack[1].Function != "main" {
		t.Errorf("report's caller: %+v", res.Output[0].Stack)
	}
}

// Textual IR is accepted as input, like bitcode.
// A call augur does not model ends the run, not the program: what stdio
// buffered is written out, as at a budget, so the user sees how far the
// program got (a native crash would lose it; this is no crash of the
// program's).
func TestUnsupportedCallFlushesOutput(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "unmodeled.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
int not_defined_anywhere(int);
int main(void) {
	printf("got this far\n");
	return not_defined_anywhere(1);
}
`), 0o644)
	prog := loadtest.Program(t, dir, src)
	var stdout bytes.Buffer
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"unmodeled"}, Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermUnsupported {
		t.Fatalf("the run ended %v, want unsupported: %s", res.Term.Kind, res.Term.Report())
	}
	if stdout.String() != "got this far\n" {
		t.Errorf("stdout %q, want the buffered line", stdout.String())
	}
}

func TestLoadsTextualIR(t *testing.T) {
	dir := t.TempDir()
	ll := filepath.Join(dir, "prog.ll")
	if out, err := exec.Command("clang-14", "-S", "-emit-llvm", "-g", "-O0", "-o", ll, "../../../testdata/run/recursion.c").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	prog := loadtest.Program(t, dir, ll)
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"recursion"}})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermExit || len(res.Output) == 0 || string(res.Output[0].Data) != "fib 6765\n" {
		t.Fatalf("%s %+v", res.Term.Report(), res.Output)
	}
}
