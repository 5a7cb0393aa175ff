package libc

import (
	"slices"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Hard links in the virtual file system. Files are kept by name (fs), so
// a link is a second name of the same contents: link gives the new name
// the old one's contents (the same *contents, so a write through either
// is read through both), its symbolic bytes, its permission bits and its
// inode number, which is what ties the names together from then on. A
// change that replaces a name's contents rather than writing them (a
// truncating open, a write over symbolic bytes, chmod) goes to every name
// of the inode (sameFile); unlink removes one name, and the file lives on
// under the others. A hard link to a symbolic link is a second link with
// the same text and inode number (lstat says 1 link for each: the count
// is kept for files only). Symbolic links are vfs_symlinks.go's.

// sameFile lists p and the other names of its file, sorted, so that a
// change made through p reaches them all in the same order every run. A
// name that is no file (a directory, a name not made yet), or any name
// before the program made a link, is its own only name.
func (ft *fileTable) sameFile(p string) []string {
	ino, named := ft.inodes[p]
	if _, file := ft.fs[p]; !file || !named || !ft.hasLinks {
		return []string{p}
	}
	var names []string
	for q, i := range ft.inodes {
		if _, file := ft.fs[q]; file && i == ino {
			names = append(names, q)
		}
	}
	slices.Sort(names)
	return names
}

// nlink is the link count stat reports for the file at p: none for a
// file removed while open (vfs_unlinked.go).
func (ft *fileTable) nlink(p string) uint64 {
	if isUnlinked(p) {
		return 0
	}
	return uint64(len(ft.sameFile(p)))
}

// truncateName gives the file at p (every name of it) new, empty
// contents: a truncating open (O_TRUNC, fopen's "w").
func (ft *fileTable) truncateName(p string) *contents {
	data := &contents{}
	for _, q := range ft.sameFile(p) {
		ft.fs[q] = data
		delete(ft.fsSym, q)
	}
	return data
}

// link makes to a second name of the file from, or returns the errno of
// link(2)'s refusal: from names no file (ENOENT, ENOTDIR) or a directory
// (EPERM), to names something already (EEXIST), or to's directory does
// not exist (ENOENT).
func (ft *fileTable) link(from, to string) int {
	if target, ok := ft.symlinks[from]; ok { // link(2) does not follow it: to is the same link
		if errno := ft.symlink(target, to); errno != 0 {
			return errno
		}
		ft.inodes[to] = ft.inode(from)
		return 0
	}
	data, file := ft.fs[from]
	_, fifo := ft.fifos[from]
	switch {
	case !file && !fifo && ft.isDir(from):
		return vm.EPERM
	case !file:
		return ft.absentErrno(from) // a FIFO's second name is not modeled either
	case ft.exists(to):
		return vm.EEXIST
	case !ft.isDir(pathDir(to)):
		return ft.absentErrno(to)
	}
	ino, perm := ft.inode(from), ft.perm(from, false)
	ft.hasLinks = true
	ft.fs[to] = data
	if sym := ft.fsSym[from]; sym != nil {
		ft.fsSym[to] = sym // never written in place (store copies it)
	}
	ft.inodes[to] = ino
	ft.setPerm(to, perm)
	return 0
}

func (tab table) addLinks() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		from, to, failed, err := m.pathPair(t, res, a)
		if failed {
			return err
		}
		m.files.noteMissing(from, m.ProgramLoc(t, in.Loc)) // if it names nothing
		if errno := m.files.link(from, to); errno != 0 {
			return fail(m, t, res, errno)
		}
		vm.SetResult(res, 0)
		return nil
	}, "link")
}
