package libc

import (
	"path"
	"slices"
	"sort"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Names in the virtual file system. A file is kept under one name however
// the program spells it, directories exist where files do (and where the
// program made them), and each file has an inode number of its own: programs that build absolute names from
// getcwd (SQLite makes "//driver.db" of "driver.db"), that open a file's
// directory to fsync it, or that tell files apart by (st_dev, st_ino), as
// SQLite's lock table does, see on the virtual disk what they see on a
// real one.

// rootIno is the inode number of "/", as on ext4; files get numbers from
// firstIno on, in the order they are first asked for.
const (
	rootIno  = 2
	firstIno = 100
)

// vpath is the name under which the virtual file system keeps what the
// program calls p with dir as its working directory: a relative name is
// resolved against dir, and "//", "." and ".." as the kernel resolves
// them, so "x", "./x", "/x" and "//x" are one file when dir is the root.
// The empty name stays empty (it names no file: ENOENT).
func vpath(dir, p string) string {
	if p == "" {
		return ""
	}
	if p[0] != '/' {
		p = dir + "/" + p
	}
	return path.Clean("/" + p)
}

// abs is the vpath of p in the program's working directory (the root
// until it calls chdir, as getcwd says), its symbolic links followed
// (vfs_symlinks.go).
func (ft *fileTable) abs(p string) string { return ft.lookup(ft.cwd, p, true) }

// pathArg reads the file name argument at addr, as the virtual file
// system keeps it (abs).
func (m *machine) pathArg(addr uint64) (string, error) {
	s, err := m.CString(addr)
	return m.files.abs(s), err
}

// kernelPath is pathArg for a system call, whose path the kernel reads,
// not the program: a null pointer fails the call with EFAULT, its result
// failure, where the program reading it would crash. (pigz's clean-up
// after an early error calls unlink(NULL); Linux refuses it, and the
// program exits as it meant to.) failed is set when the call failed so
// or the path could not be read; err is then the call's result.
func (m *machine) kernelPath(t *vm.Thread, res []vm.Value, addr, failure uint64) (path string, failed bool, err error) {
	return m.kernelArg(t, res, addr, failure, true)
}

// kernelName is kernelPath for a call on a name itself (unlink, lstat,
// readlink, ...): a symbolic link there is not followed.
func (m *machine) kernelName(t *vm.Thread, res []vm.Value, addr, failure uint64) (path string, failed bool, err error) {
	return m.kernelArg(t, res, addr, failure, false)
}

// kernelArg is kernelPath, which follows a symbolic link at the end of
// the name when followLast, and kernelName.
func (m *machine) kernelArg(t *vm.Thread, res []vm.Value, addr, failure uint64, followLast bool) (path string, failed bool, err error) {
	if addr == 0 {
		vm.SetResult(res, failure)
		return "", true, m.SetErrno(t, vm.EFAULT)
	}
	s, err := m.CString(addr)
	if err != nil {
		return "", true, err
	}
	return m.files.lookup(m.files.cwd, s, followLast), false, nil
}

// pathPair reads the two name arguments of a call on two names (rename,
// link) as kernelName reads one: failed when either is bad, with -1 and
// errno set.
func (m *machine) pathPair(t *vm.Thread, res, a []vm.Value) (from, to string, failed bool, err error) {
	if from, failed, err = m.kernelName(t, res, a[0].Bits, ^uint64(0)); failed {
		return "", "", true, err
	}
	to, failed, err = m.kernelName(t, res, a[1].Bits, ^uint64(0))
	return from, to, failed, err
}

// isDir reports whether p (a vpath) is a directory: the root, one the
// program made (mkdir), or one that holds a file. The empty name is none.
func (ft *fileTable) isDir(p string) bool {
	return p != "" && (p == "/" || ft.dirs[p] || ft.holdsFiles(p))
}

// holdsFiles reports whether a file, a made directory or a symbolic link
// lies under p.
func (ft *fileTable) holdsFiles(p string) bool {
	prefix := dirPrefix(p)
	return nameUnder(ft.fs, prefix) || nameUnder(ft.dirs, prefix) || nameUnder(ft.symlinks, prefix)
}

// nameUnder reports whether a name of names begins with prefix.
func nameUnder[V any](names map[string]V, prefix string) bool {
	for name := range names {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// dirPrefix is what the names of the files in directory p begin with.
func dirPrefix(p string) string {
	if p == "/" {
		return p
	}
	return p + "/"
}

// pathDir is the directory a vpath is in.
func pathDir(p string) string { return path.Dir(p) }

// absentErrno is the errno of a call on vpath p, which names nothing: ENOTDIR
// when a directory on the way to it is a file ("notes.txt/sub"), as the
// kernel says, ELOOP for a name whose walk met too many symbolic links
// (loopName), and ENOENT otherwise.
func (ft *fileTable) absentErrno(p string) int {
	if p == loopName {
		return eLoop
	}
	for d := pathDir(p); d != "/" && d != "."; d = pathDir(d) {
		if _, isFile := ft.fs[d]; isFile {
			return vm.ENOTDIR
		}
	}
	return vm.ENOENT
}

// inode returns the inode number of the file or directory p, giving it
// the next free one the first time: the numbers follow the program's own
// order of asking, so they are the same in every run and in a replay.
func (ft *fileTable) inode(p string) uint64 {
	if p == "/" {
		return rootIno
	}
	if ino, ok := ft.inodes[p]; ok {
		return ino
	}
	if ft.inodes == nil {
		ft.inodes = map[string]uint64{}
	}
	if ft.nextIno < firstIno {
		ft.nextIno = firstIno
	}
	ino := ft.nextIno
	ft.nextIno++
	ft.inodes[p] = ino
	return ino
}

// remove deletes the file or symbolic link p; a file made later under its name is another
// file, with another inode number.
func (ft *fileTable) remove(p string) {
	delete(ft.symlinks, p)
	delete(ft.fs, p)
	delete(ft.fifos, p)
	delete(ft.fsSym, p)
	delete(ft.inodes, p)
	delete(ft.perms, p)
}

// rename moves the file or symbolic link from to the name to, replacing
// what was there; the file keeps its contents and its inode number, and
// what holds it open follows it, while what holds the replaced file open
// keeps that (orphan). Two names of one file (a hard link) are left as
// they are, as rename(2) leaves them.
func (ft *fileTable) rename(from, to string) {
	if slices.Contains(ft.sameFile(from), to) {
		return
	}
	ft.orphan(to)
	if target, ok := ft.symlinks[from]; ok { // the link moves, not what it names
		ino := ft.inode(from)
		ft.remove(to)
		ft.remove(from)
		ft.symlinks[to], ft.inodes[to] = target, ino
		return
	}
	defer ft.retarget(from, to)
	data, sym := ft.fs[from], ft.fsSym[from]
	ino, hasIno := ft.inodes[from]
	perm, hasPerm := ft.perms[from]
	ft.remove(to)
	ft.remove(from)
	ft.fs[to] = data
	if sym != nil {
		ft.fsSym[to] = sym
	}
	if hasIno {
		ft.inodes[to] = ino
	}
	if hasPerm {
		ft.setPerm(to, perm)
	}
}

// maxMissing bounds the names an execution keeps of the files it looked
// for in vain: a program that probes many names gets its first ones said.
const maxMissing = 64

// noteMissing records that the program looked for the file at path (a
// vpath) at the call at and did not find it (vm.MissingFile). Names of
// the system's own trees (/proc, /dev, /sys) and of /tmp are left out:
// they are no input a user gives, and what the host holds there says
// nothing of the program's.
func (ft *fileTable) noteMissing(path string, at ir.LocID) {
	if path == "" || path[0] == 0 || ft.exists(path) || len(ft.missing) >= maxMissing { // "\x00...": no name a user gives
		return
	}
	if scratch(path) {
		return
	}
	if _, seen := ft.missing[path]; seen {
		return
	}
	if ft.missing == nil {
		ft.missing = map[string]ir.LocID{}
	}
	ft.missing[path] = at
}

// Missing lists the files the program looked for in vain, by path
// (vm.Library).
func (m *machine) Missing() []vm.MissingFile {
	if len(m.files.missing) == 0 {
		return nil
	}
	prog := m.Program()
	out := make([]vm.MissingFile, 0, len(m.files.missing))
	for p, at := range m.files.missing {
		out = append(out, vm.MissingFile{Path: p, At: prog.Loc(at)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
