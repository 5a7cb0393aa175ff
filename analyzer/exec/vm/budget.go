package vm

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"augur/internal/bytesize"
)

// Budget names the resource an execution ran out of.
type Budget uint8

const (
	NoBudget Budget = iota
	// BudgetInstructions: the execution ran Config.MaxInstructions
	// instructions and was still making progress (a loop that makes
	// none ends in TermHang instead, hang.go): the analysis, not the
	// program, stops.
	BudgetInstructions
	// BudgetTime: the wall-time budget (Config.Timeout or
	// Config.Deadline) ran out; the analysis, not the program, stops.
	BudgetTime
	// BudgetMemory: the execution, with what the analysis keeps of it,
	// grew past Config.MaxMemory.
	BudgetMemory
)

var budgetNames = [...]string{"", "instructions", "time", "memory"}

func (b Budget) String() string { return budgetNames[b] }

// MarshalText and UnmarshalText encode a budget by its name.
func (b Budget) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

func (b *Budget) UnmarshalText(t []byte) error { return byName(b, budgetNames[:], t, "budget") }

// budgetTerm ends an execution for having exhausted budget b.
func budgetTerm(b Budget, format string, args ...any) error {
	return &termError{&Termination{Kind: TermBudget, Budget: b, Message: fmt.Sprintf(format, args...)}}
}

// workCheckEvery is how much work outside the instruction count (bytes
// modeled calls copy, fill, read or write; threads a scheduling decision
// looks at, threadWork each) may be done before the budget is checked
// again.
const (
	workCheckEvery = 16 << 20
	threadWork     = 256
)

// charge counts n units of such work. Once they add up to workCheckEvery
// the budget is checked at the next instruction: a loop that writes a
// megabyte per call would otherwise run tens of gigabytes between two
// checks (they come every budgetCheckEvery instructions), and a program
// with a hundred thousand threads seconds of scheduling, past the memory
// and time budgets.
func (m *Machine) charge(n uint64) {
	m.work += n
	if m.work >= workCheckEvery {
		m.work = 0
		m.nextCheck = m.insts + 1
	}
}

// AbandonAt ends the execution, as canceled, at the first budget check
// once it has executed n instructions (or at its end, if that comes
// first): its monitor found that what it records of this execution is
// incomplete, and the caller runs it again rather than use it
// (race.Detector.Redo). Until then the monitor may learn more of what the
// next run needs. A later call never moves the point.
func (m *Machine) AbandonAt(n uint64) {
	if m.abandonAt == 0 {
		m.abandonAt = max(n, 1)
	}
}

// solverQueryWork is the work a call of Z3 counts as (charge,
// solverWork): the budget is checked every 16 calls, where 64 Ki
// instructions that each asked Z3 ran minutes past the time budget.
const solverQueryWork = workCheckEvery / 16

// checkBudget runs every budgetCheckEvery instructions and when the
// instruction budget is reached; it sets the next check point.
func (m *Machine) checkBudget() error {
	m.mem.safePoint()
	m.nextCheck = m.insts + budgetCheckEvery
	if lim := m.cfg.MaxInstructions; lim != 0 && m.nextCheck > lim+1 {
		m.nextCheck = lim + 1
	}
	if m.abandonAt != 0 && m.insts >= m.abandonAt {
		return terminate(TermCanceled, 0, "execution abandoned: its monitor can no longer judge it")
	}
	if m.hang != nil {
		return m.watchHang()
	}
	if m.cfg.MaxInstructions != 0 && m.insts > m.cfg.MaxInstructions {
		return m.budgetExhausted()
	}
	if err := m.probeHang(); err != nil || m.hang != nil {
		return err
	}
	return m.checkLimits()
}

// checkLimits checks the budgets other than the instruction count: time,
// interruption, cancellation and memory.
func (m *Machine) checkLimits() error {
	if !m.deadline.IsZero() && time.Now().After(m.deadline) {
		return m.timeTerm()
	}
	if m.cfg.Interrupted() {
		return budgetTerm(BudgetTime, InterruptedMessage)
	}
	if m.cfg.Canceled() {
		return terminate(TermCanceled, 0, "analysis canceled")
	}
	return m.checkMemory()
}

// timeTerm is the termination of an execution past its deadline: the
// whole analysis's (Config.Deadline) or its own (Config.Timeout).
func (m *Machine) timeTerm() error {
	if t := m.cfg.Expired(); t != nil {
		return &termError{t}
	}
	return budgetTerm(BudgetTime, "time budget of %s exhausted", durationText(m.cfg.Timeout))
}

