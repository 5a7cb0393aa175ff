package vm

import "augur/analyzer/ir"

// Anonymous memory mappings are heap objects: mmap with MAP_ANONYMOUS
// returns fresh zeroed memory, munmap of a whole mapping frees it. File
// mappings are refused with ENODEV (the virtual files are not mappable);
// mprotect and madvise change nothing augur checks.

const (
	mapAnonymous = 0x20
	mapFailed    = ^uint64(0) // (void *)-1
	enodev       = 19
)

func init() {
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		size, flags := a[1].Bits, a[3].Bits
		if flags&mapAnonymous == 0 {
			setRes(res, mapFailed)
			return m.setErrno(t, enodev)
		}
		if size == 0 || size > 1<<31 {
			setRes(res, mapFailed)
			return m.setErrno(t, EINVAL)
		}
		size = (size + 4095) &^ 4095
		p, err := m.malloc(t, size, in.Loc)
		if err != nil {
			return err
		}
		if p == 0 {
			setRes(res, mapFailed)
			return m.setErrno(t, ENOMEM)
		}
		o := m.mem.Object(uint32(p >> ir.AddrShift))
		o.Name = "mmap region"
		setRes(res, p)
		return nil
	}, "mmap", "mmap64")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		o := m.mem.Object(uint32(a[0].Bits >> ir.AddrShift))
		if o == nil || o.Name != "mmap region" || a[0].Bits&(1<<ir.AddrShift-1) != 0 {
			setRes(res, ir.Mask(32))
			return m.setErrno(t, EINVAL)
		}
		setRes(res, 0)
		return m.free(t, a[0].Bits, in.Loc, "munmap")
	}, "munmap")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, 0)
		return nil
	}, "mprotect", "madvise", "posix_madvise", "mlock", "munlock")
}
