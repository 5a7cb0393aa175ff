package vm

// waitKind classifies what a blocked thread waits for; it is also the
// Kind of a SyncKey.
type waitKind = uint8

const (
	waitMutex waitKind = iota
	waitCond
	waitJoin
	waitBarrier
	waitSem
	waitRWLock
	waitOnce
	waitSpin
)

// waitKey identifies a wait queue: the kind and the address of the
// synchronization object (the thread id for joins).
type waitKey struct {
	kind waitKind
	addr uint64
}

// syncTable holds the wait queues. The state of each synchronization object
// (owner, count, value) lives in the program's memory, inside the pthread
// object itself, as glibc keeps it; only the queues of waiting threads are
// kept here, in FIFO order so wake-ups are deterministic.
type syncTable struct {
	waiters map[waitKey][]int
}

func newSyncTable() *syncTable { return &syncTable{waiters: map[waitKey][]int{}} }

// block parks t on queue k.
func (s *syncTable) block(t *Thread, k waitKey, desc string) {
	t.status = blocked
	t.waitDesc = desc
	s.waiters[k] = append(s.waiters[k], t.ID)
}

// wake makes every thread waiting on k runnable.
func (s *syncTable) wake(k waitKey, m *Machine) {
	for _, id := range s.waiters[k] {
		m.threads[id].status = runnable
		m.threads[id].waitDesc = ""
	}
	delete(s.waiters, k)
}

// wakeOne makes the first thread waiting on k runnable and reports whether
// there was one.
func (s *syncTable) wakeOne(k waitKey, m *Machine) bool {
	q := s.waiters[k]
	if len(q) == 0 {
		return false
	}
	m.threads[q[0]].status = runnable
	m.threads[q[0]].waitDesc = ""
	if len(q) == 1 {
		delete(s.waiters, k)
	} else {
		s.waiters[k] = q[1:]
	}
	return true
}

// remove takes thread id off every queue it waits on (a timeout, a
// cancellation).
func (s *syncTable) remove(id int) {
	for k, q := range s.waiters {
		for i, w := range q {
			if w == id {
				s.waiters[k] = append(q[:i:i], q[i+1:]...)
				if len(s.waiters[k]) == 0 {
					delete(s.waiters, k)
				}
				break
			}
		}
	}
}

// fork returns an independent copy for a forked execution state.
func (s *syncTable) fork() *syncTable {
	c := newSyncTable()
	for k, q := range s.waiters {
		c.waiters[k] = append([]int(nil), q...)
	}
	return c
}
