package libc

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Time is virtual: it starts at a fixed instant and advances with the
// instructions run and when every thread sleeps, so runs are reproducible.
// Every read of a clock is recorded as an input of the execution
// (vm.InputEvent).
func (tab table) addTime() {
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		s := uint64(m.Clock(t, in, "time") / 1e9)
		vm.SetResult(res, s)
		if a[0].Bits != 0 {
			return m.WriteUint(a[0].Bits, 8, s)
		}
		return nil
	}, "time")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		now := m.Clock(t, in, "gettimeofday")
		vm.SetResult(res, 0)
		if err := m.WriteUint(a[0].Bits, 8, uint64(now/1e9)); err != nil {
			return err
		}
		return m.WriteUint(a[0].Bits+8, 8, uint64(now%1e9/1e3))
	}, "gettimeofday")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		now := m.Clock(t, in, "clock_gettime")
		vm.SetResult(res, 0)
		if err := m.WriteUint(a[1].Bits, 8, uint64(now/1e9)); err != nil {
			return err
		}
		return m.WriteUint(a[1].Bits+8, 8, uint64(now%1e9))
	}, "clock_gettime")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, m.CPUTime(t, in))
		return nil
	}, "clock")
	sleep := func(unit int64) model {
		return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			vm.SetResult(res, 0)
			return m.Sleep(t, int64(a[0].Bits&0xffffffff)*unit)
		}
	}
	tab.register(sleep(1e9), "sleep")
	tab.register(sleep(1e3), "usleep")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		if m.Resuming(t) { // the sleep is over
			return m.Sleep(t, 0)
		}
		d, err := m.TimespecNs(a[0].Bits)
		if err != nil {
			return err
		}
		return m.Sleep(t, d)
	}, "nanosleep")
}
