package vm

import (
	"augur/analyzer/ir"
)

// malloc returns a new heap object of n bytes. Heap ids are never reused, so
// any later access through a dangling pointer is reported as use after free.
// An allocation that would take the execution past its memory budget ends
// it (a budget termination), so a runaway allocation loop stops at once.
func (m *Machine) malloc(t *Thread, n uint64, site ir.LocID) (uint64, error) {
	if n > 1<<31 {
		return 0, nil // larger than augur's object size limit: allocation fails like out of memory
	}
	if err := m.allocBudget(n); err != nil {
		return 0, err
	}
	o := m.mem.alloc(ObjHeap, n, "", site, t.ID)
	return ir.Addr(o.ID, 0), nil
}

// mallocTo allocates n bytes and sets the call's result to the pointer.
func (m *Machine) mallocTo(t *Thread, n uint64, site ir.LocID, res []Value) error {
	p, err := m.malloc(t, n, site)
	setRes(res, p)
	return err
}

// free releases the heap object at p.
func (m *Machine) free(t *Thread, p uint64, site ir.LocID, what string) error {
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
	o = m.mem.writable(o)
	o.Freed = true
	o.FreeSite = site
	o.bytes = nil
	o.sym = nil
	o.setLimits()
	m.mem.retire(o)
	return nil
}

func init() {
	mallocFn := func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.mallocTo(t, a[0].Bits, in.Loc, res)
	}
	// The aligned operator new variants take the size first as well; every
	// object is aligned enough.
	register(mallocFn, "malloc", "valloc", "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t",
		"_ZnwmSt11align_val_t", "_ZnamSt11align_val_t")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.mallocTo(t, a[1].Bits, in.Loc, res)
	}, "aligned_alloc", "memalign")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		n, sz := a[0].Bits, a[1].Bits
		if sz != 0 && n > (1<<62)/sz {
			setRes(res, 0)
			return nil
		}
		return m.mallocTo(t, n*sz, in.Loc, res) // new objects are zeroed
	}, "calloc")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		p, err := m.malloc(t, a[2].Bits, in.Loc)
		if err != nil {
			return err
		}
		setRes(res, 0)
		return m.writeUint(a[0].Bits, 8, p)
	}, "posix_memalign")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		p, n := a[0].Bits, a[1].Bits
		if p == 0 {
			return m.mallocTo(t, n, in.Loc, res)
		}
		o := m.mem.Object(uint32(p >> ir.AddrShift))
		if o == nil || o.Kind != ObjHeap || o.Freed || p&(1<<ir.AddrShift-1) != 0 {
			return m.free(t, p, in.Loc, "realloc")
		}
		if n == 0 {
			setRes(res, 0)
			return m.free(t, p, in.Loc, "realloc")
		}
		q, err := m.malloc(t, n, in.Loc)
		if err != nil {
			return err
		}
		if err := m.copyMem(q, p, min(n, o.Size)); err != nil {
			return err
		}
		setRes(res, q)
		return m.free(t, p, in.Loc, "realloc")
	}, "realloc")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.free(t, a[0].Bits, in.Loc, "free")
	}, "free")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.free(t, a[0].Bits, in.Loc, "operator delete")
	}, "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t",
		"_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		o := m.mem.Object(uint32(a[0].Bits >> ir.AddrShift))
		if o == nil || o.Kind != ObjHeap || o.Freed {
			setRes(res, 0)
			return nil
		}
		setRes(res, o.Size)
		return nil
	}, "malloc_usable_size")
}
