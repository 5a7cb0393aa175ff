package libc

import (
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Symbolic links in the virtual file system. A link is a name that holds
// the text of another (symlinks, by vpath), as the kernel keeps it: made
// by symlink, read by readlink, described by lstat (S_IFLNK, its size the
// text's length), listed by readdir (DT_LNK). Every other call on a name
// resolves it first (lookup): each link met on the way is replaced by its
// text, a relative text read in the link's own directory, as the kernel's
// path walk does, and ".." after a link goes up from where the link led.
// The calls that act on a name itself (lstat, readlink, unlink, remove,
// rename, link, mkdir, mkfifo, symlink, and open with O_NOFOLLOW or
// O_CREAT|O_EXCL) resolve every name but the last. More than maxHops
// links in one walk fail the call with ELOOP. Until the program makes a
// link, a name resolves as vpath says: nothing changes for a program
// that makes none.

// maxHops is the kernel's limit on the links one path walk follows
// (MAXSYMLINKS, 40).
const maxHops = 40

// loopName is what lookup returns for a name whose walk met more than
// maxHops links: no path can spell it, so every call on it fails, and
// absentErrno says ELOOP.
const loopName = "\x00loop"

// O_NOFOLLOW and ELOOP on Linux x86-64.
const (
	oNofollow = 0o400000
	eLoop     = 40
)

// dtLnk is readdir's d_type of a symbolic link.
const dtLnk = 10

// lookup is the vpath of name, with dir as the directory a relative name
// is in, after following the symbolic links on the way: all of them when
// followLast, all but the last name otherwise. A name followed by "/" or
// "/." is not the last: it must be a directory, so a link there is
// followed whatever followLast says, as the kernel does.
func (ft *fileTable) lookup(dir, name string, followLast bool) string {
	if len(ft.symlinks) == 0 || name == "" {
		return vpath(dir, name)
	}
	cur := dir
	if name[0] == '/' {
		cur = "/"
	}
	rest := strings.Split(name, "/")
	for hops := 0; len(rest) > 0; {
		part := rest[0]
		rest = rest[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			cur = pathDir(cur)
			continue
		}
		next := dirPrefix(cur) + part
		target, isLink := ft.symlinks[next]
		if !isLink || !followLast && len(rest) == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxHops {
			return loopName
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return cur
}

// isLink reports whether the vpath p is a symbolic link.
func (ft *fileTable) isLink(p string) bool {
	_, ok := ft.symlinks[p]
	return ok
}

// symlink makes p (a vpath, its last name not followed) a symbolic link
// to target, or returns the errno of symlink(2)'s refusal: an empty
// target (ENOENT), p names something already (EEXIST), or p's directory
// does not exist (ENOENT, ENOTDIR).
func (ft *fileTable) symlink(target, p string) int {
	switch {
	case target == "":
		return vm.ENOENT
	case ft.exists(p):
		return vm.EEXIST
	case !ft.isDir(pathDir(p)):
		return ft.absentErrno(p)
	}
	if ft.symlinks == nil {
		ft.symlinks = map[string]string{}
	}
	ft.symlinks[p] = target
	ft.inode(p)
	return 0
}

func (tab table) addSymlinks() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if a[0].Bits == 0 {
			return fail(m, t, res, vm.EFAULT)
		}
		target, err := m.CString(a[0].Bits)
		if err != nil {
			return err
		}
		p, failed, err := m.kernelName(t, res, a[1].Bits, ^uint64(0))
		if failed {
			return err
		}
		if errno := m.files.symlink(target, p); errno != 0 {
			return fail(m, t, res, errno)
		}
		vm.SetResult(res, 0)
		return nil
	}, "symlink")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		p, failed, err := m.kernelName(t, res, a[0].Bits, ^uint64(0))
		if failed {
			return err
		}
		target, isLink := m.files.symlinks[p]
		switch {
		case !isLink && m.files.exists(p):
			return fail(m, t, res, vm.EINVAL)
		case !isLink:
			m.files.noteMissing(p, m.ProgramLoc(t, in.Loc))
			return fail(m, t, res, m.files.absentErrno(p))
		case int64(a[2].Bits) <= 0:
			return fail(m, t, res, vm.EINVAL)
		}
		b := []byte(target)[:min(uint64(len(target)), a[2].Bits)] // no NUL, as the kernel writes it
		if err := m.WriteBytes(a[1].Bits, b); err != nil {
			return err
		}
		if err := m.SetSymBytes(a[1].Bits, b, nil); err != nil { // the bytes are concrete now
			return err
		}
		m.NoteAccess(a[1].Bits, uint64(len(b)), vm.Write)
		vm.SetResult(res, uint64(len(b)))
		return nil
	}, "readlink")
}
