package vm_test

import (
	"reflect"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// epochs is a monitor that records which objects each thread touched
// between two of its synchronization events, and, when quiet, asks the
// machine to skip the rest of such accesses (vm.Machine.Quiet).
type epochs struct {
	m       *vm.Machine
	quiet   bool
	syncs   map[int]int // events per thread so far
	touched map[[3]uint64]bool
	n       int
}

func (e *epochs) Access(a *vm.Access) {
	e.n++
	e.touched[[3]uint64{uint64(a.Thread), uint64(e.syncs[a.Thread]), a.Obj.Serial}] = true
	if e.quiet && !a.Obj.ReadOnly {
		e.m.Quiet(a.Obj, a.Thread)
	}
}

func (e *epochs) Sync(ev vm.SyncEvent) {
	e.syncs[ev.Thread]++
	if ev.Op == vm.Fork || ev.Op == vm.JoinThread {
		e.syncs[ev.Other]++
	}
}

// A quieted object's accesses skip the monitor only until the thread's
// next synchronization: the monitor still sees every object each thread
// touches between two of its events, and fewer accesses in all.
func TestQuietLastsUntilTheThreadSynchronizes(t *testing.T) {
	prog := loadSched(t)
	run := func(quiet bool) *epochs {
		e := &epochs{quiet: quiet, syncs: map[int]int{}, touched: map[[3]uint64]bool{}}
		runMonitored(t, prog, e)
		return e
	}
	all, quiet := run(false), run(true)
	if !reflect.DeepEqual(all.touched, quiet.touched) {
		t.Errorf("quiet runs saw %d (thread, epoch, object) triples, the monitor of every access %d", len(quiet.touched), len(all.touched))
	}
	if quiet.n >= all.n {
		t.Errorf("quiet: %d accesses reported, as many as without (%d)", quiet.n, all.n)
	}
}

// allQuiet is a monitor that asks the machine to skip every raw access
// until the next synchronization event, and records between which
// events the accesses it sees come.
type allQuiet struct {
	m       *vm.Machine
	quiet   bool
	syncs   int
	periods map[int]bool
	n       int
}

func (q *allQuiet) Access(a *vm.Access) {
	q.n++
	q.periods[q.syncs] = true
	if q.quiet {
		q.m.QuietUntilSync()
	}
}

func (q *allQuiet) Sync(vm.SyncEvent) { q.syncs++ }

// QuietUntilSync skips accesses only until the next synchronization event
// of any thread: the first access after each still reaches the monitor.
func TestQuietUntilSyncEndsAtTheNextEvent(t *testing.T) {
	prog := loadSched(t)
	run := func(quiet bool) *allQuiet {
		q := &allQuiet{quiet: quiet, periods: map[int]bool{}}
		runMonitored(t, prog, q)
		return q
	}
	all, quiet := run(false), run(true)
	if !reflect.DeepEqual(all.periods, quiet.periods) {
		t.Errorf("quiet: accesses seen between %d pairs of events, without: %d", len(quiet.periods), len(all.periods))
	}
	if quiet.n >= all.n {
		t.Errorf("quiet: %d accesses reported, as many as without (%d)", quiet.n, all.n)
	}
}

// quietMonitor is a monitor that quiets through the machine it is given
// before the run.
type quietMonitor interface {
	vm.Monitor
	setMachine(m *vm.Machine)
}

func (e *epochs) setMachine(m *vm.Machine)   { e.m = m }
func (q *allQuiet) setMachine(m *vm.Machine) { q.m = m }

// runMonitored runs interleave.c under a seeded random schedule with the
// monitor mon, which has the machine before the run starts.
func runMonitored(t *testing.T, prog *ir.Program, mon quietMonitor) {
	t.Helper()
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"interleave"}, Policy: sched.NewRandom(3), Monitor: mon})
	if err != nil {
		t.Fatal(err)
	}
	mon.setMachine(m)
	if res := m.Run(); res.Term.Kind != vm.TermExit {
		t.Fatalf("run ended with %s", res.Term.Report())
	}
}

