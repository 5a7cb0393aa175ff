package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// File descriptors of the virtual file system: open, creat, lseek, stat,
// access, unlink, rename, mkdir, rmdir, dup, fcntl and fdopen over the
// same files fopen sees. A write goes at the descriptor's offset (at the
// end under O_APPEND). Names are kept as vfs_names.go says: directories
// where files are, an inode number per file, and a second name of a file
// where the program made a hard link (vfs_links.go).

// open(2) flags on Linux x86-64.
const (
	oAccMode = 3
	oWronly  = 1
	oRdwr    = 2
	oCreat   = 0x40
	oExcl    = 0x80
	oTrunc   = 0x200
	oAppend  = 0x400
	// oDirectory is O_DIRECTORY: fail unless the name is a directory.
	oDirectory = 0x10000
	// oCloexec is O_CLOEXEC, and SOCK_CLOEXEC, EFD_CLOEXEC and
	// EPOLL_CLOEXEC too, which Linux gives the same value.
	oCloexec = 0o2000000
	// fdCloexec is FD_CLOEXEC, fcntl's descriptor flag.
	fdCloexec = 1
	// atFDCWD is AT_FDCWD: openat's relative names are in the working
	// directory.
	atFDCWD = -100
)

// openFile opens path (a vpath) with open(2) flags and returns the new
// descriptor, or -1 with errno set; a file it creates gets mode under the
// umask. A directory opens for reading only, as programs open one to
// fsync or fstat it.
func (m *machine) openFile(t *vm.Thread, path string, flags, mode uint64) (int, error) {
	if _, fifo := m.files.fifos[path]; fifo {
		if flags&oCreat != 0 && flags&oExcl != 0 {
			return -1, m.SetErrno(t, vm.EEXIST)
		}
		return m.openFifo(t, path, flags)
	}
	data, exists := m.files.fs[path]
	dir := !exists && m.files.isDir(path)
	switch {
	case dir && (flags&oAccMode != 0 || flags&oCreat != 0):
		return -1, m.SetErrno(t, vm.EISDIR)
	case flags&oDirectory != 0 && !dir:
		if exists {
			return -1, m.SetErrno(t, vm.ENOTDIR)
		}
		return -1, m.SetErrno(t, m.files.absentErrno(path))
	case !exists && !dir && (flags&oCreat == 0 || !m.files.isDir(pathDir(path))):
		return -1, m.SetErrno(t, m.files.absentErrno(path)) // no such file, or no directory to make it in
	case exists && flags&oCreat != 0 && flags&oExcl != 0:
		return -1, m.SetErrno(t, vm.EEXIST)
	}
	f := &vfile{fd: m.files.freeFD(0), path: path, mode: unbuffered, dir: dir,
		openDesc: m.files.newDesc(false)}
	acc := flags & oAccMode
	f.read = acc != oWronly && !dir
	f.write = acc == oWronly || acc == oRdwr
	f.appends = flags&oAppend != 0
	f.cloexec = flags&oCloexec != 0
	f.dev = devices[path]
	if !exists && !dir {
		m.files.created(path, mode)
	}
	if !dir && (!exists || (flags&oTrunc != 0 && f.write)) {
		data = m.files.truncateName(path)
	}
	f.data, f.sym = data, m.files.fsSym[path]
	f.proc = m.Proc()
	m.files.byFD[f.fd] = f
	return f.fd, nil
}

// fileKind is what a struct stat describes.
type fileKind uint8

const (
	regularFile fileKind = iota
	directory
	charDevice // the standard streams
	fifoNode
	symlinkNode
)

// statInto fills a struct stat for a file of size bytes with inode number
// ino, link count nlink and permission bits perm: a regular file, a directory, a character
// device, a FIFO or a symbolic link.
func (m *machine) statInto(buf uint64, size int, kind fileKind, ino, nlink uint64, perm uint32) error {
	if err := m.SetMem(buf, 0, 144); err != nil {
		return err
	}
	mode := [...]uint64{regularFile: 0o100000, directory: 0o040000, charDevice: 0o020000, fifoNode: 0o010000,
		symlinkNode: 0o120000}[kind] | uint64(perm)
	if kind == directory {
		size = 4096
	}
	return m.writeFields(buf, field{0, 8, 0x803}, field{8, 8, ino}, field{16, 8, nlink}, field{24, 4, mode},
		field{28, 4, 1000}, field{32, 4, 1000}, field{48, 8, uint64(size)}, field{56, 8, 4096},
		field{64, 8, uint64((size + 511) / 512)})
}

