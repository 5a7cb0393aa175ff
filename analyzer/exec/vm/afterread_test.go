package vm_test

import (
	"strings"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load/loadtest"
)

// handOver runs main (thread 0) alone until its k-th preemption point,
// then every other thread until none can run, then main again.
type handOver struct {
	k, seen int
	handed  bool
}

func (h *handOver) Name() string { return "hand over" }

func (h *handOver) Pick(p *sched.Point, runnable []int) (int, error) {
	if p.Thread == 0 && !h.handed {
		if h.seen == h.k {
			h.handed = true
		}
		h.seen++
	}
	for _, t := range runnable {
		if (t != 0) == h.handed {
			return t, nil
		}
	}
	return runnable[0], nil
}

// Under PreemptAfterReads a focused read is a point after it too, and an
// access to the thread's own stack one at all: testdata/explore/
// check_before_lock.c's main reads the closing flag of a device on its
// stack, then takes the lock. Only a switch between the two lets the
// closer release the device before main registers; without the flag no
// point of main's is there.
func TestPreemptAfterReadsOpensTheCheckToTheCloser(t *testing.T) {
	prog := loadtest.Program(t, t.TempDir(), "../../../testdata/explore/check_before_lock.c")
	var check string
	main := prog.Func("main")
	for i := range main.Insts {
		in := &main.Insts[i]
		if loc := prog.LocString(in.Loc); in.Op == ir.OpLoad && strings.Contains(loc, "check_before_lock.c:39:") {
			check = loc
		}
	}
	if check == "" {
		t.Fatal("no load of the closing flag at line 39 in main")
	}
	exposed := func(after bool) bool {
		for k := 0; k < 50; k++ {
			m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"check"}, Policy: &handOver{k: k},
				PreemptAt: []string{check}, PreemptAfterReads: after, MaxInstructions: 1_000_000})
			if err != nil {
				t.Fatal(err)
			}
			if res := m.Run(); res.Term.Kind == vm.TermAssert {
				return true
			}
		}
		return false
	}
	if !exposed(true) {
		t.Error("with PreemptAfterReads no point of main's hands over between the check and the lock")
	}
	if exposed(false) {
		t.Error("without PreemptAfterReads a point of main's hands over between the check and the lock")
	}
}
