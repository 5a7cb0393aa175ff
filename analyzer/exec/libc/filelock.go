package libc

import (
	"slices"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// File locks, as Linux keeps them: fcntl's record locks (F_SETLK,
// F_SETLKW, F_GETLK), which belong to a process, its open-file-description
// locks (F_OFD_*) and flock's whole-file locks, which belong to the open
// that made them (shared by its dups), on a file's inode. A read lock
// shares its bytes with other read locks; a write lock with none. A
// process's own record locks never conflict with each other (a new one
// replaces what it overlaps); open-file-description and flock locks of two
// opens conflict even in one process, so threads can exclude each other
// with them. A request that conflicts fails with EAGAIN (F_SETLK,
// LOCK_NB) or waits (F_SETLKW, flock) until a lock on the file goes: the
// wait is a blocked thread the scheduler and the deadlock report see. An
// unlock orders what its owner did before it before what the next locker
// does after taking it, as the kernel's lock does, for the locks that
// exclude threads (not record locks: see lockTaken).
//
// Record locks go when their process closes any descriptor of the file or
// ends; the others when the last descriptor of their open closes.
// flock's locks and fcntl's do not conflict with each other (Linux keeps
// them apart). Not modeled: F_SETLKW's deadlock detection (EDEADLK; a
// deadlock is reported when every thread waits), mandatory locking,
// leases.

// fileLock is a lock on the bytes [start, end) of a file (end ^0: to the
// end of the file, wherever it goes).
type fileLock struct {
	owner      lockOwner
	start, end uint64
	write      bool
}

// lockOwner is who holds a lock: a process (record locks), or an open
// file description (desc, for open-file-description and flock locks).
// flock marks flock's locks, which live apart from fcntl's.
type lockOwner struct {
	proc  int
	desc  uint64
	flock bool
}

// fcntl's commands and struct flock's lock types.
const (
	fGetLK, fSetLK, fSetLKW          = 5, 6, 7
	fOFDGetLK, fOFDSetLK, fOFDSetLKW = 36, 37, 38
	fRdLck, fWrLck, fUnLck           = 0, 1, 2
	lockSh, lockEx, lockNb, lockUn   = 1, 2, 4, 8
)

// conflict returns the first lock of another owner that a lock of owner
// on [start, end) (write or read) cannot share bytes with.
func (ft *fileTable) conflict(ino uint64, owner lockOwner, start, end uint64, write bool) (fileLock, bool) {
	for _, l := range ft.locks[ino] {
		if l.owner.flock != owner.flock || l.owner == owner {
			continue
		}
		if l.start < end && start < l.end && (write || l.write) {
			return l, true
		}
	}
	return fileLock{}, false
}

// setLock gives owner a lock on [start, end) (none when unlock), replacing
// what it held of those bytes.
func (ft *fileTable) setLock(ino uint64, owner lockOwner, start, end uint64, write, unlock bool) {
	var out []fileLock
	for _, l := range ft.locks[ino] {
		if l.owner != owner || l.end <= start || end <= l.start {
			out = append(out, l)
			continue
		}
		if l.start < start { // the part before stays
			out = append(out, fileLock{owner, l.start, start, l.write})
		}
		if end < l.end { // and the part after
			out = append(out, fileLock{owner, end, l.end, l.write})
		}
	}
	if !unlock {
		out = append(out, fileLock{owner, start, end, write})
	}
	if ft.locks == nil {
		ft.locks = map[uint64][]fileLock{}
	}
	ft.locks[ino] = out
}

// dropLocks removes the locks of f's owners that go when f is closed:
// its process's record locks on its file, and its open's other locks
// unless another descriptor still has the open. It returns the inodes
// whose locks changed. (A file removed while open has no inode number
// left to find its record locks by: they stay.)
func (ft *fileTable) dropLocks(f *vfile) []uint64 {
	if f.path == "" || len(ft.locks) == 0 {
		return nil
	}
	shared := false
	for _, g := range ft.byFD {
		if g != f && g.desc == f.desc {
			shared = true
		}
	}
	ino, named := ft.inodes[f.path]
	var changed []uint64
	for i, locks := range ft.locks {
		kept := slices.DeleteFunc(slices.Clone(locks), func(l fileLock) bool {
			record := l.owner.desc == 0 && l.owner.proc == f.proc && named && i == ino
			return record || l.owner.desc != 0 && l.owner.desc == f.desc && !shared
		})
		if len(kept) < len(locks) {
			ft.locks[i] = kept
			changed = append(changed, i)
		}
	}
	slices.Sort(changed)
	return changed
}

// lockWait ends a lock request that conflicts: EAGAIN without waiting,
// else the thread waits for a lock on the file to go.
func (m *machine) lockWait(t *vm.Thread, ino uint64, wait bool, res []vm.Value) error {
	if !wait {
		if err := fail(m, t, res, vm.EAGAIN); err != nil {
			return err
		}
		return m.TryFailed(t)
	}
	return m.Block(t, vm.FileLockKey, ino)
}

// lockTaken ends a lock request that succeeded, or an unlock (which has
// woken the waiters). A lock of an open (flock, F_OFD_*) excludes other
// threads as a mutex does: taking and giving it are synchronization,
// preemption points and happens-before edges. A record lock excludes
// other processes alone, so between the threads of one it orders nothing,
// and its calls are none of that: an edge would order what the lock does
// not, and a preemption point at each of SQLite's many record-lock calls
// made the classifier take an unlock for a spin.
func (m *machine) lockTaken(t *vm.Thread, ino uint64, owner lockOwner, unlock bool, res []vm.Value) error {
	vm.SetResult(res, 0)
	if owner.desc == 0 {
		return nil
	}
	if unlock {
		m.Sync(t, vm.Release, vm.FileLockKey, ino)
		return m.Point()
	}
	m.Sync(t, vm.Acquire, vm.FileLockKey, ino)
	return m.TookLock(t)
}

// recordLock is fcntl's F_GETLK, F_SETLK and F_SETLKW, and their
// open-file-description forms, on f with the struct flock at p.
func (m *machine) recordLock(t *vm.Thread, f *vfile, cmd, p uint64, res []vm.Value) error {
	typ, err := m.ReadUint(p, 2)
	if err != nil {
		return err
	}
	whence, err := m.ReadUint(p+2, 2)
	if err != nil {
		return err
	}
	start, err := m.ReadUint(p+8, 8)
	if err != nil {
		return err
	}
	length, err := m.ReadUint(p+16, 8)
	if err != nil {
		return err
	}
	if f.path == "" || f.dir {
		return fail(m, t, res, vm.EINVAL) // a pipe, a socket, a standard stream
	}
	base := int64(0)
	switch whence {
	case 1:
		base = int64(m.files.position(f))
	case 2:
		base = int64(m.fileSize(f.path))
	}
	from, n := base+int64(start), int64(length)
	if n < 0 { // the bytes before the start
		from, n = from+n, -n
	}
	if from < 0 || typ > fUnLck {
		return fail(m, t, res, vm.EINVAL)
	}
	lo, hi := uint64(from), ^uint64(0)
	if n > 0 {
		hi = lo + uint64(n)
	}
	owner := lockOwner{proc: f.proc}
	if cmd >= fOFDGetLK {
		owner = lockOwner{desc: f.desc}
	}
	ino := m.files.inode(f.path)
	if cmd == fGetLK || cmd == fOFDGetLK {
		l, found := m.files.conflict(ino, owner, lo, hi, typ == fWrLck)
		vm.SetResult(res, 0)
		if !found {
			return m.WriteUint(p, 2, fUnLck)
		}
		ln := uint64(0)
		if l.end != ^uint64(0) {
			ln = l.end - l.start
		}
		pid := uint64(firstTID) // every process's getpid
		if l.owner.desc != 0 {
			pid = 0xffffffff // -1: an open's lock has no process
		}
		return m.writeFields(p, field{0, 2, b2u(l.write)}, field{2, 2, 0}, field{8, 8, l.start}, field{16, 8, ln},
			field{24, 4, pid})
	}
	if typ == fRdLck && !f.read || typ == fWrLck && !f.write {
		return fail(m, t, res, vm.EBADF)
	}
	if typ != fUnLck {
		if _, busy := m.files.conflict(ino, owner, lo, hi, typ == fWrLck); busy {
			return m.lockWait(t, ino, cmd == fSetLKW || cmd == fOFDSetLKW, res)
		}
	}
	m.files.setLock(ino, owner, lo, hi, typ == fWrLck, typ == fUnLck)
	if typ == fUnLck {
		m.Wake(vm.FileLockKey, ino)
	}
	return m.lockTaken(t, ino, owner, typ == fUnLck, res)
}

func (tab table) addFileLocks() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := m.files.byFD[int(int32(a[0].Bits))]
		if f == nil {
			return fail(m, t, res, vm.EBADF)
		}
		op := a[1].Bits & 0xffffffff
		if f.path == "" { // a pipe, a socket, a standard stream
			return fail(m, t, res, vm.EINVAL)
		}
		ino := m.files.inode(f.path)
		owner := lockOwner{desc: f.desc, flock: true}
		switch op &^ lockNb {
		case lockUn:
			m.files.setLock(ino, owner, 0, ^uint64(0), false, true)
			m.Wake(vm.FileLockKey, ino)
			return m.lockTaken(t, ino, owner, true, res)
		case lockSh, lockEx:
			write := op&^lockNb == lockEx
			if _, busy := m.files.conflict(ino, owner, 0, ^uint64(0), write); busy {
				return m.lockWait(t, ino, op&lockNb == 0, res)
			}
			m.files.setLock(ino, owner, 0, ^uint64(0), write, false)
			return m.lockTaken(t, ino, owner, false, res)
		}
		return fail(m, t, res, vm.EINVAL)
	}, "flock")
}
