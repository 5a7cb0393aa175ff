package vm

import (
	"path"

	"augur/analyzer/frontend/ir"
)

// Thread names. Linux names a thread by its task's comm: the program's
// file name at first, copied into each new thread from its creator, and
// set by pthread_setname_np (and prctl's PR_SET_NAME, in the runtime's
// posix.c) to at most 15 bytes.
// A program that logs its threads' names prints what it would natively.

// maxThreadName is the longest name a thread takes (TASK_COMM_LEN - 1).
const maxThreadName = 15

// threadName is t's name: the one set, or the program's file name as the
// kernel keeps it.
func (m *Machine) threadName(t *Thread) string {
	if t.name != "" {
		return t.name
	}
	name := "augur"
	if len(m.cfg.Args) > 0 && m.cfg.Args[0] != "" {
		name = path.Base(m.cfg.Args[0])
	}
	if len(name) > maxThreadName {
		name = name[:maxThreadName]
	}
	return name
}

func (tab *Models) addThreadNames() {
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		target := m.pthreadArg(a[0].Bits, res)
		if target == nil {
			return nil
		}
		name, err := m.CString(a[1].Bits)
		if err != nil {
			return err
		}
		if len(name) > maxThreadName {
			SetResult(res, ERANGE)
			return nil
		}
		target.name = name
		SetResult(res, 0)
		return nil
	}, "pthread_setname_np")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		target := m.pthreadArg(a[0].Bits, res)
		if target == nil {
			return nil
		}
		name := m.threadName(target)
		if uint64(len(name)) >= a[2].Bits {
			SetResult(res, ERANGE)
			return nil
		}
		SetResult(res, 0)
		return m.StoreString(a[1].Bits, []byte(name), a[2].Bits, true)
	}, "pthread_getname_np")
}