// field is an integer field of a C struct the models fill: its offset,
// its size in bytes and its value.
type field struct {
	off, size int
	v         uint64
}

// writeFields writes fields of the struct at base as program data.
func (m *machine) writeFields(base uint64, fields ...field) error {
	for _, f := range fields {
		if err := m.WriteUint(base+uint64(f.off), f.size, f.v); err != nil {
			return err
		}
	}
	return nil
}

// fileSize is the size of the file at path as a stat sees it, with what
// open streams still buffer for it.
func (m *machine) fileSize(path string) int {
	size := m.files.fs[path].len()
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

// wouldBlock ends a nonblocking call (a read, write, recv, send, accept)
// that would have to wait: -1 with EAGAIN, and a preemption point as a
// failed try is (TryFailed), every other failure in a row. It was none,
// and a thread polling a nonblocking pipe or socket for what another
// thread is to write held the processor for a whole time slice per
// hand-over: two threads echoing 2,000 bytes that way ran out of the
// instruction budget, a hang reported on correct code
// (testdata/sched/nonblocking_turns.c).
func (m *machine) wouldBlock(t *vm.Thread, res []vm.Value) error {
	if err := fail(m, t, res, vm.EAGAIN); err != nil {
		return err
	}
	return m.TryFailed(t)
}

func (tab table) addPosixFiles() {
	// open(path, flags, mode), openat(dir, path, flags, mode),
	// creat(path, mode): the path, the flags and the mode come from
	// different arguments (creat's flags are fixed: flagsArg -1).
	opener := func(pathArg, flagsArg int) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			if a[pathArg].Bits == 0 {
				return fail(m, t, res, vm.EFAULT) // the kernel reads the name (kernelPath)
			}
			name, err := m.CString(a[pathArg].Bits)
			if err != nil {
				return err
			}
			dir := m.files.cwd
			if pathArg == 1 && name != "" && name[0] != '/' && int32(a[0].Bits) != atFDCWD {
				// openat: a relative name is in the directory open as a[0].
				d, errno := m.files.dirAt(int(int32(a[0].Bits)))
				if d == nil {
					return fail(m, t, res, errno)
				}
				dir = d.path
			}
			flags, mode := uint64(oWronly|oCreat|oTrunc), modeArg(a, pathArg+1)
			if flagsArg >= 0 {
				flags, mode = a[flagsArg].Bits, modeArg(a, flagsArg+1)
			}
			// The name with its last link unfollowed is the name
			// followed, unless that last name is a link.
			path := m.files.lookup(dir, name, false)
			if m.files.isLink(path) {
				switch {
				case flags&oNofollow != 0:
					return fail(m, t, res, eLoop)
				case flags&oCreat != 0 && flags&oExcl != 0:
					return fail(m, t, res, vm.EEXIST) // even a link to nothing
				}
				path = m.files.lookup(dir, name, true)
			}
			fd, err := m.openFile(t, path, flags, mode)
			if fd < 0 && flags&oCreat == 0 {
				m.files.noteMissing(path, m.ProgramLoc(t, in.Loc))
			}
			vm.SetResult(res, uint64(int64(fd)))
			return err
		}
	}
	tab.registerIO(opener(0, 1), "open", "open64", "__open_2", "__open64_2")
	tab.registerIO(opener(1, 2), "openat", "openat64")
	tab.registerIO(opener(0, -1), "creat", "creat64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil {
			return fail(m, t, res, vm.EBADF)
		}
		if f.std() {
			return fail(m, t, res, vm.ESPIPE)
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
			return fail(m, t, res, vm.EINVAL)
		}
		pos := base + int64(a[1].Bits)
		if pos < 0 {
			return fail(m, t, res, vm.EINVAL)
		}
		f.data, f.pos, f.eof, f.unget = m.files.fs[f.path], int(pos), false, 0
		vm.SetResult(res, uint64(pos))
		return nil
	}, "lseek", "lseek64")
	// statPath is stat, or lstat (link), which describes a symbolic link
	// rather than what it names.
	statPath := func(pathArg, bufArg int, link bool) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			path, failed, err := m.kernelArg(t, res, a[pathArg].Bits, ^uint64(0), !link)
			if failed {
				return err
			}
			if target, ok := m.files.symlinks[path]; ok {
				vm.SetResult(res, 0)
				return m.statInto(a[bufArg].Bits, len(target), symlinkNode, m.files.inode(path), 1, 0o777)
			}
			kind := regularFile
			if _, ok := m.files.fs[path]; !ok {
				_, fifo := m.files.fifos[path]
				switch {
				case fifo:
					kind = fifoNode
				case !m.files.isDir(path):
					m.files.noteMissing(path, m.ProgramLoc(t, in.Loc))
					return fail(m, t, res, m.files.absentErrno(path))
				default:
					kind = directory
				}
			}
			vm.SetResult(res, 0)
			return m.statInto(a[bufArg].Bits, m.fileSize(path), kind, m.files.inode(path), m.files.nlink(path), m.files.perm(path, kind == directory))
		}
	}
	tab.registerIO(statPath(0, 1, false), "stat", "stat64")
	tab.registerIO(statPath(0, 1, true), "lstat", "lstat64")
	tab.registerIO(statPath(1, 2, false), "__xstat", "__xstat64")
	tab.registerIO(statPath(1, 2, true), "__lxstat", "__lxstat64")
	fstat := func(fdArg, bufArg int) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			f := m.files.byFD[int(int32(a[fdArg].Bits))]
			if f == nil {
				return fail(m, t, res, vm.EBADF)
			}
			vm.SetResult(res, 0)
			switch {
			case f.std():
				return m.statInto(a[bufArg].Bits, 0, charDevice, uint64(f.stdNum())+3, 1, 0o620)
			case f.dir:
				return m.statInto(a[bufArg].Bits, 0, directory, m.files.inode(f.path), 1, m.files.perm(f.path, true))
			}
			return m.statInto(a[bufArg].Bits, m.fileSize(f.path), regularFile, m.files.inode(f.path), m.files.nlink(f.path), m.files.perm(f.path, false))
		}
	}
	tab.registerIO(fstat(0, 1), "fstat", "fstat64")
	tab.registerIO(fstat(1, 2), "__fxstat", "__fxstat64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		path, failed, err := m.kernelPath(t, res, a[0].Bits, ^uint64(0))
		if failed {
			return err
		}
		if !m.files.exists(path) {
			m.files.noteMissing(path, m.ProgramLoc(t, in.Loc))
			return fail(m, t, res, m.files.absentErrno(path))
		}
		vm.SetResult(res, 0)
		return nil
	}, "access", "euidaccess", "eaccess")
	// remover removes a file (files) or an empty directory (dirs): unlink
	// removes files only, rmdir directories only, remove either.
	remover := func(files, dirs bool) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			path, failed, err := m.kernelName(t, res, a[0].Bits, ^uint64(0))
			if failed {
				return err
			}
			_, isFile := m.files.fs[path]
			_, isFifo := m.files.fifos[path]
			isFile = isFile || isFifo || m.files.isLink(path)
			isDir := !isFile && m.files.isDir(path)
			switch {
			case isFile && !files:
				return fail(m, t, res, vm.ENOTDIR)
			case isFile:
				m.files.orphan(path) // a descriptor keeps the file (vfs_unlinked.go)
				m.files.remove(path)
			case isDir && !dirs:
				return fail(m, t, res, vm.EISDIR)
			case isDir && (path == "/" || !m.files.dirs[path] || m.files.holdsFiles(path)):
				return fail(m, t, res, vm.ENOTEMPTY) // "/", or a directory that holds files
			case isDir:
				delete(m.files.dirs, path)
				delete(m.files.perms, path)
			default:
				return fail(m, t, res, m.files.absentErrno(path))
			}
			vm.SetResult(res, 0)
			return nil
		}
	}
	tab.registerIO(remover(true, false), "unlink")
	tab.registerIO(remover(false, true), "rmdir")
	tab.registerIO(remover(true, true), "remove")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		path, failed, err := m.kernelName(t, res, a[0].Bits, ^uint64(0))
		if failed {
			return err
		}
		if m.files.exists(path) {
			return fail(m, t, res, vm.EEXIST)
		}
		if !m.files.isDir(pathDir(path)) {
			return fail(m, t, res, m.files.absentErrno(path))
		}
		if m.files.dirs == nil {
			m.files.dirs = map[string]bool{}
		}
		m.files.dirs[path] = true
		m.files.created(path, a[1].Bits)
		vm.SetResult(res, 0)
		return nil
	}, "mkdir")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		from, to, failed, err := m.pathPair(t, res, a)
		if failed {
			return err
		}
		if _, ok := m.files.fs[from]; !ok && !m.files.isLink(from) {
			return fail(m, t, res, m.files.absentErrno(from))
		}
		if _, file := m.files.fs[to]; !file && !m.files.isLink(to) && m.files.isDir(to) {
			return fail(m, t, res, vm.EISDIR) // a file or link cannot replace a directory
		}
		if from != to {
			m.files.rename(from, to)
		}
		vm.SetResult(res, 0)
		return nil
	}, "rename")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil || !f.write {
			return fail(m, t, res, vm.EBADF)
		}
		n := int(a[1].Bits)
		if n < 0 {
			return fail(m, t, res, vm.EINVAL)
		}
		m.files.flush(t, f)
		data := m.files.fs[f.path]
		if data == nil {
			data = &contents{}
			m.files.fs[f.path] = data
		}
		data.resize(n)
		vm.SetResult(res, 0)
		return nil
	}, "ftruncate", "ftruncate64")
	// dup makes descriptor to a copy of old: the same open file
	// description, so the two share the offset and O_NONBLOCK, and
	// FD_CLOEXEC as cloexec says. What to held is closed first, as
	// dup2 does; a stdio stream of to (stdout, when a program sends its
	// output to a file) keeps its buffer and goes on with the new file.
	dup := func(m *machine, t *vm.Thread, res []vm.Value, old, to int, cloexec bool) error {
		f := m.files.byFD[old]
		if f == nil || to < 0 {
			return fail(m, t, res, vm.EBADF)
		}
		if to == old {
			vm.SetResult(res, uint64(to))
			return nil
		}
		c := *f
		c.fd, c.pending, c.proc, c.cloexec = to, nil, m.Proc(), cloexec
		if f.isNet() {
			c.data = nil // a pipe stream's buffer is its own (stdio_pipe.go)
		}
		if g := m.files.byFD[to]; g != nil {
			m.files.bindStreams(g, &c) // before the close flushes what they buffer
			m.files.closeFD(t, to)
		}
		m.files.byFD[to] = &c
		if f.isNet() {
			m.holdEnds(f)
		}
		vm.SetResult(res, uint64(to))
		return nil
	}
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return dup(m, t, res, int(int32(a[0].Bits)), m.files.freeFD(0), false)
	}, "dup")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		return dup(m, t, res, int(int32(a[0].Bits)), int(int32(a[1].Bits)), false)
	}, "dup2")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		old, to, flags := int(int32(a[0].Bits)), int(int32(a[1].Bits)), a[2].Bits&0xffffffff
		if old == to || flags&^oCloexec != 0 {
			return fail(m, t, res, vm.EINVAL)
		}
		return dup(m, t, res, old, to, flags != 0)
	}, "dup3")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		fd := int(int32(a[0].Bits))
		f := m.files.byFD[fd]
		if f == nil {
			return fail(m, t, res, vm.EBADF)
		}
		switch a[1].Bits & 0xffffffff {
		case 0, 1030: // F_DUPFD, F_DUPFD_CLOEXEC
			if int32(a[2].Bits) < 0 {
				return fail(m, t, res, vm.EINVAL)
			}
			return dup(m, t, res, fd, m.files.freeFD(int(int32(a[2].Bits))), a[1].Bits&0xffffffff == 1030)
		case 1: // F_GETFD
			vm.SetResult(res, b2u(f.cloexec)*fdCloexec)
		case 2: // F_SETFD
			f.cloexec = a[2].Bits&fdCloexec != 0
			vm.SetResult(res, 0)
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
			vm.SetResult(res, fl)
		case 4: // F_SETFL: of the status flags, only O_NONBLOCK means anything here
			f.nonblock = a[2].Bits&oNonblock != 0
			vm.SetResult(res, 0)
		case fGetLK, fSetLK, fSetLKW, fOFDGetLK, fOFDSetLK, fOFDSetLKW:
			return m.recordLock(t, f, a[1].Bits&0xffffffff, a[2].Bits, res)
		default: // the rest: accepted, nothing changes
			vm.SetResult(res, 0)
		}
		return nil
	}, "fcntl", "fcntl64")
	tab.registerIO(ioctlFn, "ioctl")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil {
			vm.SetResult(res, 0)
			return m.SetErrno(t, vm.EBADF)
		}
		name := "FILE " + f.path
		if f.isNet() {
			rx, tx := m.ends(f)
			if rx == 0 && tx == 0 {
				return vm.Unsupported("fdopen of a descriptor that is not a pipe, a connected stream socket or a file (stdio over it is not modeled)")
			}
			name = "FILE of a pipe or socket"
		}
		addr := m.Alloc(vm.ObjHeap, 216, name, in.Loc, t, nil)
		m.files.byAddr[addr] = f
		f.mode = fullyBuffered
		if f.fd <= 2 {
			f.mode = m.files.byFD[f.fd].mode
		}
		vm.SetResult(res, addr)
		return nil
	}, "fdopen")
}