// Quiet marks are unique across machines: each numbers its own from a
// block it takes from a shared counter, and a fork takes a block of its
// own, so machines running in parallel never hand out the same mark,
// across the ends of their blocks too. A mark two machines shared would
// leave an object one of them quieted quiet for the other.
func TestMarksAreUniqueAcrossMachines(t *testing.T) {
	m, err := vm.New(loadSched(t), vm.Config{Models: libc.Models(), Args: []string{"interleave"}})
	if err != nil {
		t.Fatal(err)
	}
	vm.NewMark(m) // holds a block, as a running machine does
	machines := []*vm.Machine{m, m.Fork(), m.Fork()}
	seen := map[uint64]bool{}
	for i := 0; i < 2*vm.MarkBlock+3; i++ {
		for k, x := range machines {
			mark := vm.NewMark(x)
			if mark == 0 || seen[mark] {
				t.Fatalf("machine %d handed out mark %d again (or zero), after %d rounds", k, mark, i)
			}
			seen[mark] = true
		}
	}
}

// accessLog records every access a monitor is told of as (thread,
// location, object, offset); rawLog takes the exec loop's inline loads and
// stores as values too (vm.RawMonitor).
type accessLog struct{ seen [][4]uint64 }

func (l *accessLog) Access(a *vm.Access) {
	l.seen = append(l.seen, [4]uint64{uint64(a.Thread), uint64(a.Site.Loc), a.Obj.Serial, a.Off})
}
func (l *accessLog) Sync(vm.SyncEvent) {}

type rawLog struct {
	accessLog
	raw int
}

func (l *rawLog) RawAccess(thread int, loc ir.LocID, o *vm.Object, off uint64) {
	l.raw++
	l.seen = append(l.seen, [4]uint64{uint64(thread), uint64(loc), o.Serial, off})
}

// A monitor that takes raw accesses as values is told of the same
// accesses, in the same order, with the same thread, location, object and
// offset, as one that takes every access as an Access.
func TestRawAccessesAreTheAccesses(t *testing.T) {
	prog := loadSched(t)
	run := func(mon vm.Monitor) {
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"interleave"}, Policy: sched.NewRandom(3), Monitor: mon})
		if err != nil {
			t.Fatal(err)
		}
		if res := m.Run(); res.Term.Kind != vm.TermExit {
			t.Fatalf("run ended with %s", res.Term.Report())
		}
	}
	all, raw := &accessLog{}, &rawLog{}
	run(all)
	run(raw)
	if raw.raw == 0 {
		t.Fatal("no access came as a raw one")
	}
	if !reflect.DeepEqual(all.seen, raw.seen) {
		t.Errorf("%d accesses as values and Accesses (%d raw), %d as Accesses alone", len(raw.seen), raw.raw, len(all.seen))
	}
}

// counted is a monitor that counts the accesses it is handed, by thread;
// watching set, it is a ThreadMonitor of that thread.
type counted struct {
	byThread map[int]int
	syncs    int
}

func (c *counted) Access(a *vm.Access)    { c.byThread[a.Thread]++ }
func (c *counted) Sync(vm.SyncEvent)      { c.syncs++ }
func (c *counted) setMachine(*vm.Machine) {}

type watching struct {
	counted
	thread int
}

func (w *watching) WatchedThread() int { return w.thread }

// A ThreadMonitor is handed its thread's accesses, all of them, and no
// other thread's; synchronization events still come from every thread.
func TestThreadMonitorSeesOneThread(t *testing.T) {
	prog := loadSched(t)
	all := &counted{byThread: map[int]int{}}
	runMonitored(t, prog, all)
	if len(all.byThread) < 2 {
		t.Fatalf("accesses of %d threads, want at least 2", len(all.byThread))
	}
	for tid, n := range all.byThread {
		w := &watching{counted: counted{byThread: map[int]int{}}, thread: tid}
		runMonitored(t, prog, w)
		if len(w.byThread) != 1 || w.byThread[tid] != n {
			t.Errorf("watching thread %d: handed %v, want its %d accesses only", tid, w.byThread, n)
		}
		if w.syncs != all.syncs {
			t.Errorf("watching thread %d: %d synchronization events, want all %d", tid, w.syncs, all.syncs)
		}
	}
}
