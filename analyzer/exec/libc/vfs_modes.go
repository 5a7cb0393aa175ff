package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Permission bits in the virtual file system. A file or directory gets
// the mode its creation asked for under the umask (open's and mkdir's
// argument, fopen's 0666), chmod changes it, and stat says it. Nothing is
// refused by them: augur's programs run as the user who analyzes them,
// and the sandbox holds no other user's files.

// defaultUmask is the file mode creation mask a process starts with.
const defaultUmask = 0o022

// Default permissions of a name with none recorded: a file given to the
// program, a directory that holds files.
const (
	filePerm = 0o644
	dirPerm  = 0o755
)

// created records the permissions of p, made now with mode (open's,
// mkdir's) under the umask.
func (ft *fileTable) created(p string, mode uint64) {
	ft.setPerm(p, uint32(mode)&0o7777&^ft.umask)
}

// setPerm records the permission bits of p, and of the other names of
// its file (vfs_links.go).
func (ft *fileTable) setPerm(p string, perm uint32) {
	if ft.perms == nil {
		ft.perms = map[string]uint32{}
	}
	for _, q := range ft.sameFile(p) {
		ft.perms[q] = perm & 0o7777
	}
}

// perm is p's permission bits, of a directory when dir.
func (ft *fileTable) perm(p string, dir bool) uint32 {
	if perm, ok := ft.perms[p]; ok {
		return perm
	}
	if dir {
		return dirPerm
	}
	return filePerm
}

// modeArg is the mode argument of a call that may leave it out (open's
// third, which is read only with O_CREAT): 0 when it is not there.
func modeArg(a []vm.Value, i int) uint64 {
	if i < len(a) {
		return a[i].Bits
	}
	return 0
}

func (tab table) addFileModes() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		old := m.files.umask
		m.files.umask = uint32(a[0].Bits) & 0o777
		vm.SetResult(res, uint64(old))
		return nil
	}, "umask")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		path, failed, err := m.kernelPath(t, res, a[0].Bits, ^uint64(0))
		if failed {
			return err
		}
		if !m.files.exists(path) {
			m.files.noteMissing(path, m.ProgramLoc(t, in.Loc)) // as access does: a file of the user's not given
			return fail(m, t, res, m.files.absentErrno(path))
		}
		m.files.setPerm(path, uint32(a[1].Bits))
		vm.SetResult(res, 0)
		return nil
	}, "chmod")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		switch {
		case f == nil:
			return fail(m, t, res, vm.EBADF)
		case f.path != "" && m.files.exists(f.path):
			m.files.setPerm(f.path, uint32(a[1].Bits))
		}
		vm.SetResult(res, 0) // a pipe's or socket's mode is no file's
		return nil
	}, "fchmod")
}
