package libc

import (
	"slices"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Memory streams: fmemopen, a stream over a buffer of the program's, and
// open_memstream, a stream that writes into a buffer it allocates and
// publishes through two of the program's variables. Both are ordinary
// vfiles without a descriptor (fileno gives EBADF) whose contents are
// f.data, at f.pos, as a file's are; what the program sees of them is
// published into its memory when the stream is flushed (fflush, fclose,
// fseek, rewind), as POSIX specifies: writes reach the buffer then, and
// the race detector sees them there, at the flushing call.
//
// An fmemopen stream reads the buffer as it was at fmemopen: a write the
// program makes to the buffer directly afterwards is not seen by the
// stream's reads (glibc reads the buffer itself).

// memStream is where a memory stream's contents go.
type memStream struct {
	// buf and size are fmemopen's buffer (0 when the stream has one of
	// its own, unseen by the program) and its size: writes past it are
	// dropped.
	buf, size uint64
	// ptrLoc and sizeLoc are open_memstream's variables; alloc is the
	// buffer last published in them (0: none yet), site the call that
	// opened the stream, which allocates it.
	ptrLoc, sizeLoc, alloc uint64
	site                   ir.LocID
	// dirty: written since the contents were last published.
	dirty bool
}

// writeMem writes b into memory stream f at its position (at the end of
// its contents for an fmemopen "a" stream), within an fmemopen buffer's
// size: what does not fit is dropped.
func (f *vfile) writeMem(b []byte) {
	ms := f.mem
	if f.data == nil {
		f.data = &contents{}
	}
	if f.appends {
		f.pos = f.data.len()
	}
	end := f.pos + len(b)
	if ms.ptrLoc == 0 && uint64(end) > ms.size {
		end = max(int(ms.size), f.pos)
		b = b[:end-f.pos]
	}
	f.data.writeAt(f.pos, b)
	f.pos = end
	if ms.ptrLoc == 0 && uint64(end) == ms.size && !f.appends {
		// A full buffer keeps its last byte for the NUL, as glibc's
		// fmemopen writes it.
		f.data.writeAt(end-1, []byte{0})
	}
	ms.dirty = true
}

// publishMem flushes memory stream f and writes what it holds where the
// program sees it: into fmemopen's buffer, with a NUL after the contents
// when there is room; into a newly allocated buffer for open_memstream,
// NUL-terminated, whose address and the stream's position go to its two
// variables (the buffer published before is freed, as glibc's realloc
// would move it).
func (m *machine) publishMem(t *vm.Thread, f *vfile) error {
	m.files.flush(t, f)
	ms := f.mem
	if ms == nil || !ms.dirty {
		return nil
	}
	ms.dirty = false
	if ms.ptrLoc == 0 {
		if ms.buf == 0 {
			return nil
		}
		out := f.data.bytes()
		if uint64(len(out)) < ms.size {
			out = append(out, 0)
		}
		if err := m.WriteBytes(ms.buf, out); err != nil {
			return err
		}
		m.NoteAccess(ms.buf, uint64(len(out)), vm.Write)
		return nil
	}
	p, err := m.Malloc(t, uint64(f.data.len())+1, ms.site, "open_memstream buffer")
	if err != nil {
		return err
	}
	if p == 0 {
		return vm.Unsupported("open_memstream: a buffer of %d bytes is past augur's object limit", f.data.len()+1)
	}
	if err := m.WriteBytes(p, append(f.data.bytes(), 0)); err != nil {
		return err
	}
	if ms.alloc != 0 {
		if err := m.Free(t, ms.alloc, ms.site, "open_memstream"); err != nil {
			return err
		}
	}
	ms.alloc = p
	if err := m.WriteUint(ms.ptrLoc, 8, p); err != nil {
		return err
	}
	return m.WriteUint(ms.sizeLoc, 8, uint64(f.pos))
}

// publishAll publishes every memory stream written since its last
// publication (fflush(NULL)).
func (m *machine) publishAll(t *vm.Thread) error {
	for _, p := range m.files.memStreams() {
		if err := m.publishMem(t, m.files.byAddr[p]); err != nil {
			return err
		}
	}
	return nil
}

// openMem registers memory stream f under a new FILE object.
func (m *machine) openMem(t *vm.Thread, in *ir.Inst, f *vfile, name string) uint64 {
	f.fd, f.proc, f.mode = -1, m.Proc(), fullyBuffered
	addr := m.Alloc(vm.ObjHeap, 216, "FILE "+name, in.Loc, t, nil)
	m.files.byAddr[addr] = f
	return addr
}

func (tab table) addMemStreams() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		buf, size := a[0].Bits, a[1].Bits
		mode, err := m.CString(a[2].Bits)
		if err != nil {
			return err
		}
		vm.SetResult(res, 0)
		if size == 0 || size > 1<<30 {
			return m.SetErrno(t, vm.EINVAL)
		}
		f := &vfile{mem: &memStream{buf: buf, size: size}, openDesc: m.files.newDesc(false)}
		f.read, f.write = strings.Contains(mode, "+"), strings.Contains(mode, "+")
		var initial []byte
		if buf != 0 && !strings.HasPrefix(mode, "w") {
			if initial, err = m.ReadBytes(buf, size); err != nil {
				return err
			}
			initial = slices.Clone(initial) // the buffer as it is now, not the program's memory itself
			m.NoteAccess(buf, size, vm.Read)
		}
		switch {
		case strings.HasPrefix(mode, "r"):
			f.read, f.data = true, newContents(initial)
		case strings.HasPrefix(mode, "w"):
			f.write = true
			if buf != 0 && f.read { // "w+" empties the buffer, as POSIX says
				if err := m.WriteBytes(buf, []byte{0}); err != nil {
					return err
				}
				m.NoteAccess(buf, 1, vm.Write)
			}
		case strings.HasPrefix(mode, "a"):
			f.write, f.appends = true, true
			n := 0
			for n < len(initial) && initial[n] != 0 {
				n++
			}
			f.data, f.pos = newContents(initial[:n]), n
		default:
			return m.SetErrno(t, vm.EINVAL)
		}
		vm.SetResult(res, m.openMem(t, in, f, "fmemopen"))
		return nil
	}, "fmemopen")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := &vfile{write: true, mem: &memStream{ptrLoc: a[0].Bits, sizeLoc: a[1].Bits, site: in.Loc, dirty: true}, openDesc: m.files.newDesc(false)}
		// The variables are first written at the first flush, as glibc
		// writes them; the close of a stream never written publishes an
		// empty buffer.
		vm.SetResult(res, m.openMem(t, in, f, "open_memstream"))
		return nil
	}, "open_memstream")
}

// memStreams are the FILE addresses of the open memory streams, in order.
func (ft *fileTable) memStreams() []uint64 {
	var out []uint64
	for p, f := range ft.byAddr {
		if f.mem != nil {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
