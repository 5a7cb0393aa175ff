package libc

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/exec/vm"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/models.md from the model table")

// TestModelsDocIsCurrent keeps docs/models.md, the list users read to learn
// whether a libc function is modeled, equal to the registry. Run
// `go test ./analyzer/exec/libc -run TestModelsDocIsCurrent -update` after adding a
// model.
func TestModelsDocIsCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "models.md")
	want := modelsDoc()
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: rerun with -update", path)
	}
}

func modelsDoc() string {
	var b strings.Builder
	b.WriteString(`# Modeled functions

augur interprets the program's own code. The C library, POSIX threads and
LLVM intrinsics it calls are served two ways: the functions listed here are
models written in Go, for what needs the machine (threads and
synchronization, memory, files, time, formatted I/O); the rest
of the library is augur's runtime, C and C++ compiled to bitcode with the
program (runtime/libc, runtime/cxx; see libc.md and cxx.md). A call to a
function that is in neither stops that execution with "call to external
function 'NAME', which augur does not model", and the analysis is reported
incomplete at the call, unless --undefined=havoc lets it return an
unconstrained value.

This list is generated from the model table every machine is given
(libc.Models, analyzer/exec/libc/models.go): the interpreter's own models
(analyzer/exec/vm) and the C library's (analyzer/exec/libc); a test fails when it is
stale.

`)
	section := func(title, note string, keep func(*vm.Model) bool) {
		var names []string
		for _, m := range Models().All() {
			if keep(m) {
				names = append(names, "`"+m.Name+"`")
			}
		}
		if len(names) == 0 {
			return
		}
		b.WriteString("## " + title + "\n\n" + note + "\n\n")
		b.WriteString(strings.Join(names, ", ") + "\n\n")
	}
	intrinsic := func(m *vm.Model) bool { return strings.HasPrefix(m.Name, "llvm.") }
	section("Acquisitions", "After these the thread holds a lock or has passed an ordering point; lock-order reversals reorder them.",
		func(m *vm.Model) bool { return m.Sync == vm.Acquires })
	section("Releases", "These let other threads go.",
		func(m *vm.Model) bool { return m.Sync == vm.Releases })
	section("Wake-ups", "These let other threads go and wake a waiter; interleaving generation moves them too, so a waiter can arrive after its wake-up.",
		func(m *vm.Model) bool { return m.Sync == vm.Signals })
	section("Inputs", "These make program memory symbolic input; a program that calls one has its paths explored.",
		func(m *vm.Model) bool { return m.Input })
	section("Symbolic arguments", "These take symbolic arguments as they are; every other model gets concrete values.",
		func(m *vm.Model) bool { return m.Symbolic && !m.Input })
	section("Other library functions", "Modeled with their C and POSIX meaning; each reports the program memory it reads and writes to the race detector.",
		func(m *vm.Model) bool { return m.Sync == vm.NoSync && !m.Input && !m.Symbolic && !intrinsic(m) })
	section("LLVM intrinsics", "Matched by base name, so every overload is covered.",
		func(m *vm.Model) bool { return m.Sync == vm.NoSync && !m.Input && !m.Symbolic && intrinsic(m) })
	section("Local calls", "A call of one of these (also listed above) changes nothing another thread can see but through the memory the race detector watches, "+
		"and nothing another thread does changes what it returns. A program whose threads, while two of them live, call no other model, meet only where they "+
		"are created and joined and race nowhere has one execution: detection runs its first schedule only (detection.md).",
		func(m *vm.Model) bool { return m.Local })
	section("Output calls", "These write program output. To the run's standard output or error, which no thread reads back, they count as local calls: "+
		"another schedule can only print the threads' output in another order, which the report then says. To a file, a pipe or a memory stream they do not.",
		func(m *vm.Model) bool { return m.Prints })
	return strings.TrimRight(b.String(), "\n") + "\n"
}
