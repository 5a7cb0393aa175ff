package vm

import (
	"cmp"

	"augur/analyzer/frontend/ir"
)

// Thread-specific data. A key's destructor runs when a thread that holds a
// value for it exits (returns from its start routine, or pthread_exit or
// cancellation once the cleanup handlers are done), as glibc runs them:
// the value is cleared, then the destructor is called with it, key by key,
// again while values are left, up to destructorRounds passes. The main
// thread's return from main exits the process, which runs none.
func (tab *Models) registerKeys() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		m.nextKey++
		m.keyDtors = append(m.keyDtors, a[1].Bits)
		SetResult(res, 0)
		return m.WriteUint(a[0].Bits, 4, m.nextKey)
	}, "pthread_key_create")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		key := a[0].Bits
		for _, th := range m.threads {
			delete(th.keys, key)
		}
		if key >= 1 && key <= uint64(len(m.keyDtors)) {
			m.keyDtors[key-1] = 0 // a deleted key's destructor never runs
		}
		SetResult(res, 0)
		return nil
	}, "pthread_key_delete")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, t.keys[a[0].Bits])
		return nil
	}, "pthread_getspecific")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.keys == nil {
			t.keys = map[uint64]uint64{}
		}
		t.keys[a[0].Bits] = a[1].Bits
		SetResult(res, 0)
		return nil
	}, "pthread_setspecific")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.atExit = append(t.atExit, threadDtor{fn: a[0].Bits, obj: a[1].Bits})
		SetResult(res, 0)
		return nil
	}, "__cxa_thread_atexit", "__cxa_thread_atexit_impl")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if pushed, err := m.runThreadDtor(t, in.Loc, -3); pushed || err != nil {
			return cmp.Or(err, errPushed)
		}
		return nil
	}, "__augur_thread_dtors")
}

// A threadDtor is the destructor of a thread_local object, which a C++
// program registers (__cxa_thread_atexit) when it first constructs it in
// a thread: fn(obj) runs when that thread exits, the last registered
// first, before the thread-specific data destructors, as in glibc. The
// thread that calls exit() runs its own through __augur_thread_dtors,
// before the atexit handlers and static destructors.
type threadDtor struct{ fn, obj uint64 }

// runThreadDtor starts the last destructor t registered for a
// thread_local object, as a frame returning to ret: -3 at exit() (its
// call to __augur_thread_dtors is executed again, for the next one), or
// retDestructor at the thread's end. It reports whether it started one:
// false when none is left.
func (m *Machine) runThreadDtor(t *Thread, at ir.LocID, ret int32) (pushed bool, err error) {
	n := len(t.atExit)
	if n == 0 {
		return false, nil
	}
	d := t.atExit[n-1]
	t.atExit = t.atExit[:n-1]
	fn := m.funcAt(d.fn)
	if fn == nil || fn.Decl {
		return false, terminate(TermCrash, SIGSEGV, "thread_local destructor 0x%x is not a function of the program", d.fn)
	}
	return true, m.pushFrame(t, fn, []Value{{Bits: d.obj}}, nil, ret, at)
}

// destructorRounds is glibc's PTHREAD_DESTRUCTOR_ITERATIONS: how many
// passes over the keys an exiting thread makes while destructors leave
// values behind.
const destructorRounds = 4

// retDestructor is the return slot of a destructor's frame: its return
// goes on with the thread's exit.
const retDestructor = -4

// runDestructor starts the next destructor due at t's exit, on a thread
// with no frame left, and reports whether it did: the thread_local
// objects' (runThreadDtor) first, then the key with the lowest number that
// holds a value and has a destructor. Its frame's return (a
// return with no caller) comes back here.
func (m *Machine) runDestructor(t *Thread) (bool, error) {
	if pushed, err := m.runThreadDtor(t, 0, retDestructor); pushed || err != nil {
		return pushed, err
	}
	if len(t.keys) == 0 || t.dtorCalls >= destructorRounds*len(m.keyDtors) {
		return false, nil
	}
	for k, dtor := range m.keyDtors {
		key := uint64(k + 1)
		v := t.keys[key]
		if v == 0 || dtor == 0 {
			continue
		}
		fn := m.funcAt(dtor)
		if fn == nil || fn.Decl {
			return false, terminate(TermCrash, SIGSEGV, "pthread key %d: destructor 0x%x is not a function of the program", key, dtor)
		}
		delete(t.keys, key)
		t.dtorCalls++
		return true, m.pushFrame(t, fn, []Value{{Bits: v}}, nil, retDestructor, 0)
	}
	return false, nil
}

// SV-COMP's atomic sections: __VERIFIER_atomic_begin/end bracket code that
// runs without preemption and as one critical section (functions named
// __VERIFIER_atomic_* get the same treatment in pushFrame).
func (tab *Models) addVerifierAtomics() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		t.atomicDepth++
		m.syncEvent(t, Acquire, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_begin")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if t.atomicDepth > 0 {
			t.atomicDepth--
		}
		m.syncEvent(t, Release, keyVerifier, 0)
		return nil
	}, "__VERIFIER_atomic_end")
}
