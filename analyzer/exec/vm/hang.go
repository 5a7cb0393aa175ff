package vm

import (
	"fmt"
	"sort"
	"strings"

	"augur/analyzer/frontend/ir"
)

// A run that reaches its instruction budget is not a hang by that alone:
// real programs run long. A hang is a run that provably makes no
// progress: nothing writes memory, synchronizes, prints or calls a model
// that changes what the program can see, and every thread that still
// lives is either blocked or back in a state it was in before (its frames
// and registers, compared by hash with Brent's cycle detection). With
// memory unchanged, a thread's steps are a function of its own state,
// whatever the schedule, so such a thread loops forever: a spin on a
// flag no one will write, a `for (;;)` that computes nothing new.
//
// A run is watched for that (hangWatch) for a short probe every
// hangProbeEvery instructions, so a hang is found soon whatever the
// budget, and for a longer final window when the instruction budget runs
// out. A probe that sees progress closes; a final window that sees it
// ends the run with the instruction budget as an analysis limit
// (TermBudget, BudgetInstructions), which says nothing about the program.
const (
	hangProbeEvery = 1 << 25
	hangProbe      = 1 << 16
	hangWindow     = 1 << 20
)

// hangWatch is the state of a watch.
type hangWatch struct {
	final    bool   // the window after the budget ran out, not a probe
	until    uint64 // the instruction count the window ends at
	mem      uint64 // memory's hash when the window opened, when memKnown
	memKnown bool
	syncs    uint64 // m.syncs then
	output   uint64 // output events (kept and omitted) then
	changed  string // a change a model call made, once one did
	threads  map[int]*cycle
	// nextSlow is when the window next checks the time and memory
	// budgets, which checkBudget checks every budgetCheckEvery.
	nextSlow uint64
}

// cycle is Brent's cycle detection over one thread's state hashes, and
// whether the thread is trapped (trapped).
type cycle struct {
	ref uint64
	// at is where the thread was when ref was taken: a state with the
	// thread elsewhere cannot equal it, so its hash is not needed.
	at         place
	power, lam uint64
	looped     bool
	trapped    bool
	steps      uint64 // the thread's checks so far: trapped is looked at on powers of two
}

// place is a thread's innermost activation (function and instruction)
// and its depth: part of the state StateDigest hashes.
type place struct {
	fn        uint32
	pc, depth int
}

// placeOf is where thread t is.
func placeOf(t *Thread) place {
	fr := &t.frames[len(t.frames)-1]
	return place{fn: fr.fn.ID, pc: fr.pc, depth: len(t.frames)}
}

// see takes the thread's next state, where it is and the hash of its
// state (computed only when needed: where the thread is matches the
// reference, or a new reference is taken, once per power of two), and
// reports whether the thread is back in a state it had. Hashing every
// state of a probe cost a fifth of a detection's time on SPLASH-2 ocean.
func (c *cycle) see(at place, hash func() uint64) bool {
	if c.looped {
		return true
	}
	h, known := uint64(0), false
	if c.lam > 0 && at == c.at {
		h, known = hash(), true
		if h == c.ref {
			c.looped = true
			return true
		}
	}
	if c.lam == c.power {
		if !known {
			h = hash()
		}
		c.ref, c.at, c.power, c.lam = h, at, max(2*c.power, 1), 0
	}
	c.lam++
	return false
}

// idleModels are the models a thread that waits may call without changing
// anything the program can see: yielding and sleeping.
var idleModels = map[string]bool{
	"sched_yield": true, "pthread_yield": true, "usleep": true, "nanosleep": true, "sleep": true,
	"clock_nanosleep": true, "thrd_yield": true,
}

// byState reports whether a thread that comes back to a state it had
// counts as stuck: only in a concrete run under sequential consistency,
// where memory and registers are the whole state. A trapped thread
// (trapped) is stuck in any run.
func (s *state) byState() bool { return s.sym == nil && s.weak == nil }

