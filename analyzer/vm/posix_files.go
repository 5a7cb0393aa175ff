package vm

import (
	"augur/analyzer/ir"
)

// File descriptors of the virtual file system: open, creat, lseek, stat,
// access, unlink, rename, dup, fcntl and fdopen over the same files fopen
// sees. Writes always append to a file (lseek moves the read position
// only); there are no directories beyond the file names themselves.

// open(2) flags on Linux x86-64.
const (
	oAccMode = 3
	oWronly  = 1
	oRdwr    = 2
	oCreat   = 0x40
	oExcl    = 0x80
	oTrunc   = 0x200
	oAppend  = 0x400
)

// openFile opens path with open(2) flags and returns the new descriptor,
// or -1 with errno set.
func (m *Machine) openFile(t *Thread, path string, flags uint64) (int, error) {
	data, exists := m.files.fs[path]
	switch {
	case !exists && flags&oCreat == 0:
		return -1, m.setErrno(t, ENOENT)
	case exists && flags&oCreat != 0 && flags&oExcl != 0:
		return -1, m.setErrno(t, EEXIST)
	}
	f := &vfile{fd: m.files.nextFD, path: path, mode: unbuffered}
	acc := flags & oAccMode
	f.read = acc != oWronly
	f.write = acc == oWronly || acc == oRdwr
	f.appends = flags&oAppend != 0
	if !exists || (flags&oTrunc != 0 && f.write) {
		m.files.fs[path] = nil
		delete(m.files.fsSym, path)
		data = nil
	}
	f.data, f.sym = data, m.files.fsSym[path]
	m.files.nextFD++
	f.proc = m.procOf()
	m.files.byFD[f.fd] = f
	return f.fd, nil
}

// statInto fills a struct stat for a file of size bytes (a regular file,
// mode 0644, or a character device for the standard streams).
func (m *Machine) statInto(buf uint64, size int, device bool) error {
	if err := m.setMem(buf, 0, 144); err != nil {
		return err
	}
	mode := uint64(0o100644)
	if device {
		mode = 0o020620
	}
	for _, w := range []struct {
		off, size int
		v         uint64
	}{{16, 8, 1}, {24, 4, mode}, {28, 4, 1000}, {32, 4, 1000}, {48, 8, uint64(size)}, {56, 8, 4096},
		{64, 8, uint64((size + 511) / 512)}} {
		if err := m.writeUint(buf+uint64(w.off), w.size, w.v); err != nil {
			return err
		}
	}
	return nil
}

// fileSize is the size of the file at path as a stat sees it, with what
// open streams still buffer for it.
func (m *Machine) fileSize(path string) int {
	size := len(m.files.fs[path])
	n := size
	for _, f := range m.files.byFD {
		if f.path != path || len(f.pending) == 0 {
			continue
		}
		if f.appends {
			n += len(f.pending)
		} else {
			n = max(n, f.pos+len(f.pending))
		}
	}
	return n
}

func fail(m *Machine, t *Thread, res []Value, errno int) error {
	setRes(res, ir.Mask(64))
	return m.setErrno(t, errno)
}

