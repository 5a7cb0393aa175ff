package vm

import (
	"errors"

	"augur/analyzer/exec/memmodel"
	"augur/analyzer/frontend/ir"
)

// The weak memory model (package memmodel) decides which value a plain
// load of a buffered location returns; the interpreter feeds it every
// plain store and synchronization and forks the state when a read could
// return several values.

// Weak configures the weak memory model of a run (memmodel.Config); nil
// means sequential consistency.
type Weak = memmodel.Config

// WeakStats, WeakChoice and WeakWrite are the model's counts, a read that
// returned an older value, and a write as explanations name it.
type (
	WeakStats  = memmodel.Stats
	WeakChoice = memmodel.Choice
	WeakWrite  = memmodel.Write
)

// buffered reports whether accesses to o are kept in write histories:
// globals and heap objects (stack objects read their latest value).
func buffered(o *Object) bool { return o.Kind == ObjGlobal || o.Kind == ObjHeap }

// weakRead returns the value a plain load by t of size bytes at off of o
// reads under the weak model, given that memory holds cur. It forks this
// state once per other value the load may return; handled is false when
// the location has no history.
func (m *Machine) weakRead(t *Thread, o *Object, off, size, cur uint64, loc ir.LocID) (uint64, bool, error) {
	forked := false
	r := memmodel.Read{Thread: t.ID, Count: m.ThreadCount(t.ID), Obj: o.ID, Name: o.Name, Off: off, Size: size, Cur: cur, Loc: loc}
	v, handled, err := m.weak.Read(r, func(seq uint64) {
		child := m.forkAgain()
		child.weak.Force(t.ID, o.ID, off, seq)
		if m.cfg.PreemptAccesses && t.atomicDepth == 0 {
			// This thread was granted the access it makes again: the
			// fork makes it at once rather than yielding before it a
			// second time (which would let other threads run first, and
			// schedule forks there lose the forced value).
			child.cur.accessGranted = true
		}
		m.spawned = append(m.spawned, child)
		forked = true
	})
	if errors.Is(err, memmodel.ErrReplay) {
		return 0, true, terminate(TermReplay, 0, "%s", err.Error())
	}
	if forked && m.cfg.PauseAtFork && err == nil {
		// The load runs again on resume and reads the same value: this
		// thread's binding now says so.
		return 0, true, errPaused
	}
	return v, handled, err
}

// SetWeakReads turns read-value choices on or off for the rest of the run
// (classification turns them on once the race has happened). Bookkeeping
// runs either way when the run has a weak memory model.
func (s *state) SetWeakReads(on bool) {
	if s.weak != nil {
		s.weak.SetReads(on)
	}
}

// WeakModel reports whether the run has the weak memory model.
func (s *state) WeakModel() bool { return s.weak != nil }

// WeakChoices returns the stale reads this state made, in order, with
// their locations spelled out.
func (s *state) WeakChoices() []WeakChoice {
	if s.weak == nil {
		return nil
	}
	out := s.weak.Chosen()
	for i := range out {
		c := &out[i]
		c.ReadAt = s.locString(c.Loc)
		c.Read = s.spell(c.Read)
		for j := range c.Missed {
			c.Missed[j] = s.spell(c.Missed[j])
		}
	}
	return out
}

// WeakObserved returns the latest writes of other threads this state's
// reads returned.
func (s *state) WeakObserved() []WeakWrite {
	if s.weak == nil {
		return nil
	}
	out := s.weak.Observed()
	for i := range out {
		out[i] = s.spell(out[i])
	}
	return out
}

func (s *state) spell(x WeakWrite) WeakWrite {
	x.At = s.locString(x.Loc)
	return x
}

func (s *state) locString(id ir.LocID) string {
	if id == 0 {
		return ""
	}
	return s.prog.Loc(id).String()
}
