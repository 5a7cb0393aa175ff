package libc

import (
	"strconv"
	"strings"
)

// Files removed while open. Descriptors, streams and shared mappings
// refer to their file by name (vfile.path, mapping.path), so a name that
// unlink, remove or a rename over it takes away must not take the file
// from them: a program that makes a temporary file, unlinks it at once
// and goes on writing and reading it through its descriptor (mkstemp's
// idiom), or that renames a new version over a file it still has open,
// keeps the file it opened, while the name is free for a new file. Such a
// file moves to another of its names when it has one (a hard link), or
// else to a name of its inode that no path can spell (unlinkedPrefix):
// stat says it has no links, nothing lists it, it is no output of the
// program (scratch), and it is gone when the last reference is closed.

// unlinkedPrefix begins the names of files open under no name. A path a
// program gives never holds a NUL byte.
const unlinkedPrefix = "\x00unlinked/"

// isUnlinked reports whether p is the name of a file removed while open.
func isUnlinked(p string) bool { return strings.HasPrefix(p, unlinkedPrefix) }

// heldOpen reports whether a descriptor, a stream or a shared mapping
// refers to the file named p.
func (ft *fileTable) heldOpen(p string) bool {
	for _, f := range ft.byFD {
		if f.path == p && !f.dir {
			return true
		}
	}
	for _, f := range ft.byAddr {
		if f.path == p && !f.dir {
			return true
		}
	}
	for _, mp := range ft.mappings {
		if mp.path == p {
			return true
		}
	}
	return false
}

// retarget makes every reference to the file named from name it as to.
func (ft *fileTable) retarget(from, to string) {
	for _, f := range ft.byFD {
		if f.path == from && !f.dir {
			f.path = to
		}
	}
	for _, f := range ft.byAddr {
		if f.path == from && !f.dir {
			f.path = to
		}
	}
	for addr, mp := range ft.mappings {
		if mp.path == from {
			mp.path = to
			ft.mappings[addr] = mp
		}
	}
}

// orphan is called before the file name p is taken away: what holds the
// file open moves to another of its names, or the file is renamed to its
// unlinked name, which takes its contents, inode number and mode and what
// holds it (rename).
func (ft *fileTable) orphan(p string) {
	if _, file := ft.fs[p]; !file || !ft.heldOpen(p) {
		return
	}
	for _, q := range ft.sameFile(p) {
		if q != p {
			ft.retarget(p, q)
			return
		}
	}
	ft.rename(p, unlinkedPrefix+strconv.FormatUint(ft.inode(p), 10))
}

// released is called when a reference to the file named p is dropped: an
// unlinked file nothing holds any more is gone.
func (ft *fileTable) released(p string) {
	if isUnlinked(p) && !ft.heldOpen(p) {
		ft.remove(p)
	}
}