func init() {
	// open(path, flags), openat(dir, path, flags), creat(path): the path
	// and the flags come from different arguments.
	opener := func(pathArg int, flags func(a []Value) uint64) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			path, err := m.cstring(a[pathArg].Bits)
			if err != nil {
				return err
			}
			fd, err := m.openFile(t, path, flags(a))
			setRes(res, uint64(int64(fd)))
			return err
		}
	}
	register(opener(0, func(a []Value) uint64 { return a[1].Bits }), "open", "open64", "__open_2", "__open64_2")
	register(opener(1, func(a []Value) uint64 { return a[2].Bits }), "openat", "openat64")
	register(opener(0, func([]Value) uint64 { return oWronly | oCreat | oTrunc }), "creat", "creat64")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil {
			return fail(m, t, res, EBADF)
		}
		if f.fd <= 2 {
			return fail(m, t, res, ESPIPE)
		}
		size := m.fileSize(f.path)
		var base int64
		switch a[2].Bits & 0xffffffff {
		case 0: // SEEK_SET
		case 1:
			base = int64(f.pos)
		case 2:
			base = int64(size)
		default:
			return fail(m, t, res, EINVAL)
		}
		pos := base + int64(a[1].Bits)
		if pos < 0 {
			return fail(m, t, res, EINVAL)
		}
		f.data, f.pos, f.eof, f.unget = m.files.fs[f.path], int(pos), false, 0
		setRes(res, uint64(pos))
		return nil
	}, "lseek", "lseek64")
	statPath := func(pathArg, bufArg int) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			path, err := m.cstring(a[pathArg].Bits)
			if err != nil {
				return err
			}
			if _, ok := m.files.fs[path]; !ok {
				return fail(m, t, res, ENOENT)
			}
			setRes(res, 0)
			return m.statInto(a[bufArg].Bits, m.fileSize(path), false)
		}
	}
	register(statPath(0, 1), "stat", "stat64", "lstat", "lstat64")
	register(statPath(1, 2), "__xstat", "__xstat64", "__lxstat", "__lxstat64")
	fstat := func(fdArg, bufArg int) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			f := m.files.byFD[int(int32(a[fdArg].Bits))]
			if f == nil {
				return fail(m, t, res, EBADF)
			}
			setRes(res, 0)
			if f.fd <= 2 {
				return m.statInto(a[bufArg].Bits, 0, true)
			}
			return m.statInto(a[bufArg].Bits, m.fileSize(f.path), false)
		}
	}
	register(fstat(0, 1), "fstat", "fstat64")
	register(fstat(1, 2), "__fxstat", "__fxstat64")
	// onFile runs do on the existing file named by argument 0; a missing
	// one is ENOENT.
	onFile := func(do func(m *Machine, path string)) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			path, err := m.cstring(a[0].Bits)
			if err != nil {
				return err
			}
			if _, ok := m.files.fs[path]; !ok {
				return fail(m, t, res, ENOENT)
			}
			do(m, path)
			setRes(res, 0)
			return nil
		}
	}
	register(onFile(func(*Machine, string) {}), "access", "euidaccess", "eaccess")
	register(onFile(func(m *Machine, path string) {
		delete(m.files.fs, path)
		delete(m.files.fsSym, path)
	}), "unlink", "remove")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		from, err := m.cstring(a[0].Bits)
		if err != nil {
			return err
		}
		to, err := m.cstring(a[1].Bits)
		if err != nil {
			return err
		}
		data, ok := m.files.fs[from]
		if !ok {
			return fail(m, t, res, ENOENT)
		}
		delete(m.files.fs, from)
		m.files.fs[to] = data
		if s, ok := m.files.fsSym[from]; ok {
			delete(m.files.fsSym, from)
			m.files.fsSym[to] = s
		}
		setRes(res, 0)
		return nil
	}, "rename")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil || !f.write {
			return fail(m, t, res, EBADF)
		}
		n := int(a[1].Bits)
		if n < 0 {
			return fail(m, t, res, EINVAL)
		}
		m.files.flush(f)
		data := m.files.fs[f.path]
		if n <= len(data) {
			data = data[:n:n]
		} else {
			data = append(data, make([]byte, n-len(data))...)
		}
		m.files.fs[f.path] = data
		setRes(res, 0)
		return nil
	}, "ftruncate", "ftruncate64")
	dup := func(m *Machine, t *Thread, res []Value, old, to int) error {
		f := m.files.byFD[old]
		if f == nil {
			return fail(m, t, res, EBADF)
		}
		if to < 0 {
			to = m.files.nextFD
			m.files.nextFD++
		} else if to == old {
			setRes(res, uint64(to))
			return nil
		}
		if old := m.files.byFD[to]; old != nil && old.isNet() {
			m.closeNet(old) // dup2 closes what the target held
		}
		c := *f
		c.fd, c.pending, c.proc = to, nil, m.procOf()
		m.files.byFD[to] = &c
		if f.isNet() {
			m.holdEnds(f)
		}
		setRes(res, uint64(to))
		return nil
	}
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return dup(m, t, res, int(int32(a[0].Bits)), -1)
	}, "dup")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return dup(m, t, res, int(int32(a[0].Bits)), int(int32(a[1].Bits)))
	}, "dup2", "dup3")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fd := int(int32(a[0].Bits))
		f := m.files.byFD[fd]
		if f == nil {
			return fail(m, t, res, EBADF)
		}
		switch a[1].Bits & 0xffffffff {
		case 0, 1030: // F_DUPFD, F_DUPFD_CLOEXEC
			return dup(m, t, res, fd, -1)
		case 3: // F_GETFL
			fl := uint64(0)
			switch {
			case f.read && f.write:
				fl = oRdwr
			case f.write:
				fl = oWronly
			}
			if f.nonblock {
				fl |= oNonblock
			}
			setRes(res, fl)
		case 4: // F_SETFL: of the status flags, only O_NONBLOCK means anything here
			f.nonblock = a[2].Bits&oNonblock != 0
			setRes(res, 0)
		default: // F_SETFL, F_GETFD, F_SETFD, locks: accepted, nothing changes
			setRes(res, 0)
		}
		return nil
	}, "fcntl", "fcntl64")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil {
			setRes(res, 0)
			return m.setErrno(t, EBADF)
		}
		if f.isNet() {
			return unsupported("fdopen of a pipe or a socket (stdio over them is not modeled; read and write are)")
		}
		o := m.mem.alloc(ObjHeap, 216, "FILE "+f.path, in.Loc, t.ID)
		addr := ir.Addr(o.ID, 0)
		m.files.byAddr[addr] = f
		f.mode = fullyBuffered
		if f.fd <= 2 {
			f.mode = m.files.byFD[f.fd].mode
		}
		setRes(res, addr)
		return nil
	}, "fdopen")
}
