package vm

import (
	"errors"
	"fmt"
	"strings"

	"augur/analyzer/frontend/ir"
)

// TermKind is why an execution ended.
type TermKind uint8

const (
	TermExit        TermKind = iota // normal exit, Status set
	TermCrash                       // memory error, division by zero, unreachable, stack overflow
	TermAssert                      // failed assert() or augur_assert
	TermAbort                       // abort()
	TermDeadlock                    // every live thread blocked
	TermBudget                      // instruction, time or memory budget exhausted (Termination.Budget)
	TermUnsupported                 // the program used something augur does not model
	TermReplay                      // the schedule diverged from the trace being replayed
	TermSolver                      // a solver query on this path timed out or failed
	TermPruned                      // an assumption (augur_assume, klee_assume) cannot hold on this path
	TermPaused                      // not an end: Run returned after a fork (Config.PauseAtFork)
	TermCanceled                    // Config.Cancel was closed: the caller no longer wants the result
	TermHang                        // every live thread blocked or looping through the same states, memory unchanged (hang.go)
)

var termNames = [...]string{"exit", "crash", "assert", "abort", "deadlock", "budget", "unsupported", "replay-divergence",
	"solver-timeout", "pruned", "paused", "canceled", "hang"}

func (k TermKind) String() string { return termNames[k] }

// MarshalText and UnmarshalText encode a kind by its name.
func (k TermKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

func (k *TermKind) UnmarshalText(b []byte) error {
	return byName(k, termNames[:], b, "termination kind")
}

// byName sets *v to the value whose name (names[value]) is b.
func byName[T ~uint8](v *T, names []string, b []byte, what string) error {
	for i, n := range names {
		if n == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q", what, b)
}

// KnownTermination reports whether name is a termination kind's name.
func KnownTermination(name string) bool {
	for _, n := range termNames {
		if n == name {
			return true
		}
	}
	return false
}

// Frame is one entry of a reported call stack.
type StackFrame struct {
	Function string `json:"function"`
	Loc      ir.Loc `json:"loc"`
}

// Termination is how and where an execution ended.
type Termination struct {
	Kind    TermKind     `json:"kind"`
	Status  int          `json:"status,omitempty"`             // exit status for TermExit
	Signal  int          `json:"signal,omitempty"`             // the signal a native run would die of (SIGSEGV, SIGABRT, ...), 0 if none
	Message string       `json:"message,omitempty" loc:"text"` // what happened, for a human
	Thread  int          `json:"thread"`
	Loc     ir.Loc       `json:"loc"`
	Stack   []StackFrame `json:"stack,omitempty"` // innermost first
	// Threads holds every live thread's stack for deadlocks.
	Threads map[int][]StackFrame `json:"threads,omitempty"`
	// Err is the scheduling policy's error for TermReplay terminations; it
	// stays in the process that ran the execution.
	Err error `json:"-"`
	// Budget says which budget a TermBudget termination exhausted.
	Budget Budget `json:"budget,omitempty"`
	// Function names the external function a TermUnsupported termination
	// called, when a call is what augur could not follow.
	Function string `json:"function,omitempty"`
	// Freed is where the memory a use after free or a double free
	// touched was freed, so an editor can point at the free too.
	Freed *ir.Loc `json:"freed,omitempty"`
	// noRoom marks an execution abandoned to make room for the one that
	// shares its memory budget (Config.Room).
	noRoom bool
}

// Signals a native run would die of.
const (
	SIGILL  = 4
	SIGABRT = 6
	SIGFPE  = 8
	SIGSEGV = 11
)

// ExitBudget is the exit status of an execution the time or instruction
// budget stopped, like timeout(1)'s; ExitMemory that of one the memory
// budget stopped, like a process the kernel's out-of-memory killer ends
// (128+SIGKILL): a script can tell a program that ran too long from one
// that grew too large.
const (
	ExitBudget = 124
	ExitMemory = 137
)

// NoRoom reports whether the execution was abandoned to make room for
// the one sharing its memory budget (Config.Room): it is to run again
// from its start, not to be used.
func (t *Termination) NoRoom() bool { return t != nil && t.noRoom }

// OutOfInstructions reports whether the instruction budget stopped the
// execution: an input that makes the program run longer than the budget
// allows, a limit of the analysis rather than a failure.
func (t *Termination) OutOfInstructions() bool {
	return t != nil && t.Kind == TermBudget && t.Budget == BudgetInstructions
}

// ExitCode is the status a native process would report: its exit status, or
// 128+signal for a signal death. Budget and unsupported terminations, which
// a native run does not have, map to 124 (like timeout(1)) and 125.
func (t *Termination) ExitCode() int {
	switch t.Kind {
	case TermExit:
		return t.Status
	case TermBudget:
		if t.Budget == BudgetMemory {
			return ExitMemory
		}
		return ExitBudget
	case TermUnsupported, TermReplay, TermSolver:
		return 125
	case TermPruned:
		return 0
	case TermDeadlock, TermHang:
		return 124 // a native deadlock or endless loop runs until killed
	}
	if t.Signal != 0 {
		return 128 + t.Signal
	}
	return 1
}

// Report renders the termination like a sanitizer report.
func (t *Termination) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "augur: %s: %s\n", t.Kind, ir.Readable(t.Message))
	if t.Kind == TermExit {
		return b.String()
	}
	// A deep recursion prints its innermost and outermost frames, not
	// thousands of lines.
	writeStack := func(stack []StackFrame) {
		for i, f := range stack {
			if len(stack) > maxStackShown && i == stackShownInner {
				fmt.Fprintf(&b, "    ... %d frames ...\n", len(stack)-maxStackShown)
			}
			if len(stack) > maxStackShown && i >= stackShownInner && i < len(stack)-(maxStackShown-stackShownInner) {
				continue
			}
			fmt.Fprintf(&b, "    #%d %s %s\n", i, ir.ReadableName(f.Function), f.Loc)
		}
	}
	if t.Kind == TermDeadlock || t.Kind == TermHang {
		for id := 0; id <= maxKey(t.Threads); id++ {
			if st, ok := t.Threads[id]; ok {
				fmt.Fprintf(&b, "  thread %d:\n", id)
				writeStack(st)
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "  in thread %d at %s\n", t.Thread, t.Loc)
	writeStack(t.Stack)
	return b.String()
}

// A stack of more than maxStackShown frames is printed as its first
// stackShownInner frames and its last maxStackShown-stackShownInner.
const (
	maxStackShown   = 30
	stackShownInner = 25
)

func maxKey(m map[int][]StackFrame) int {
	n := -1
	for k := range m {
		if k > n {
			n = k
		}
	}
	return n
}

// termError carries a Termination through Go error returns inside the VM.
type termError struct{ t *Termination }

func (e *termError) Error() string { return e.t.Message }

// freedAt records, on the crash err, where the freed object o it touched
// was freed.
func (s *state) freedAt(err error, o *Object) error {
	var te *termError
	if o != nil && o.FreeSite != 0 && errors.As(err, &te) {
		l := s.prog.Loc(o.FreeSite)
		te.t.Freed = &l
	}
	return err
}

func terminate(kind TermKind, signal int, format string, args ...any) error {
	return &termError{&Termination{Kind: kind, Signal: signal, Message: fmt.Sprintf(format, args...)}}
}

func unsupported(format string, args ...any) error {
	return terminate(TermUnsupported, 0, format, args...)
}

// Unsupported is what a model returns for a call it cannot follow: the
// run ends there as INCOMPLETE, with the message.
func Unsupported(format string, args ...any) error { return unsupported(format, args...) }
