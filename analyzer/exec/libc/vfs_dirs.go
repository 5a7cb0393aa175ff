package libc

import (
	"sort"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Directories of the virtual file system as a program walks them: the
// working directory (getcwd, chdir, fchdir) and directory streams
// (opendir, fdopendir, readdir, rewinddir, dirfd, closedir). A listing
// holds the directory's entries when it was opened, sorted by name after
// "." and "..": the kernel's order depends on the file system, and a
// fixed one keeps runs deterministic.

// direntSize is the size of glibc's struct dirent on x86-64: d_ino @0,
// d_off @8, d_reclen @16, d_type @18, d_name[256] @19, padded to 8.
const direntSize = 280

// d_type values.
const (
	dtDir = 4
	dtReg = 8
)

// listing is an open directory stream. Like glibc's, it reads the
// directory (getdents) at its first readdir, and again after rewinddir,
// not at opendir: a file created in between is listed. What it read it
// returns even after the program closed dirfd's descriptor, and a read
// through a closed descriptor fails with EBADF.
type listing struct {
	fd      int    // the descriptor the stream reads (dirfd)
	path    string // the directory's vpath
	entries []dirEntry
	next    int
	read    bool // entries holds the directory as read (not before the first readdir)
}

// readable reports whether the stream's descriptor still reads its
// directory: the program may have closed it (or opened another file in
// its place), as glibc's getdents would find.
func (ft *fileTable) readable(l *listing) bool {
	f := ft.byFD[l.fd]
	return f != nil && f.dir && f.path == l.path
}

type dirEntry struct {
	name      string
	ino       uint64
	dir, link bool
}

// entries lists the directory dir (a vpath): ".", "..", then the files,
// directories and symbolic links directly in it, by name.
func (ft *fileTable) entries(dir string) []dirEntry {
	prefix := dirPrefix(dir)
	kinds := map[string]bool{} // name -> is a directory
	add := func(name string, isDir bool) {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" {
			return
		}
		child, deeper, _ := strings.Cut(rest, "/")
		kinds[child] = kinds[child] || isDir || deeper != ""
	}
	for name := range ft.fs {
		add(name, false)
	}
	for name := range ft.dirs {
		add(name, true)
	}
	for name := range ft.symlinks {
		add(name, false)
	}
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []dirEntry{{".", ft.inode(dir), true, false}, {"..", ft.inode(pathDir(dir)), true, false}}
	for _, n := range names {
		out = append(out, dirEntry{n, ft.inode(prefix + n), kinds[n], ft.isLink(prefix + n)})
	}
	return out
}

// openListing makes a directory stream over the directory open as fd.
func (m *machine) openListing(t *vm.Thread, in *ir.Inst, fd int, res []vm.Value) error {
	f := m.files.byFD[fd]
	addr := m.Alloc(vm.ObjHeap, direntSize, "DIR "+f.path, in.Loc, t, nil)
	if m.files.listings == nil {
		m.files.listings = map[uint64]*listing{}
	}
	m.files.listings[addr] = &listing{fd: fd, path: f.path}
	vm.SetResult(res, addr)
	return nil
}

// dirAt returns the directory open as descriptor fd, or the errno of
// taking fd for one: EBADF when it is not open, ENOTDIR when it is not a
// directory.
func (ft *fileTable) dirAt(fd int) (*vfile, int) {
	f := ft.byFD[fd]
	switch {
	case f == nil:
		return nil, vm.EBADF
	case !f.dir:
		return nil, vm.ENOTDIR
	}
	return f, 0
}

// listing returns the listing of a DIR pointer.
func (ft *fileTable) listing(p uint64) (*listing, error) {
	if l, ok := ft.listings[p]; ok {
		return l, nil
	}
	return nil, vm.Terminate(vm.TermCrash, vm.SIGSEGV, "invalid or closed DIR pointer 0x%x", p)
}

