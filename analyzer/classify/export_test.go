package classify

// LendCPUs sets how many processors classification may borrow to run a
// race's later post-race pairs ahead (0: none, every pair in turn), and
// returns what restores the count.
func LendCPUs(n int) (restore func()) {
	cpus.mu.Lock()
	old := cpus.free
	cpus.free = n
	cpus.mu.Unlock()
	return func() {
		cpus.mu.Lock()
		cpus.free = old
		cpus.mu.Unlock()
	}
}

// CPUsLent is how many processors classification has borrowed so far.
func CPUsLent() uint64 {
	cpus.mu.Lock()
	defer cpus.mu.Unlock()
	return cpus.lent
}
