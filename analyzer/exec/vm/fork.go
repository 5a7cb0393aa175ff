package vm

import (
	"maps"
	"slices"

	"augur/analyzer/exec/sched"
)

// Forking. A symbolic branch whose both sides are feasible continues in the
// current state and in a fork; the fork is a deep copy of everything an
// execution owns except memory, which it shares copy-on-write (objects are
// copied by whichever state writes first), so forking costs the threads'
// registers and stacks, not the heap.

// ForkableMonitor is a Monitor that can follow both sides of a fork.
type ForkableMonitor interface {
	Monitor
	Fork() Monitor
}

// forkAgain returns a fork made in the middle of an instruction (a
// symbolic branch, a symbolic address, a weak read) that executes that
// instruction again when it runs, deciding it the way its fork made it:
// the instruction is taken out of the fork's counts so it counts once.
func (m *Machine) forkAgain() *Machine {
	c := m.fork()
	c.insts--
	c.cur.count--
	c.forkSite = m.curLoc()
	return c
}

// fork returns an independent copy of m positioned where m is: a copy
// of its state (state.fork) with a runner of its own, whose
// configuration and budgets are m's and whose policy and monitor are
// forks of m's.
func (m *Machine) fork() *Machine {
	c := *m
	c.marks = markSource{} // its own block: marks are unique across machines
	c.state = m.state.fork(&m.marks, &c.marks)
	c.lib = m.lib.Fork(&c) // bound to the machine, once its state is the fork's
	c.hang = nil           // a fork's watch opens when its own budget runs out
	if m.share != nil {
		c.openLedger()
	}
	if c.cur != nil {
		// The slice the current thread is in has not been added to its
		// count yet (the run loop adds it when the slice ends); the fork
		// starts a slice of its own from here.
		c.cur.count += m.insts - m.sliceStart
		c.sliceStart = m.insts
	}
	if f, ok := m.policy.(sched.Forker); ok {
		c.policy = f.Fork()
	}
	if m.mon != nil {
		if f, ok := m.mon.(ForkableMonitor); ok {
			c.SetMonitor(f.Fork())
		} else {
			c.SetMonitor(nil)
		}
	}
	c.argBuf, c.callBuf, c.runBuf, c.simdBuf = nil, nil, nil, nil
	c.spawned, c.pendingFail = nil, nil // the parent's forks are not the child's
	return &c
}

// cloneStack copies a stack: its frames, with their stack objects' lists,
// and its registers.
func cloneStack(frames []frame, regs []Value) ([]frame, []Value) {
	c := make([]frame, len(frames))
	copy(c, frames)
	for i := range c {
		c[i].allocas = append([]uint32(nil), frames[i].allocas...)
	}
	return c, append(make([]Value, 0, cap(regs)), regs...)
}

func (t *Thread) clone() *Thread {
	c := *t
	c.frames, c.regs = cloneStack(t.frames, t.regs)
	c.warm = warmFrame{} // nothing past the copy's top (and t's registers not kept alive)
	c.onces, c.atExit = slices.Clone(t.onces), slices.Clone(t.atExit)
	if t.tls != nil {
		c.tls = make(map[uint32]uint32, len(t.tls))
		for k, v := range t.tls {
			c.tls[k] = v
		}
	}
	if t.keys != nil {
		c.keys = make(map[uint64]uint64, len(t.keys))
		for k, v := range t.keys {
			c.keys[k] = v
		}
	}
	return &c
}

// fork copies the table of call stacks: ids already handed out stay valid
// in both states, and each adds its own (forks run on other goroutines).
func (s *stackTable) fork() *stackTable {
	return &stackTable{nodes: s.nodes[:len(s.nodes):len(s.nodes)], index: maps.Clone(s.index)}
}