// ioctl requests on descriptors that augur answers.
const (
	fionread = 0x541B // FIONREAD: bytes a read would get now
	fionbio  = 0x5421 // FIONBIO: set or clear O_NONBLOCK
	fionclex = 0x5450 // FIONCLEX: clear FD_CLOEXEC
	fioclex  = 0x5451 // FIOCLEX: set FD_CLOEXEC
	enotty   = 25
)

// ioctlFn models ioctl's requests on any descriptor: FIONREAD, FIONBIO,
// FIOCLEX and FIONCLEX. The rest (a terminal's, a device's) are ENOTTY:
// augur's descriptors are no terminals or devices.
func ioctlFn(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
	f := m.files.byFD[int(int32(a[0].Bits))]
	if f == nil {
		return fail(m, t, res, vm.EBADF)
	}
	switch a[1].Bits & 0xffffffff {
	case fionread:
		n, errno := m.readable(f)
		if errno != 0 {
			return fail(m, t, res, errno)
		}
		vm.SetResult(res, 0)
		return m.WriteUint(a[2].Bits, 4, uint64(n))
	case fionbio:
		on, err := m.ReadUint(a[2].Bits, 4)
		if err != nil {
			return err
		}
		f.nonblock = on != 0
	case fioclex, fionclex:
		f.cloexec = a[1].Bits&0xffffffff == fioclex
	default:
		return fail(m, t, res, enotty)
	}
	vm.SetResult(res, 0)
	return nil
}

// readable is FIONREAD's answer for f: the bytes a pipe or stream socket
// holds, the size of a datagram socket's next datagram, what is left of a
// file after its offset.
func (m *machine) readable(f *vfile) (int, int) {
	n := m.net()
	if s := n.socks[f.sock]; s != nil && s.kind != sockStream {
		if len(s.dgrams) == 0 {
			return 0, 0
		}
		return len(s.dgrams[0].data), 0
	}
	if f.isNet() {
		rx, _ := m.ends(f)
		if p := n.pipes[rx]; p != nil {
			return len(p.buf), 0
		}
		return 0, vm.EINVAL
	}
	if f.dir {
		return 0, enotty
	}
	if f.std() {
		return 0, 0
	}
	return max(m.fileSize(f.path)-f.pos, 0), 0
}