// openWatch starts a watch of n instructions. Memory is hashed only where
// a thread can be stuck by coming back to a state (byState): elsewhere
// (symbolic or weak runs) only a trapped thread is, and hashing a big
// heap at every probe cost a compressor's symbolic replays 7% of their
// time for nothing.
func (m *Machine) openWatch(final bool, n uint64) {
	m.hang = &hangWatch{final: final, until: m.insts + n, syncs: m.syncs,
		output: uint64(len(m.output)) + m.outOmit, threads: map[int]*cycle{}, nextSlow: m.insts + budgetCheckEvery}
	if final || m.byState() { // a final window says whether memory changed
		m.hang.mem, m.hang.memKnown = m.StateHash(), true
	}
}

// budgetExhausted is called when the run passes its instruction budget:
// it opens the final watch, or ends the run at once when it cannot be
// watched.
func (m *Machine) budgetExhausted() error {
	if m.cur == nil {
		return m.instructionBudget("")
	}
	m.openWatch(true, hangWindow)
	return m.watchHang()
}

// noHangProbes turns the periodic probes off (the final window stays),
// only to measure what they cost (BenchmarkHangProbeCost).
var noHangProbes bool

// probeHang opens a probe when one is due.
func (m *Machine) probeHang() error {
	if m.insts < m.nextProbe || m.cur == nil || noHangProbes {
		return nil
	}
	m.openWatch(false, hangProbe)
	return m.watchHang()
}

// probeEvery is the distance between probes: shorter with symbolic
// values, where an instruction costs a hundred times more (an endless
// loop over a symbolic counter would otherwise grow its expression for
// minutes before the first probe).
func (s *state) probeEvery() uint64 {
	if s.sym != nil {
		return hangProbeEvery >> 5
	}
	return hangProbeEvery
}

// closeProbe ends a probe that saw progress: the run goes on unwatched.
func (m *Machine) closeProbe() error {
	m.hang, m.nextProbe = nil, m.insts+m.probeEvery()
	m.nextCheck = m.insts + budgetCheckEvery
	if lim := m.cfg.MaxInstructions; lim != 0 && m.nextCheck > lim+1 {
		m.nextCheck = lim + 1
	}
	return m.checkLimits()
}

// instructionBudget is the termination of a run that ran out of
// instructions without being stuck; why says what it was still doing.
func (m *Machine) instructionBudget(why string) error {
	msg := fmt.Sprintf("instruction budget of %d exhausted", m.cfg.MaxInstructions)
	if why != "" {
		msg += " while the program was still running (" + why + ")"
	}
	return budgetTerm(BudgetInstructions, "%s", msg)
}

// noteProgress records, while the watch is open, a change the program can
// see that is not a write to memory (a model call).
func (m *Machine) noteProgress(what string) {
	if m.hang != nil && m.hang.changed == "" {
		m.hang.changed = what
	}
}

// watchHang runs at every instruction of a watch.
func (m *Machine) watchHang() error {
	w := m.hang
	if !w.final && m.cfg.MaxInstructions != 0 && m.insts > m.cfg.MaxInstructions {
		w.final, w.until = true, m.insts+hangWindow // the budget ran out during a probe
	}
	if why := m.progress(); why != "" {
		if w.final {
			return m.instructionBudget(why)
		}
		return m.closeProbe()
	}
	t := m.cur
	c := w.threads[t.ID]
	if c == nil {
		c = &cycle{}
		w.threads[t.ID] = c
	}
	looped := m.byState() && c.see(placeOf(t), func() uint64 { return m.StateDigest(t.ID) })
	c.steps++
	if !c.trapped && c.steps&(c.steps-1) == 0 { // at powers of two: cheap enough
		fr := &t.frames[len(t.frames)-1]
		c.trapped = trapped(fr.fn, fr.pc)
	}
	if stuck, byState := m.allStuck(); (looped || c.trapped) && stuck {
		if !byState || (w.memKnown && m.StateHash() == w.mem) {
			return &termError{m.hangTerm()}
		}
		w.changed = "it wrote memory"
		return m.watchHang()
	}
	if m.insts >= w.until {
		if !w.final {
			return m.closeProbe()
		}
		why := "it did not come back to a state it had"
		if w.memKnown && m.StateHash() != w.mem {
			why = "it wrote memory"
		}
		return m.instructionBudget(why)
	}
	m.nextCheck = m.insts + 1
	if m.insts >= w.nextSlow {
		w.nextSlow = m.insts + budgetCheckEvery
		return m.checkLimits()
	}
	return nil
}

