package vm

import "strconv"

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
	// The network (net.go): data in a pipe, room in one (by pipe id), a
	// connection to accept, a datagram (by socket id), and readiness
	// (poll, select, epoll_wait: one queue).
	waitPipe
	waitPipeSpace
	waitAccept
	waitDgram
	waitPoll
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

// block parks t on queue k. What t waits for is described only if a
// deadlock report asks (waitDescription): a contended lock blocks a thread
// at every other acquisition, and formatting the mutex's name each time
// cost more than the rest of the lock.
func (s *syncTable) block(t *Thread, k waitKey) {
	t.status = blocked
	t.waitOn, t.waiting = k, true
	s.waiters[k] = append(s.waiters[k], t.ID)
}

// wake makes every thread waiting on k runnable.
func (s *syncTable) wake(k waitKey, m *Machine) {
	if len(s.waiters) == 0 {
		return // the common unlock: nobody waits anywhere, no key to hash
	}
	for _, id := range s.waiters[k] {
		m.threads[id].status = runnable
		m.threads[id].waiting = false
	}
	delete(s.waiters, k)
}

// wakeOne makes the first thread waiting on k runnable and reports whether
// there was one.
func (s *syncTable) wakeOne(k waitKey, m *Machine) bool {
	if len(s.waiters) == 0 {
		return false
	}
	q := s.waiters[k]
	if len(q) == 0 {
		return false
	}
	m.threads[q[0]].status = runnable
	m.threads[q[0]].waiting = false
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

// waitObject names the synchronization object of each wait queue kind in
// deadlock reports.
var waitObject = [...]string{waitCond: "condition variable", waitBarrier: "barrier", waitOnce: "pthread_once",
	waitRWLock: "rwlock", waitSpin: "spinlock", waitSem: "semaphore"}

// waitDescription says what blocked thread t waits for, for a deadlock
// report: the synchronization object it is queued on, or a sleep.
func (m *Machine) waitDescription(t *Thread) string {
	switch k := t.waitOn; {
	case !t.waiting:
		return t.waitDesc
	case k.kind == waitMutex:
		return m.mutexWait(k.addr)
	case k.kind == waitJoin:
		return "pthread_join of thread " + strconv.FormatUint(k.addr, 10)
	case k.kind >= waitPipe && k.kind <= waitPoll:
		return netWaits[k.kind]
	case int(k.kind) < len(waitObject):
		return waitObject[k.kind] + " at " + m.DescribeAddr(k.addr)
	}
	return ""
}
