package vm

import (
	"augur/analyzer/frontend/ir"
)

// Malloc returns a new heap object of n bytes, allocated at site and named
// name in reports ("" for a plain heap object). Heap ids are never reused,
// so any later access through a dangling pointer is reported as use after
// free. An allocation that would take the execution past its memory budget
// ends it (a budget termination), so a runaway allocation loop stops at
// once. An allocation larger than augur's object size limit returns 0, as
// malloc does out of memory.
func (m *Machine) Malloc(t *Thread, n uint64, site ir.LocID, name string) (uint64, error) {
	if n > 1<<31 {
		return 0, nil
	}
	if err := m.allocBudget(n); err != nil {
		return 0, err
	}
	o := m.mem.alloc(ObjHeap, n, name, site, t.ID)
	return ir.Addr(o.ID, 0), nil
}

// Free releases the heap object at p for the call named what ("free",
// "realloc"): a double free, or a pointer that is not the start of a live
// heap object, ends the execution as glibc's abort would.
func (m *Machine) Free(t *Thread, p uint64, site ir.LocID, what string) error {
	if p == 0 {
		return nil
	}
	o := m.mem.Object(uint32(p >> ir.AddrShift))
	off := p & (1<<ir.AddrShift - 1)
	switch {
	case o == nil && m.mem.WasFreed(uint32(p>>ir.AddrShift)):
		return terminate(TermCrash, SIGABRT, "double free of a heap object freed earlier (0x%x)", p)
	case o == nil || o.Kind != ObjHeap:
		return terminate(TermCrash, SIGABRT, "%s of a pointer that was not allocated on the heap (0x%x, %s)", what, p, m.DescribeAddr(p))
	case o.Freed:
		msg := "double free of " + m.DescribeAddr(p)
		if o.FreeSite != 0 {
			msg += ", first freed at " + m.prog.Loc(o.FreeSite).String()
		}
		return m.freedAt(terminate(TermCrash, SIGABRT, "%s", msg), o)
	case off != 0:
		return terminate(TermCrash, SIGABRT, "%s of a pointer %d bytes inside %s", what, off, m.DescribeAddr(p))
	}
	m.note(t, o, 0, o.Size, Free, ir.NotAtomic, site)
	o = m.mem.freeing(o)
	o.Freed = true
	o.FreeSite = site
	o.setLimits()
	m.mem.retire(o)
	return nil
}

// HeapBlock describes the live heap object a pointer points into.
type HeapBlock struct {
	Size   uint64
	Offset uint64 // of the pointer from the object's start
	Name   string // as given to Malloc
}

// HeapBlockAt returns the live heap object p points into; ok is false when
// p points to no heap object or to a freed one.
func (s *state) HeapBlockAt(p uint64) (b HeapBlock, ok bool) {
	o := s.mem.Object(uint32(p >> ir.AddrShift))
	if o == nil || o.Kind != ObjHeap || o.Freed {
		return HeapBlock{}, false
	}
	return HeapBlock{Size: o.Size, Offset: p & (1<<ir.AddrShift - 1), Name: o.Name}, true
}
