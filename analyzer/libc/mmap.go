package libc

import (
	"augur/analyzer/ir"
	"augur/analyzer/vm"
)

// Anonymous memory mappings are heap objects: mmap with MAP_ANONYMOUS
// returns fresh zeroed memory, munmap of a whole mapping frees it. File
// mappings are refused with ENODEV (the virtual files are not mappable);
// mprotect and madvise change nothing augur checks.

const (
	mapAnonymous = 0x20
	mapFailed    = ^uint64(0) // (void *)-1
	enodev       = 19
	mmapRegion   = "mmap region" // the name of a mapping's heap object
)

func init() {
	register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		size, flags := a[1].Bits, a[3].Bits
		if flags&mapAnonymous == 0 {
			vm.SetResult(res, mapFailed)
			return m.SetErrno(t, enodev)
		}
		if size == 0 || size > 1<<31 {
			vm.SetResult(res, mapFailed)
			return m.SetErrno(t, vm.EINVAL)
		}
		size = (size + 4095) &^ 4095
		p, err := m.Malloc(t, size, in.Loc, mmapRegion)
		if err != nil {
			return err
		}
		if p == 0 {
			vm.SetResult(res, mapFailed)
			return m.SetErrno(t, vm.ENOMEM)
		}
		vm.SetResult(res, p)
		return nil
	}, "mmap", "mmap64")
	register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if b, ok := m.HeapBlockAt(a[0].Bits); !ok || b.Name != mmapRegion || b.Offset != 0 {
			vm.SetResult(res, ir.Mask(32))
			return m.SetErrno(t, vm.EINVAL)
		}
		vm.SetResult(res, 0)
		return m.Free(t, a[0].Bits, in.Loc, "munmap")
	}, "munmap")
	register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return nil
	}, "mprotect", "madvise", "posix_madvise", "mlock", "munlock")
}