func (tab table) addDirs() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		// Not kernelPath: glibc's opendir reads the name itself first.
		path, err := m.pathArg(a[0].Bits)
		if err != nil {
			return err
		}
		fd, err := m.openFile(t, path, oDirectory, 0)
		if fd < 0 || err != nil {
			vm.SetResult(res, 0)
			return err
		}
		return m.openListing(t, in, fd, res)
	}, "opendir")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		fd := int(int32(a[0].Bits))
		if _, errno := m.files.dirAt(fd); errno != 0 {
			vm.SetResult(res, 0)
			return m.SetErrno(t, errno)
		}
		return m.openListing(t, in, fd, res)
	}, "fdopendir")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		l, err := m.files.listing(a[0].Bits)
		if err != nil {
			return err
		}
		if !l.read {
			if !m.files.readable(l) {
				vm.SetResult(res, 0)
				return m.SetErrno(t, vm.EBADF)
			}
			l.entries, l.read = m.files.entries(l.path), true
		}
		if l.next >= len(l.entries) {
			vm.SetResult(res, 0)
			if !m.files.readable(l) { // glibc reads again at the end
				return m.SetErrno(t, vm.EBADF)
			}
			return nil // the end: errno unchanged
		}
		e := l.entries[l.next]
		l.next++
		p := a[0].Bits
		typ := uint64(dtReg)
		switch {
		case e.dir:
			typ = dtDir
		case e.link:
			typ = dtLnk
		}
		err = m.writeFields(p, field{0, 8, e.ino}, field{8, 8, uint64(l.next)},
			field{16, 2, uint64(19+len(e.name)+1+7) &^ 7}, field{18, 1, typ})
		if err != nil {
			return err
		}
		vm.SetResult(res, p)
		return m.StoreString(p+19, []byte(e.name), 256, true)
	}, "readdir", "readdir64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		l, err := m.files.listing(a[0].Bits)
		if err != nil {
			return err
		}
		l.entries, l.next, l.read = nil, 0, false // read again at the next readdir
		return nil
	}, "rewinddir")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		l, err := m.files.listing(a[0].Bits)
		if err != nil {
			return err
		}
		vm.SetResult(res, uint64(l.fd))
		return nil
	}, "dirfd")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		l, err := m.files.listing(a[0].Bits)
		if err != nil {
			return err
		}
		delete(m.files.listings, a[0].Bits)
		if err := m.Free(t, a[0].Bits, in.Loc, "closedir"); err != nil {
			return err
		}
		if m.files.byFD[l.fd] == nil { // the program closed dirfd's descriptor itself: close fails
			vm.SetResult(res, ^uint64(0))
			return m.SetErrno(t, vm.EBADF)
		}
		m.files.closeFD(t, l.fd)
		vm.SetResult(res, 0)
		return nil
	}, "closedir")

	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		buf, size := a[0].Bits, a[1].Bits
		cwd := m.files.cwd
		need := uint64(len(cwd) + 1)
		switch {
		case buf == 0: // glibc allocates the buffer: size bytes, or as many as needed
			if size != 0 && size < need {
				vm.SetResult(res, 0)
				return m.SetErrno(t, vm.ERANGE)
			}
			var err error
			if buf, err = m.Malloc(t, max(size, need), in.Loc, ""); err != nil {
				return err
			}
		case size == 0:
			vm.SetResult(res, 0)
			return m.SetErrno(t, vm.EINVAL)
		case size < need:
			vm.SetResult(res, 0)
			return m.SetErrno(t, vm.ERANGE)
		}
		vm.SetResult(res, buf)
		return m.StoreString(buf, []byte(cwd), need, true)
	}, "getcwd")
	// changeDir makes path the working directory.
	changeDir := func(m *machine, t *vm.Thread, res []vm.Value, path string) error {
		if _, isFile := m.files.fs[path]; isFile {
			return fail(m, t, res, vm.ENOTDIR)
		}
		if !m.files.isDir(path) {
			return fail(m, t, res, m.files.absentErrno(path))
		}
		m.files.cwd = path
		vm.SetResult(res, 0)
		return nil
	}
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		path, failed, err := m.kernelPath(t, res, a[0].Bits, ^uint64(0))
		if failed {
			return err
		}
		return changeDir(m, t, res, path)
	}, "chdir")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, errno := m.files.dirAt(int(int32(a[0].Bits)))
		if f == nil {
			return fail(m, t, res, errno)
		}
		return changeDir(m, t, res, f.path)
	}, "fchdir")
	// __augur_dir_path(fd, buf, size) stores the path of the directory
	// open as fd, for the runtime's *at calls (mkdirat, unlinkat, ...;
	// posix_at.c): 0, or -1 with EBADF, ENOTDIR or ERANGE.
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, errno := m.files.dirAt(int(int32(a[0].Bits)))
		if f == nil {
			return fail(m, t, res, errno)
		}
		if uint64(len(f.path)) >= a[2].Bits {
			return fail(m, t, res, vm.ERANGE)
		}
		vm.SetResult(res, 0)
		return m.StoreString(a[1].Bits, []byte(f.path), uint64(len(f.path))+1, true)
	}, "__augur_dir_path")
}
