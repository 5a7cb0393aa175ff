package sched

// FairPoints is how many of its own preemption points in a row a thread
// goes through, picked again at each, before PCT drops it below the other
// threads and a Bounded schedule makes it give way, as if its time slice
// had ended. A thread that spins on an atomic flag, or polls under a lock,
// reaches a point every few instructions: without this it kept the thread
// it waited for off the processor for a whole slice, a million
// instructions, per hand-over, and a program that hands over a few
// hundred items that way exhausted the instruction budget: a hang that
// was the schedule's, not the program's.
const FairPoints = 64

// streak counts the decisions in a row at which the thread that reached
// the point went on (PCT, Bounded).
type streak int

// due counts p and reports whether its thread, having gone on through
// FairPoints of its points, is to give way here. It gives way only at a
// point that takes no lock: made to give way just after it took one, it
// would hold the lock while the thread it gave way to spins on it, and a
// thread polling under a lock (take, look, let go) would give way holding
// it at every turn, since its points come in pairs.
func (s *streak) due(p *Point) bool {
	if p.Thread >= 0 {
		*s++
	}
	return *s >= FairPoints && !takesLock(p.What)
}

// picked ends the streak when p's thread gave way or another was chosen.
func (s *streak) picked(p *Point, next int, gaveWay bool) {
	if gaveWay || next != p.Thread {
		*s = 0
	}
}

// takesLock reports whether what is a call that may take a lock.
func takesLock(what string) bool {
	takes, _ := lockCall(what)
	return takes
}

// lockCall reports whether what is a call that may take a lock, and
// whether it waits for the lock: after a call that waits, a thread that is
// still runnable holds the lock; after a try or a timed lock it may not.
func lockCall(what string) (takes, waits bool) {
	switch what {
	case "pthread_mutex_lock", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_spin_lock":
		return true, true
	case "pthread_mutex_trylock", "pthread_mutex_timedlock", "pthread_mutex_clocklock",
		"pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock",
		"pthread_rwlock_timedrdlock", "pthread_rwlock_timedwrlock", "pthread_rwlock_clockrdlock", "pthread_rwlock_clockwrlock",
		"pthread_spin_trylock":
		return true, false
	}
	return false, false
}
