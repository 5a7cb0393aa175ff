package libc

import (
	"augur/analyzer/exec/vm"
)

// A stdio stream over a pipe end or a connected stream socket (fdopen, or
// stdin after a dup2 of a pipe onto 0) buffers as a file's does. Its
// reads take what the pipe holds into the stream's buffer (f.data, from
// f.pos) and wait, as the kernel's read under glibc's would, until the
// buffer holds what the call needs or no writer is left; its flushes put
// the bytes into the pipe, whatever its room (a flush that would wait
// for a reader to make room is not modeled). The buffer's read position
// is the description's offset, which a pipe has no other use for: two
// streams that read one pipe through dups of one descriptor at once
// would move each other's (not modeled).

// fillStream moves what the pipe under stream f holds into the stream's
// buffer, and makes t wait while enough says the unread bytes (f.data
// from f.pos) are not what the call needs and a writer may still write
// (a nonblocking stream does not wait). A file's stream has nothing to
// fill.
func (m *machine) fillStream(t *vm.Thread, f *vfile, enough func(data *contents, from int) bool) error {
	if !f.isNet() || f.unget != 0 {
		return nil
	}
	rx, _ := m.ends(f)
	pp := m.net().pipes[rx]
	if pp == nil {
		return nil // nothing to read: end of file
	}
	if len(pp.buf) > 0 {
		m.Charge(uint64(len(pp.buf)))
		var unread []byte
		if f.pos < f.data.len() {
			unread = f.data.slice(f.pos, f.data.len())
		}
		f.data, f.pos = newContents(append(unread, pp.buf...)), 0 // what was read before is gone
		pp.buf = nil
		m.Sync(t, vm.Acquire, vm.PipeKey, rx)
		m.netChanged(0, rx)
	}
	if !enough(f.data, f.pos) && pp.writers > 0 && !f.nonblock {
		return m.Block(t, vm.PipeWaitKey, rx)
	}
	if pp.writers == 0 {
		m.Sync(t, vm.Acquire, vm.PipeKey, rx) // the writers' closes come first
	}
	return nil
}

// atLeast is fillStream's need of n bytes.
func atLeast(n uint64) func(*contents, int) bool {
	return func(data *contents, from int) bool { return uint64(data.len()-from) >= n }
}

// aLine is fillStream's need of a line: scanf reads on until its
// conversions end, which a newline does in line-based input.
func aLine(data *contents, from int) bool {
	for i := from; i < data.len(); i++ {
		if data.at(i) == '\n' {
			return true
		}
	}
	return false
}

// flushToPipe writes what stream f flushes into the pipe under it, for
// thread t (nil at exit). With no reader left the bytes are lost, as the
// write fails with EPIPE.
func (m *machine) flushToPipe(t *vm.Thread, f *vfile, b []byte) {
	_, tx := m.ends(f)
	pp := m.net().pipes[tx]
	if pp == nil || pp.readers == 0 {
		return
	}
	pp.buf = append(pp.buf, b...)
	if t != nil {
		m.Sync(t, vm.ReleaseMerge, vm.PipeKey, tx)
	}
	m.netChanged(tx, 0)
}
