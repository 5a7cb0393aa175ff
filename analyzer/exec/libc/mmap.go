package libc

import (
	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Memory mappings are heap objects. mmap with MAP_ANONYMOUS returns fresh
// zeroed memory; a mapping of a file of the virtual file system holds a
// copy of the file's bytes from the offset (zeros past its end), which a
// MAP_SHARED mapping open for writing writes back into the file at msync
// and munmap. munmap of a whole mapping frees it; mremap moves it when it
// grows; mprotect and madvise change nothing augur checks.
//
// Not modeled: two shared mappings of one file are two copies (each sees
// its own writes only until it is written back), a read() of a file does
// not see a shared mapping's writes before they are written back, and a
// process's exit does not write its mappings back.

const (
	mapShared    = 0x01
	mapAnonymous = 0x20
	protWrite    = 0x2
	mapFailed    = ^uint64(0) // (void *)-1
	enodev       = 19
	eacces       = 13
	pageSize     = 4096
	mmapRegion   = "mmap region" // the name of a mapping's heap object
)

// mapping is a file mapping that writes back: its file, the offset it
// maps from and its length.
type mapping struct {
	path     string
	off, len uint64
}

func (tab table) addMmap() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		size, prot, flags, fd, off := a[1].Bits, a[2].Bits, a[3].Bits, int(int32(a[4].Bits)), a[5].Bits
		vm.SetResult(res, mapFailed)
		if size == 0 || size > 1<<31 || off%pageSize != 0 {
			return m.SetErrno(t, vm.EINVAL)
		}
		var f *vfile
		if flags&mapAnonymous == 0 {
			f = m.files.byFD[fd]
			switch {
			case f == nil:
				return m.SetErrno(t, vm.EBADF)
			case f.path == "" || f.dir:
				return m.SetErrno(t, enodev) // a pipe, a socket, a standard stream, a directory
			case !f.read || flags&mapShared != 0 && prot&protWrite != 0 && !f.write:
				return m.SetErrno(t, eacces)
			}
		}
		p, err := m.Malloc(t, (size+pageSize-1)&^(pageSize-1), in.Loc, mmapRegion)
		if err != nil {
			return err
		}
		if p == 0 {
			return m.SetErrno(t, vm.ENOMEM)
		}
		if f != nil {
			if err := m.mapFile(p, f.path, off, size); err != nil {
				return err
			}
			if flags&mapShared != 0 && prot&protWrite != 0 {
				if m.files.mappings == nil {
					m.files.mappings = map[uint64]mapping{}
				}
				m.files.mappings[p] = mapping{path: f.path, off: off, len: size}
			}
		}
		vm.SetResult(res, p)
		return nil
	}, "mmap", "mmap64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if b, ok := m.HeapBlockAt(a[0].Bits); !ok || b.Name != mmapRegion || b.Offset != 0 {
			return fail(m, t, res, vm.EINVAL)
		}
		if err := m.writeBack(a[0].Bits); err != nil {
			return err
		}
		mp, shared := m.files.mappings[a[0].Bits]
		delete(m.files.mappings, a[0].Bits)
		if shared {
			m.files.released(mp.path)
		}
		vm.SetResult(res, 0)
		return m.Free(t, a[0].Bits, in.Loc, "munmap")
	}, "munmap")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		b, ok := m.HeapBlockAt(a[0].Bits)
		if !ok || b.Name != mmapRegion || a[0].Bits%pageSize != 0 {
			return fail(m, t, res, vm.ENOMEM)
		}
		vm.SetResult(res, 0)
		return m.writeBack(a[0].Bits - b.Offset)
	}, "msync")
	tab.registerIO(mremap, "mremap")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		return nil
	}, "mprotect", "madvise", "posix_madvise", "mlock", "munlock")
}

// mremap resizes a whole mapping: one that shrinks or stays within its
// pages stays where it is (its object keeps its size, so the pages it
// gives up still read, where natively they would fault); one that grows
// moves, with MREMAP_MAYMOVE, to a new object that has its bytes (the
// kernel's copy, not the program's accesses; a shared file mapping
// writes back from there), and fails with ENOMEM without it, as it does
// natively when the pages after it are taken.
func mremap(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	const mayMove, fixed = 1, 2
	old, newSize, flags := a[0].Bits, a[2].Bits, a[3].Bits
	b, ok := m.HeapBlockAt(old)
	switch {
	case !ok || b.Name != mmapRegion || b.Offset != 0 || newSize == 0 || flags&^(mayMove|fixed) != 0 || flags&fixed != 0:
		return fail(m, t, res, vm.EINVAL) // MREMAP_FIXED is not modeled
	case (newSize+pageSize-1)&^(pageSize-1) <= b.Size:
		vm.SetResult(res, old)
		return nil
	case flags&mayMove == 0:
		return fail(m, t, res, vm.ENOMEM)
	}
	p, err := m.Malloc(t, (newSize+pageSize-1)&^(pageSize-1), in.Loc, mmapRegion)
	if err != nil {
		return err
	}
	if p == 0 {
		return fail(m, t, res, vm.ENOMEM)
	}
	if err := m.CopyMem(p, old, b.Size); err != nil {
		return err
	}
	if mp, shared := m.files.mappings[old]; shared {
		delete(m.files.mappings, old)
		mp.len = newSize
		m.files.mappings[p] = mp
	}
	vm.SetResult(res, p)
	return m.Free(t, old, in.Loc, "mremap")
}

// mapFile fills the mapping at p with size bytes of the file at path from
// offset off, their terms with them when the file's bytes are symbolic.
// The copy is the kernel's, not an access of the program.
func (m *machine) mapFile(p uint64, path string, off, size uint64) error {
	data := m.files.fs[path]
	var b []byte
	if n := uint64(data.len()); off < n {
		b = data.slice(int(off), int(min(n, off+size)))
	}
	if len(b) == 0 {
		return nil
	}
	if err := m.WriteBytes(p, b); err != nil {
		return err
	}
	if sym := m.files.fsSym[path]; off < uint64(len(sym)) {
		terms := make([]*expr.Expr, len(b))
		copy(terms, sym[off:])
		return m.SetSymBytes(p, b, terms)
	}
	return nil
}

// writeBack writes the shared mapping at p (if it is one) back into its
// file, within the file's size: a write past its end is not kept.
func (m *machine) writeBack(p uint64) error {
	mp, ok := m.files.mappings[p]
	if !ok {
		return nil
	}
	size := uint64(m.files.fs[mp.path].len())
	if mp.off >= size {
		return nil
	}
	if err := m.ConcreteBytes(p, min(mp.len, size-mp.off)); err != nil {
		return err
	}
	b, err := m.ReadBytes(p, min(mp.len, size-mp.off))
	if err != nil {
		return err
	}
	m.files.store(mp.path, int(mp.off), b)
	return nil
}
