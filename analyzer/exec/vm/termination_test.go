package vm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// Each program in testdata/crash states how it must end on its first line:
//
//	// expect: KIND [SIGNAL] "message substring" line N
//
// KIND is a termination kind (crash, assert, abort, deadlock, budget,
// unsupported); N is the source line of the termination (0: not checked).
var expectLine = regexp.MustCompile(`^// expect: (\w+)(?: (SIG\w+))? "(.*)" line (\d+)`)

var signals = map[string]int{"SIGSEGV": vm.SIGSEGV, "SIGABRT": vm.SIGABRT, "SIGFPE": vm.SIGFPE, "SIGILL": vm.SIGILL}

func TestTerminations(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/crash/*.c")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/crash")
	}
	cache := t.TempDir()
	for _, f := range files {
		f := f
		t.Run(strings.TrimSuffix(filepath.Base(f), ".c"), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := expectLine.FindStringSubmatch(string(src))
			if m == nil {
				t.Fatalf("%s: first line is not an expect directive", f)
			}
			kind, sig, substr := m[1], m[2], m[3]
			line, _ := strconv.Atoi(m[4])
			prog := loadtest.Program(t, cache, f)
			mach, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"prog"}, MaxInstructions: 2_000_000})
			if err != nil {
				t.Fatal(err)
			}
			res := mach.Run()
			term := res.Term
			if term.Kind.String() != kind {
				t.Fatalf("termination %s, want %s\n%s", term.Kind, kind, term.Report())
			}
			if !strings.Contains(term.Message, substr) {
				t.Errorf("message %q does not contain %q", term.Message, substr)
			}
			if sig != "" {
				if term.Signal != signals[sig] || term.ExitCode() != 128+signals[sig] {
					t.Errorf("signal %d (exit %d), want %s", term.Signal, term.ExitCode(), sig)
				}
			}
			if line != 0 {
				if term.Loc.Line != line || filepath.Base(term.Loc.File) != filepath.Base(f) {
					t.Errorf("terminated at %s, want %s:%d\n%s", term.Loc, filepath.Base(f), line, term.Report())
				}
				if len(term.Stack) == 0 || term.Stack[len(term.Stack)-1].Function != "__augur_start" {
					t.Errorf("stack does not reach the entry point: %+v", term.Stack)
				}
			}
			if kind == "deadlock" && len(term.Threads) == 0 {
				t.Errorf("deadlock report without thread stacks")
			}
			if kind == "deadlock" && !strings.Contains(term.Report(), "waiting for") {
				t.Errorf("deadlock report does not say what the threads wait for:\n%s", term.Report())
			}
			// Every wait for a lock says who holds it (vm.SetHolder):
			// deadlock.c's mutexes, spin_rwlock_deadlock.c's spin lock
			// and write lock.
			for _, lock := range []string{"mutex", "spinlock", "rwlock"} {
				if kind == "deadlock" && strings.Contains(term.Report(), "waiting for "+lock) &&
					!regexp.MustCompile(`waiting for `+lock+` at [^)]* held by thread \d`).MatchString(term.Report()) {
					t.Errorf("deadlock report does not say who holds the awaited %s:\n%s", lock, term.Report())
				}
			}
		})
	}
}

// A crash under a deep recursion prints its innermost and outermost
// frames, and how many it left out, not a line per frame.
func TestReportShortensDeepStacks(t *testing.T) {
	var stack []vm.StackFrame
	for i := range 500 {
		stack = append(stack, vm.StackFrame{Function: fmt.Sprintf("f%d", i)})
	}
	out := (&vm.Termination{Kind: vm.TermCrash, Message: "boom", Stack: stack}).Report()
	if n := strings.Count(out, "\n    #"); n != 30 {
		t.Errorf("%d frames printed, want 30:\n%s", n, out)
	}
	for _, want := range []string{"#0 f0 ", "#24 f24 ", "... 470 frames ...", "#495 f495 ", "#499 f499 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
