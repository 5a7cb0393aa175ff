package vm

import (
	"fmt"
	"path"

	"augur/analyzer/frontend/ir"
)

func (tab *Models) addProcess() {
	// exit() is C in the runtime (it runs atexit handlers and flushes
	// stdio); it ends in __augur_exit.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		status := int(a[0].Bits & 0xff)
		if t.proc != 0 {
			return m.clientExit(t, status)
		}
		m.lib.Flush()
		return &termError{&Termination{Kind: TermExit, Status: status, Message: fmt.Sprintf("exit status %d", status)}}
	}, "__augur_exit")
	// __augur_process is the calling thread's process: 0 for the program,
	// k+1 for client program k (clients.go). exit() runs the atexit
	// handlers of its own process only.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, uint64(t.proc))
		return nil
	}, "__augur_process")
	// __augur_fini runs the program's destructors (llvm.global_dtors),
	// once, after exit()'s handlers: it pushes them all on the calling
	// thread and is called again when they have returned. A client's exit
	// runs none: they are the program's.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if m.finiDone || t.proc != 0 {
			return nil
		}
		m.finiDone = true
		ds := m.destructors()
		if len(ds) == 0 {
			return nil
		}
		for i := len(ds) - 1; i >= 0; i-- { // the first to run ends on top
			if err := m.pushFrame(t, ds[i], nil, nil, -2, in.Loc); err != nil {
				return err
			}
		}
		return errPushed
	}, "__augur_fini")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		status := int(a[0].Bits & 0xff)
		if t.proc != 0 {
			return m.clientExit(t, status)
		}
		return &termError{&Termination{Kind: TermExit, Status: status, Message: fmt.Sprintf("_exit status %d", status)}}
	}, "_exit", "_Exit")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return terminate(TermAbort, SIGABRT, "abort() called")
	}, "abort")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		expr, _ := m.CString(a[0].Bits)
		file, _ := m.CString(a[1].Bits)
		fn, _ := m.CString(a[3].Bits)
		line := a[2].Bits & 0xffffffff
		msg := fmt.Sprintf("%s: %s:%d: %s: Assertion `%s' failed.\n", m.progName(), file, line, fn, expr)
		m.lib.WriteStderr(t, []byte(msg))
		return terminate(TermAssert, SIGABRT, "assertion `%s' failed (%s:%d, in %s)", expr, file, line, fn)
	}, "__assert_fail")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return terminate(TermCrash, SIGABRT, "pure virtual method called")
	}, "__cxa_pure_virtual", "__cxa_deleted_virtual")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return terminate(TermCrash, SIGABRT, "stack smashing detected")
	}, "__stack_chk_fail")
	// The runtime's raise() ends the process here for a signal whose
	// default action is to terminate it.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		sig := int(a[0].Bits & 0x7f) // like abort, a signal death does not flush stdio
		return terminate(TermCrash, sig, "the program raised signal %d (%s), whose default action ends the process", sig, signalName(sig))
	}, "__augur_signal_exit")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		addr, err := m.errnoAddr(t)
		SetResult(res, addr)
		return err
	}, "__errno_location")
}

// Sleep blocks t for d nanoseconds of virtual time. The thread wakes when
// the clock reaches its deadline: the clock advances with every instruction
// run and, when every thread waits, jumps to the earliest deadline, so
// threads that sleep less wake first, as they do natively. A sleep is a
// two-step call: the first step blocks, the second (after the wake) returns.
func (m *Machine) Sleep(t *Thread, d int64) error {
	if err, ok := m.cancelPoint(t); ok {
		return err
	}
	if t.phase == 1 {
		t.phase = 0
		return errYield
	}
	t.phase = 1
	t.wakeAt = m.now() + max(d, 1)
	t.sleptAt = m.insts
	t.status = blocked
	t.waitDesc, t.waiting = "the end of a sleep", false
	m.sleepers++
	return errBlock
}

