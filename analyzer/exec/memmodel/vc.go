package memmodel

// VC is a vector clock indexed by thread id. The race detector changes its
// clocks in place (Set, Join); the weak model shares clocks between
// execution states and never changes one another part may hold (With,
// Joined return new ones).
type VC []uint64

// Get returns the clock of thread t.
func (v VC) Get(t int) uint64 {
	if t >= 0 && t < len(v) {
		return v[t]
	}
	return 0
}

// Set stores c as the clock of thread t, growing v as needed.
func (v *VC) Set(t int, c uint64) {
	for len(*v) <= t {
		*v = append(*v, 0)
	}
	(*v)[t] = c
}

// Join makes v the element-wise maximum of v and o.
func (v *VC) Join(o VC) {
	for len(*v) < len(o) {
		*v = append(*v, 0)
	}
	for i, c := range o {
		if c > (*v)[i] {
			(*v)[i] = c
		}
	}
}

// Clone returns a copy of v.
func (v VC) Clone() VC { return append(VC(nil), v...) }

// With returns a copy of v with thread t's clock set to c.
func (v VC) With(t int, c uint64) VC {
	n := make(VC, max(len(v), t+1))
	copy(n, v)
	n[t] = c
	return n
}

// Joined returns the element-wise maximum of v and o, as a new clock.
func (v VC) Joined(o VC) VC {
	n := make(VC, max(len(v), len(o)))
	copy(n, v)
	for i, c := range o {
		if c > n[i] {
			n[i] = c
		}
	}
	return n
}