// durationText renders a budget in the units a user would give it.
func durationText(d time.Duration) string {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// checkMemory ends the execution when what it holds passes
// Config.MaxMemory. Two measures are checked: the execution's own
// footprint (the program's objects, threads and output, and what the
// analysis keeps for it: trace, shadow, histories), which is
// deterministic; and, as a backstop for what that does not count, how
// far the live Go heap of the whole process (after the last collection)
// grew since the execution was made, less what the executions of other
// analyses came to hold meanwhile (ledger.go). Not the heap itself: in
// the language server it holds the other targets' results and an
// analysis just canceled, and a budget of 128 MiB stopped a program at a
// place of the collector's choosing, the heap holding 659 MiB that were
// not the execution's.
func (m *Machine) checkMemory() error {
	max := m.cfg.MaxMemory
	if max == 0 {
		return nil
	}
	if err := m.memoryFits(0); err != nil {
		return err
	}
	if grew, _ := m.heapGrowth(); grew <= int64(max)+HeapSlack {
		return nil
	}
	// The last collection's count may hold what has since been let go (an
	// analysis canceled, an execution ended): the backstop stops an
	// execution only on a count taken now.
	runtime.GC()
	grew, others := m.heapGrowth()
	if grew <= int64(max)+HeapSlack {
		return nil
	}
	msg := fmt.Sprintf("memory budget of %s exhausted: augur's heap grew by %s while it ran", bytesize.Format(max),
		bytesize.Format(uint64(grew)))
	if others > 0 {
		msg += fmt.Sprintf(", besides the %s other analyses' executions came to hold", bytesize.Format(uint64(others)))
	}
	return budgetTerm(BudgetMemory, "%s", msg)
}

// heapGrowth returns how far the process's live heap grew since m was
// made, less what other analyses' executions came to hold meanwhile, and
// that amount. A drop in what they hold is not credited: a share is given
// back when its execution is collected, but the pages it counted may stay
// live (a fork counted the same copy-on-write pages, a result keeps them),
// so the drop would charge this execution for memory that did not move.
func (m *Machine) heapGrowth() (grew, others int64) {
	others = max(m.share.acct.others()-m.othersBase, 0)
	return int64(heapLive()) - int64(m.heapBase) - others, others
}

// HeapSlack is how far the process heap may grow past the memory budget
// during one execution before the backstop stops it: the program's
// loaded code and the server's caches are not the execution's doing. (A
// command's Go memory limit is closer to the budget, so garbage is
// collected before the process grows this far.)
const HeapSlack = 256 << 20

// heapLive returns the bytes of live heap the last garbage collection
// found, for the whole process.
func heapLive() uint64 { return heapMetric("/gc/heap/live:bytes") }

// heapMetric reads one of the runtime's byte counts (0 when this Go does
// not have it).
func heapMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// Footprint estimates the memory an execution holds: the program's
// objects with their records, its threads, the output and files it
// wrote, and what the analysis keeps for it (the schedule trace, the
// monitor's shadow, the weak memory model's histories).
func (m *Machine) Footprint() uint64 {
	fp := m.mem.Footprint() + m.trace.Bytes() + uint64(m.outKept) + uint64(len(m.output))*outputEventOverhead +
		m.lib.Footprint()
	for _, t := range m.threads {
		fp += threadOverhead + uint64(cap(t.regs))*16 + uint64(cap(t.frames))*72
	}
	if s, ok := m.mon.(Sizer); ok {
		fp += s.Footprint()
	}
	if m.weak != nil {
		fp += m.weak.Footprint()
	}
	return fp
}

// Sizer is a Monitor that can say how much memory it holds for the
// execution it watches; the memory budget counts it.
type Sizer interface {
	Footprint() uint64
}

// Costs the footprint counts beyond raw bytes.
const (
	threadOverhead      = 256
	outputEventOverhead = 160
)

// allocBudget checks, before an allocation of size bytes, that the
// program's memory stays within the budget: a single huge allocation
// ends the execution at once instead of at the next periodic check.
func (m *Machine) allocBudget(size uint64) error {
	if m.cfg.MaxMemory == 0 || size < 1<<20 {
		return nil
	}
	if err := m.memoryFits(size); err != nil {
		return err
	}
	collectBefore(size, m.cfg.MaxMemory)
	return nil
}

// GCMargin is how far past the memory budget the commands set the Go
// memory limit.
const GCMargin = 32 << 20

// bigAlloc is the size from which an allocation is large enough to pay
// for a collection before it.
const bigAlloc = 8 << 20

// collectBefore runs the garbage collector before an allocation of size
// bytes when the heap, with the garbage not yet collected, would pass the
// budget. The Go memory limit alone does not keep to it: a
// collection it starts runs beside the allocations, so an execution that
// reallocates a big buffer while the last schedule's buffers still wait to
// be collected held both (a 256 MiB budget's analysis peaked at 407 MiB
// of RSS). Only large allocations collect, so the cost of a collection
// stays small beside that of the allocation.
func collectBefore(size, budget uint64) {
	if size < bigAlloc {
		return
	}
	if heapMetric("/memory/classes/heap/objects:bytes")+size > budget {
		runtime.GC()
	}
}

// memoryFits ends the execution when its footprint, with size bytes more
// about to be allocated, passes the memory budget.
func (m *Machine) memoryFits(size uint64) error {
	max := m.cfg.MaxMemory
	fp := m.Footprint()
	m.share.publish(fp)
	fp += size
	if fp > m.peak {
		m.peak = fp
	}
	if m.cfg.Room != nil && !m.cfg.Room(fp) {
		return &termError{&Termination{Kind: TermCanceled, noRoom: true,
			Message: "execution abandoned: the work beside it needs the memory budget; it runs again"}}
	}
	if fp <= max {
		return nil
	}
	bytes, objs := m.mem.Live()
	holds := "the execution holds " + bytesize.Format(fp)
	if size > 0 {
		holds = fmt.Sprintf("allocating %s more, the execution would hold %s", bytesize.Format(size), bytesize.Format(fp))
	}
	return budgetTerm(BudgetMemory, "memory budget of %s exhausted: %s (the program's %d objects hold %s)",
		bytesize.Format(max), holds, objs, bytesize.Format(bytes))
}