// wakeEarly ends t's sleep because the policy chose it: virtual time moves
// to its deadline (the others were slower than the sleep).
func (s *state) wakeEarly(t *Thread) {
	if now := s.now(); t.wakeAt > now {
		s.clock += t.wakeAt - now
	}
	s.endSleep(t)
}

// endSleep makes a sleeping thread runnable.
func (s *state) endSleep(t *Thread) {
	t.wakeAt, t.status, t.waitDesc, t.waiting = 0, runnable, "", false
	s.sleepers--
}

// sleepPatience is how many instructions the other threads may run while
// a thread sleeps before virtual time jumps to its deadline anyway: a
// thread that spins until a sleeper wakes would otherwise run one
// instruction per virtual nanosecond of the sleep (a billion for sleep(1)).
const sleepPatience = 100_000

// wakeSleepers makes runnable the sleeping threads whose deadline has
// passed. With advance set (no thread can run), or when the earliest
// sleeper has waited sleepPatience instructions, virtual time first jumps
// to the earliest deadline; it returns the threads woken.
func (s *state) wakeSleepers(advance bool) []int {
	now := s.now()
	var first *Thread
	for _, t := range s.threads {
		if t.wakeAt != 0 && (first == nil || t.wakeAt < first.wakeAt) {
			first = t
		}
	}
	if first != nil && (advance || s.insts-first.sleptAt >= sleepPatience) && first.wakeAt > now {
		s.clock += first.wakeAt - now
		now = first.wakeAt
	}
	var woken []int
	for _, t := range s.threads {
		if t.wakeAt != 0 && t.wakeAt <= now {
			s.endSleep(t)
			woken = append(woken, t.ID)
		}
	}
	return woken
}

// virtualEpoch is the wall-clock instant every execution starts at
// (2024-01-01T00:00:00Z), in nanoseconds.
const virtualEpoch = 1704067200 * 1e9

func (s *state) now() int64 {
	if s.steady {
		return virtualEpoch + s.clock + int64(s.steadyAt)
	}
	return virtualEpoch + s.clock + int64(s.insts)
}

// steadyRead is what a read of a steady clock by t adds to the time it
// shows (a microsecond per earlier read of its own), 0 otherwise.
func (s *state) steadyRead(t *Thread) int64 {
	if !s.steady {
		return 0
	}
	t.clockReads++
	return (t.clockReads - 1) * 1000
}

// Resuming reports whether t is back in a blocking call it made before
// (its second step: a sleep that ended, a wait that was woken), so a model
// need not read its arguments again.
func (s *state) Resuming(t *Thread) bool { return t.phase != 0 }

// CPUTime is clock()'s CPU time in microseconds, as t reads it at call
// in: an instruction is a nanosecond (under a steady clock, see
// steadyRead). The read is recorded as an input.
func (s *state) CPUTime(t *Thread, in *ir.Inst) uint64 {
	us := s.insts / 1000
	if s.steady {
		us = (s.steadyAt + uint64(s.steadyRead(t))) / 1000
	}
	s.inputs = append(s.inputs, InputEvent{Kind: "clock", Value: int64(us), Thread: t.ID, Loc: s.prog.Loc(in.Loc)})
	return us
}

// Clock returns the virtual time t reads at call in, a function named
// kind ("time", "clock_gettime"), and records the read as an input.
func (s *state) Clock(t *Thread, in *ir.Inst, kind string) int64 {
	v := s.now() + s.steadyRead(t)
	s.inputs = append(s.inputs, InputEvent{Kind: kind, Value: v, Thread: t.ID, Loc: s.prog.Loc(in.Loc)})
	return v
}

// progName is the program's short name, as glibc's __progname.
func (m *Machine) progName() string {
	if len(m.cfg.Args) == 0 {
		return "a.out"
	}
	return path.Base(m.cfg.Args[0])
}

// signalName is a signal's name, as strsignal's abbreviation.
func signalName(sig int) string {
	names := map[int]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
		8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM"}
	if n, ok := names[sig]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", sig)
}
