package memmodel

// SyncOp is a synchronization operation, as the interpreter reports it to
// the race detector and the weak model.
type SyncOp uint8

const (
	// Acquire: the thread learns everything released to the key.
	Acquire SyncOp = iota
	// Release: the key now holds exactly what the thread knows (mutex
	// unlock).
	Release
	// ReleaseMerge: the key accumulates what the thread knows (semaphore
	// post, barrier arrival, read unlock).
	ReleaseMerge
	// Fork: thread Other starts, knowing everything the thread knows.
	Fork
	// JoinThread: the thread learns everything the exited thread Other
	// knew.
	JoinThread
	// LockAcquired and LockReleased report mutual-exclusion locks being
	// taken and released (for lock-order analysis); they imply nothing for
	// happens-before beyond the Acquire/Release events sent with them.
	LockAcquired
	LockReleased
)

// SyncKey names a synchronization object: its kind (a mutex, a
// condition variable, an atomic location, ...) and address.
type SyncKey struct {
	Kind uint8
	Addr uint64
}
