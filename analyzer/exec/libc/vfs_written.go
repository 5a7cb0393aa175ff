package libc

import (
	"bytes"
	"sort"
	"strings"

	"augur/analyzer/exec/vm"
)

// Written lists the files the program made, changed or removed, as the
// execution leaves them (vm.Library).
func (m *machine) Written() []vm.WrittenFile { return m.files.written() }

// written compares the virtual file system with what the execution was
// given: every file that is new, holds other bytes or is gone, outside
// the scratch trees (scratch), sorted by path. The first files listed
// keep their heads, up to maxHeads bytes in all, so a result holds
// little however many files the program wrote.
func (ft *fileTable) written() []vm.WrittenFile {
	var paths []string
	for p, c := range ft.fs {
		if g, ok := ft.given[p]; !scratch(p) && (!ok || !c.equal(g)) {
			paths = append(paths, p)
		}
	}
	for p := range ft.given {
		if _, ok := ft.fs[p]; !ok && !scratch(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	out := make([]vm.WrittenFile, 0, len(paths))
	room := maxHeads
	for _, p := range paths {
		c, ok := ft.fs[p]
		if !ok {
			out = append(out, vm.WrittenFile{Path: p, Removed: true})
			continue
		}
		w := writtenFile(p, c, min(room, vm.MaxFileHead))
		room -= len(w.Head)
		out = append(out, w)
	}
	return out
}

// maxHeads bounds the bytes of file heads one execution's result holds.
const maxHeads = 4 * vm.MaxFileHead

// scratch reports whether path (a vpath) is in /tmp or a tree of the
// system's (/dev, /proc, /sys), or names a file removed while open
// (vfs_unlinked.go): what a program leaves there is not output it leaves
// its user (vm.WrittenFile).
func scratch(path string) bool {
	if isUnlinked(path) {
		return true
	}
	for _, dir := range scratchDirs {
		if strings.HasPrefix(path, dir) && (len(path) == len(dir) || path[len(dir)] == '/') {
			return true
		}
	}
	return false
}

// scratchDirs are the trees scratch leaves out. Every write to a file asks
// scratch, so it makes no string of its own.
var scratchDirs = [...]string{"/tmp", "/dev", "/proc", "/sys"}

// writtenFile describes the file at path holding c, with its first head
// bytes.
func writtenFile(path string, c *contents, head int) vm.WrittenFile {
	h := uint64(vm.FNVOffset)
	if c != nil {
		for _, ch := range c.chunks {
			h = vm.FNV(h, ch)
		}
	}
	n := c.len()
	return vm.WrittenFile{Path: path, Size: uint64(n), Hash: h, Head: c.slice(0, min(n, head))}
}

// equal reports whether the contents are the bytes b.
func (c *contents) equal(b []byte) bool {
	if c.len() != len(b) {
		return false
	}
	for i, ch := range c.chunks {
		if !bytes.Equal(ch, b[i<<contentBits:i<<contentBits+len(ch)]) {
			return false
		}
	}
	return true
}
