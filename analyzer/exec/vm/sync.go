package vm

import (
	"slices"
	"strconv"
)

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
	waitFutex
	// The network (package libc's net.go): data in a pipe, room in one
	// (by pipe id), a connection to accept, a datagram (by socket id),
	// readiness (poll, select, epoll_wait: one queue), and the other end
	// of a FIFO to be opened.
	waitPipe
	waitPipeSpace
	waitAccept
	waitDgram
	waitPoll
	waitFifo
	waitFileLock
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
//
// The queues are a list searched in order rather than a map: there are
// rarely more than a few at a time (a queue goes when its last thread
// leaves it), and a contended mutex blocks and wakes a thread at every
// other acquisition, where hashing the key cost more than the search.
type syncTable struct {
	queues []waitQueue
	// spare holds the thread lists of dropped queues for reuse: a
	// contended mutex makes and drops a queue at every other acquisition.
	spare [][]int
}

type waitQueue struct {
	key     waitKey
	threads []int
}

func newSyncTable() *syncTable { return &syncTable{} }

// find returns the index of queue k, or -1.
func (s *syncTable) find(k waitKey) int {
	for i := range s.queues {
		if s.queues[i].key == k {
			return i
		}
	}
	return -1
}

// drop removes queue i, keeping the others in order.
func (s *syncTable) drop(i int) {
	if q := s.queues[i].threads; cap(q) > 0 && len(s.spare) < 16 {
		s.spare = append(s.spare, q[:0])
	}
	s.queues = append(s.queues[:i], s.queues[i+1:]...)
}

// block parks t on queue k. What t waits for is described only if a
// deadlock report asks (waitDescription): a contended lock blocks a thread
// at every other acquisition, and formatting the mutex's name each time
// cost more than the rest of the lock.
func (s *syncTable) block(t *Thread, k waitKey) {
	t.status = blocked
	t.waitOn, t.waiting = k, true
	if i := s.find(k); i >= 0 {
		s.queues[i].threads = append(s.queues[i].threads, t.ID)
		return
	}
	var threads []int
	if n := len(s.spare); n > 0 {
		threads, s.spare = s.spare[n-1], s.spare[:n-1]
	}
	s.queues = append(s.queues, waitQueue{key: k, threads: append(threads, t.ID)})
}

// wake makes every thread waiting on k runnable.
func (s *syncTable) wake(k waitKey, m *Machine) {
	i := s.find(k)
	if i < 0 {
		return
	}
	for _, id := range s.queues[i].threads {
		m.threads[id].status = runnable
		m.threads[id].waiting = false
	}
	s.drop(i)
}

// wakeOne makes the first thread waiting on k runnable and reports whether
// there was one.
func (s *syncTable) wakeOne(k waitKey, m *Machine) bool {
	i := s.find(k)
	if i < 0 {
		return false
	}
	q := s.queues[i].threads
	m.threads[q[0]].status = runnable
	m.threads[q[0]].waiting = false
	if len(q) == 1 {
		s.drop(i)
	} else {
		s.queues[i].threads = q[1:]
	}
	return true
}

// remove takes thread id off every queue it waits on (a timeout, a
// cancellation).
func (s *syncTable) remove(id int) {
	for i := 0; i < len(s.queues); i++ {
		q := s.queues[i].threads
		if j := slices.Index(q, id); j >= 0 {
			s.queues[i].threads = append(q[:j:j], q[j+1:]...)
			if len(s.queues[i].threads) == 0 {
				s.drop(i)
				i--
			}
		}
	}
}

// fork returns an independent copy for a forked execution state.
func (s *syncTable) fork() *syncTable {
	c := &syncTable{queues: make([]waitQueue, len(s.queues))}
	for i, q := range s.queues {
		c.queues[i] = waitQueue{key: q.key, threads: slices.Clone(q.threads)}
	}
	return c
}

// waitObject names the synchronization object of each wait queue kind in
// deadlock reports.
var waitObject = [...]string{waitMutex: "mutex", waitCond: "condition variable", waitBarrier: "barrier", waitOnce: "pthread_once",
	waitRWLock: "rwlock", waitSpin: "spinlock", waitSem: "semaphore", waitFutex: "futex"}

// netWaits names what the threads in the network's wait queues wait for.
var netWaits = map[waitKind]string{waitPipe: "data on a pipe or socket", waitPipeSpace: "room in a pipe or socket",
	waitAccept: "a connection to accept", waitPoll: "a descriptor to become ready (poll, select or epoll_wait)",
	waitDgram: "a datagram", waitFifo: "the other end of a FIFO to be opened",
	waitFileLock: "a lock on a file (fcntl or flock) to be released"}

// waitDescription says what blocked thread t waits for, for a deadlock
// report: the synchronization object it is queued on, or a sleep.
func (m *Machine) waitDescription(t *Thread) string {
	switch k := t.waitOn; {
	case !t.waiting:
		return t.waitDesc
	case k.kind == waitJoin:
		return "pthread_join of thread " + strconv.FormatUint(k.addr, 10)
	case k.kind >= waitPipe && k.kind <= waitFileLock:
		return netWaits[k.kind]
	case int(k.kind) < len(waitObject):
		desc := waitObject[k.kind] + " at " + m.DescribeAddr(k.addr)
		if h := m.cfg.Models.holders[k.kind]; h != nil {
			if owner, err := h(m, k.addr); err == nil && owner != 0 {
				desc += " held by thread " + strconv.FormatUint(owner-1, 10)
			}
		}
		return desc
	}
	return ""
}
