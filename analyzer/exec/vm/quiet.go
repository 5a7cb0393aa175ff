package vm

import "sync/atomic"

// Quiet accesses. A monitor that learns nothing from a thread's further
// accesses to an object until that thread next synchronizes (the race
// detector's objects private to their thread, whose history it keeps as
// the owner's clock at its last access) says so with Quiet, and the exec
// loop's raw loads and stores then skip the monitor for them: an object
// quieted for a thread holds that thread's current mark, and every
// synchronization event renews the marks of the threads in it. Marks are
// unique across machines (a fork renews every mark on both sides), and
// only an object the machine does not share with a fork is quieted or
// made loud again: forks run in parallel, and one never writes what the
// other reads.

// marks hands out the marks in blocks; 0 is no mark.
var marks atomic.Uint64

// markBlock is how many marks a machine takes from marks at a time. It
// numbers its own from its block (markSource), so a synchronization
// event costs an increment rather than an atomic add on a counter every
// machine running in parallel shares (a lock-heavy program makes two
// such events every few instructions).
const markBlock = 1 << 16

// markSource is one machine's block of marks. A fork starts with none.
type markSource struct{ next, end uint64 }

// newMark returns a mark no machine has had.
func (s *markSource) newMark() uint64 {
	if s.next == s.end {
		s.end = marks.Add(markBlock) + 1
		s.next = s.end - markBlock
	}
	s.next++
	return s.next - 1
}

// Quiet tells the machine that thread's raw accesses to o need not reach
// the monitor until thread's next synchronization event or Unquiet. An
// object shared with a fork stays as it is (every access reaches the
// monitor).
func (s *state) Quiet(o *Object, thread int) {
	if o.gen == s.mem.gen {
		o.quiet = s.threads[thread].mark
	}
}

// Unquiet makes every access to o reach the monitor again. An object
// shared with a fork holds no mark of this machine's already.
func (s *state) Unquiet(o *Object) {
	if o.gen == s.mem.gen {
		o.quiet = 0
	}
}

// QuietUntilSync tells the machine that no raw access needs to reach the
// monitor until the next synchronization event of any thread (the race
// detector while the program has one thread: nothing can race then).
func (m *Machine) QuietUntilSync() { m.allQuiet = true }

// renewMarks ends what the threads of ev were quieted for, and a quiet of
// every access.
func (m *Machine) renewMarks(ev SyncEvent) {
	m.allQuiet = false
	m.threads[ev.Thread].mark = m.marks.newMark()
	if (ev.Op == Fork || ev.Op == JoinThread) && ev.Other >= 0 && ev.Other < len(m.threads) {
		m.threads[ev.Other].mark = m.marks.newMark()
	}
}
