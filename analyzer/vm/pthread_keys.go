package vm

import "augur/analyzer/ir"

// Thread-specific data. Destructors registered with pthread_key_create are
// not run at thread exit (a documented limitation).
func registerKeys() {
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		m.nextKey++
		SetResult(res, 0)
		return m.WriteUint(a[0].Bits, 4, m.nextKey)
	}, "pthread_key_create")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		for _, th := range m.threads {
			delete(th.keys, a[0].Bits)
		}
		SetResult(res, 0)
		return nil
	}, "pthread_key_delete")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, t.keys[a[0].Bits])
		return nil
	}, "pthread_getspecific")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.keys == nil {
			t.keys = map[uint64]uint64{}
		}
		t.keys[a[0].Bits] = a[1].Bits
		SetResult(res, 0)
		return nil
	}, "pthread_setspecific")
}

// SV-COMP's atomic sections: __VERIFIER_atomic_begin/end bracket code that
// runs without preemption and as one critical section (functions named
// __VERIFIER_atomic_* get the same treatment in pushFrame).
func init() {
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.atomicDepth++
		m.syncEvent(t, Acquire, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_begin")
	Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.atomicDepth > 0 {
			t.atomicDepth--
		}
		m.syncEvent(t, Release, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_end")
}
