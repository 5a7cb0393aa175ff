package sched

// Passing is a policy under which a thread goes on through some
// preemption points without a decision: the machine neither asks the
// policy nor records anything in the trace there, so a replay of the
// trace must pass the same points (Replay does, for a trace recorded
// under Quantum).
type Passing interface {
	// Passes reports whether a thread that is still runnable after a
	// call of what (Point.What), and has passed n points since the last
	// decision made at one of its own, goes on without a decision.
	Passes(what string, n int) bool
}

// QuantumLocks is how many lock acquisitions in a row a thread passes
// under Quantum before round robin switches at the next one (a thread
// rarely takes more than a few locks before it lets one go).
const QuantumLocks = 64

// AnalysisQuantumAfter is how many decisions an analysis's execution
// makes at every lock before it follows PassesLock (vm.Config.
// LockQuantumAfter): a hundred thousand, a few milliseconds of
// interpretation, more than any of the corpus's short programs makes in
// a whole run (many_decisions.c, four threads taking one lock 3,000
// times each, makes 51,000), so their schedules keep every switch, while
// a program that takes millions of locks decides at its releases only.
const AnalysisQuantumAfter = 100_000

// Quantum is `augur run`'s schedule. It is round robin, except that a
// thread that took a lock without waiting (a mutex, read-write lock or
// spin lock) goes on, as it would on a real processor, instead of giving
// the processor to the next thread while it holds the lock: round robin's
// switch there, and the others' blocking on the lock it holds, were most
// of the decisions of a program that takes a lock every few instructions
// (4.25 decisions an iteration of a locked addition by four threads,
// where Quantum makes one). Releasing a lock stays a decision, so the
// threads that wait for it, blocked or polling (with try-locks, or
// yielding while they hold it), get it at once: passing releases as well
// let a poller take the lock again before the thread it had just woken ran,
// for ever. Blocking, exiting, yielding, sleeping, the other
// synchronization calls, atomic and volatile accesses and the end of a
// time slice are decisions as under round robin.
//
// Detection and classification do not use it as a policy: their first
// schedule is round robin, which switches at every lock to bring out the
// races between critical sections. Their executions follow its rule only
// after their first AnalysisQuantumAfter decisions.
type Quantum struct{ RoundRobin }

// QuantumName is Quantum's name in traces and on the command line.
const QuantumName = "quantum"

func (Quantum) Name() string { return QuantumName }

// Passes implements Passing.
func (Quantum) Passes(what string, n int) bool { return PassesLock(what, n) }

// PassesLock is Quantum's rule: a thread still runnable after a call of
// what, having passed n points since its last decision, goes on when the
// call took a lock without waiting and it has not taken QuantumLocks in
// a row. The analysis's executions follow it too after their first
// decisions (vm.Config.LockQuantumAfter).
func PassesLock(what string, n int) bool { return n < QuantumLocks-1 && isLockAcquire(what) }

// Passes implements Passing for a trace recorded under Quantum: the
// replayed execution passes the points the recorded one passed.
func (r *Replay) Passes(what string, n int) bool {
	return r.Trace.Policy == QuantumName && Quantum{}.Passes(what, n)
}

// isLockAcquire reports whether what is a call that takes a lock and
// waits for it: after it a thread that is still runnable holds the lock.
func isLockAcquire(what string) bool {
	_, waits := lockCall(what)
	return waits
}
