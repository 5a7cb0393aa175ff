package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// The heap: malloc and its kin, operator new and delete. Every allocation
// is a heap object of its own (vm.Machine.Malloc), so a use after free or
// an overflow is reported at the access.

// mallocTo allocates n bytes and sets the call's result to the pointer.
func mallocTo(m Machine, t *vm.Thread, n uint64, site ir.LocID, res []vm.Value) error {
	p, err := m.Malloc(t, n, site, "")
	vm.SetResult(res, p)
	return err
}

func (tab table) addHeap() {
	mallocFn := func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return mallocTo(m, t, a[0].Bits, in.Loc, res)
	}
	// The aligned operator new variants take the size first as well; every
	// object is aligned enough. The allocator's models are local
	// (vm.Model.Local): what they read and write of the program's memory
	// goes through the monitor (CopyMem, Free), and the addresses they
	// return are names, which follow the order of allocation across
	// threads only in their ids (docs/detection.md says what that leaves
	// out).
	tab.register(mallocFn, "malloc", "valloc", "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t",
		"_ZnwmSt11align_val_t", "_ZnamSt11align_val_t").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return mallocTo(m, t, a[1].Bits, in.Loc, res)
	}, "aligned_alloc", "memalign").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		n, sz := a[0].Bits, a[1].Bits
		if sz != 0 && n > (1<<62)/sz {
			vm.SetResult(res, 0)
			return nil
		}
		return mallocTo(m, t, n*sz, in.Loc, res) // new objects are zeroed
	}, "calloc").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		p, err := m.Malloc(t, a[2].Bits, in.Loc, "")
		if err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return m.WriteUint(a[0].Bits, 8, p)
	}, "posix_memalign").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		p, n := a[0].Bits, a[1].Bits
		if p == 0 {
			return mallocTo(m, t, n, in.Loc, res)
		}
		b, ok := m.HeapBlockAt(p)
		if !ok || b.Offset != 0 {
			return m.Free(t, p, in.Loc, "realloc") // reports the bad pointer
		}
		if n == 0 {
			vm.SetResult(res, 0)
			return m.Free(t, p, in.Loc, "realloc")
		}
		q, err := m.Malloc(t, n, in.Loc, "")
		if err != nil {
			return err
		}
		if err := m.CopyMem(q, p, min(n, b.Size)); err != nil {
			return err
		}
		vm.SetResult(res, q)
		return m.Free(t, p, in.Loc, "realloc")
	}, "realloc").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return m.Free(t, a[0].Bits, in.Loc, "free")
	}, "free").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return m.Free(t, a[0].Bits, in.Loc, "operator delete")
	}, "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t",
		"_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t").Local()
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		b, _ := m.HeapBlockAt(a[0].Bits)
		vm.SetResult(res, b.Size) // 0 for no live heap object
		return nil
	}, "malloc_usable_size").Local()
}