// progress says what the run changed since the watch opened, other than
// memory: a model call, synchronization, output ("" for nothing).
func (m *Machine) progress() string {
	w := m.hang
	switch {
	case w.changed != "":
		return w.changed
	case m.syncs != w.syncs:
		return "it synchronized"
	case uint64(len(m.output))+m.outOmit != w.output:
		return "it printed"
	}
	return ""
}

// allStuck reports whether every live thread is blocked, trapped or has
// looped, and byState whether one of them is stuck only by having looped:
// that holds only if memory did not change meanwhile.
func (m *Machine) allStuck() (stuck, byState bool) {
	for _, t := range m.threads {
		if t.status == exited || t.status == blocked && t.wakeAt == 0 && !t.timedWait {
			continue
		}
		c := m.hang.threads[t.ID]
		switch {
		case c == nil:
			return false, false
		case c.trapped:
		case c.looped:
			byState = true
		default:
			return false, false
		}
	}
	return true, byState
}

// maxTrapRegion bounds the instructions trapped looks at.
const maxTrapRegion = 256

// trapped reports whether a thread at pc of fn can never leave the
// instructions reachable from there: none of them returns, calls, touches
// memory, divides or fails, so whatever its registers hold, the thread
// computes in them for ever (`while (1) i++`, whose state never comes
// back but whose loop has no way out).
func trapped(fn *ir.Function, pc int) bool {
	seen := map[int]bool{}
	work := []int{pc}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[p] {
			continue
		}
		if p < 0 || p >= len(fn.Insts) || len(seen) >= maxTrapRegion {
			return false
		}
		seen[p] = true
		in := &fn.Insts[p]
		switch in.Op {
		case ir.OpBr, ir.OpCondBr, ir.OpSwitch:
			for _, e := range in.Targets {
				work = append(work, e.PC)
			}
		case ir.OpBin:
			if in.Sub == ir.BinUDiv || in.Sub == ir.BinSDiv || in.Sub == ir.BinURem || in.Sub == ir.BinSRem {
				return false
			}
			work = append(work, p+1)
		case ir.OpICmp, ir.OpFBin, ir.OpFNeg, ir.OpFCmp, ir.OpCast, ir.OpSelect, ir.OpMove, ir.OpWideCmp:
			work = append(work, p+1)
		default:
			return false
		}
	}
	return true
}

// hangTerm describes a proven hang: each live thread's stack, the looping
// ones and the waiting ones.
func (m *Machine) hangTerm() *Termination {
	live := map[int][]StackFrame{}
	var loops []string
	for _, t := range m.threads {
		if t.status == exited {
			continue
		}
		st := m.stack(t)
		if len(st) > 0 {
			if t.status == blocked {
				if desc := m.waitDescription(t); desc != "" {
					st[0].Function += " (waiting for " + desc + ")"
				}
			} else {
				st[0].Function += " (looping)"
				why := "comes back to the same state while nothing writes memory"
				if c := m.hang.threads[t.ID]; c != nil && c.trapped {
					why = "is in a loop with no way out"
				}
				loops = append(loops, fmt.Sprintf("thread %d at %s %s", t.ID, st[0].Loc, why))
			}
		}
		live[t.ID] = st
	}
	sort.Strings(loops)
	return &Termination{Kind: TermHang, Threads: live,
		Message: fmt.Sprintf("the program loops forever (seen after %d instructions): %s", m.insts, strings.Join(loops, "; "))}
}
