// Package memo remembers the answers of pure functions that a long
// analysis asks again and again with the same arguments: demangling the
// functions a report names, hashing the identity of a race that every
// schedule finds. It is safe for concurrent use, and its memory is
// bounded: past a fixed number of answers it starts over, so a language
// server that runs for days holds no more than that.
package memo

import "sync"

// Max is how many answers a Memo holds before it starts over.
const Max = 1 << 16

// Func is a function that remembers its answers.
type Func[K comparable, V any] struct {
	f    func(K) V
	mu   sync.Mutex
	seen map[K]V
}

// New returns f remembering its answers. f must be pure: two goroutines
// asking for a new key at once may both call it.
func New[K comparable, V any](f func(K) V) *Func[K, V] {
	return &Func[K, V]{f: f}
}

// Get returns f(k), calling f only when k's answer is not remembered.
func (m *Func[K, V]) Get(k K) V {
	m.mu.Lock()
	v, ok := m.seen[k]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = m.f(k) // without the lock: f may take long, or ask another memo
	m.mu.Lock()
	if m.seen == nil || len(m.seen) >= Max {
		m.seen = make(map[K]V)
	}
	m.seen[k] = v
	m.mu.Unlock()
	return v
}
