package vm

import (
	"runtime"
	"testing"
)

// ledgerMachine is an execution under a 128 MiB budget in account a, as
// far as the memory backstop sees it.
func ledgerMachine(a *MemoryAccount) *Machine {
	m := &Machine{cfg: Config{Limits: Limits{MaxMemory: 128 << 20, Account: a}}}
	runtime.GC()
	m.startBackstop()
	return m
}

// The backstop charges an execution for the heap's growth, less what the
// executions of other analyses came to hold meanwhile: a language server
// analyzing a program that allocates beside one that holds nothing
// stopped the second for the first's memory. Growth in the execution's
// own analysis, or that no execution published, is still charged. (Not
// parallel: the heap is the whole process's.)
func TestBackstopChargesTheAnalysisItsOwnGrowth(t *testing.T) {
	const held = 96 << 20
	cases := []struct {
		name     string
		account  func(mine *MemoryAccount) *MemoryAccount // nil: not published
		charged  bool
		discount int64
	}{
		{"another analysis's execution", func(*MemoryAccount) *MemoryAccount { return &MemoryAccount{} }, false, held},
		{"an execution of the same analysis", func(mine *MemoryAccount) *MemoryAccount { return mine }, true, 0},
		{"memory no execution counts", nil, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mine := &MemoryAccount{}
			m := ledgerMachine(mine)
			block := make([]byte, held)
			for i := 0; i < len(block); i += 4096 {
				block[i] = 1
			}
			var other *footprintShare
			if c.account != nil {
				other = &footprintShare{acct: c.account(mine)}
				other.publish(held)
			}
			runtime.GC()
			grew, others := m.heapGrowth()
			runtime.KeepAlive(block)
			if other != nil {
				other.release()
			}
			if others != c.discount {
				t.Errorf("discounted %d bytes, want %d", others, c.discount)
			}
			if c.charged && grew < held-held/8 || !c.charged && (grew > held/4 || grew < -held/4) {
				t.Errorf("charged for %d MiB of growth with %d MiB held elsewhere (charged: %v)", grew>>20, held>>20, c.charged)
			}
		})
	}
}

// An execution's share follows its footprint, a fork gets a share of its
// own in its parent's account, and an execution let go without ending
// gives its share back when it is collected.
func TestLedgerShares(t *testing.T) {
	a := &MemoryAccount{}
	m := ledgerMachine(a)
	m.share.publish(10 << 20)
	c := &Machine{share: m.share, cfg: m.cfg}
	c.openLedger()
	if c.share == m.share || c.share.acct != a {
		t.Fatal("a fork shares its parent's share or leaves its account")
	}
	c.share.publish(5 << 20)
	if got := a.held.Load(); got != 15<<20 {
		t.Fatalf("account holds %d, want 15 MiB", got)
	}
	m.share.publish(2 << 20)
	if got := a.held.Load(); got != 7<<20 {
		t.Fatalf("account holds %d after a footprint shrank, want 7 MiB", got)
	}
	m, c = nil, nil
	for i := 0; i < 100 && a.held.Load() != 0; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := a.held.Load(); got != 0 {
		t.Fatalf("account still holds %d after its executions were collected", got)
	}
}

// Another analysis's execution that gives its share back while the
// memory it counted stays live (held by a fork of it that counted the
// same pages, or by a result) does not charge this execution for the
// drop: the language server's e2e test stopped a program that holds
// nothing with "augur's heap grew by 386.5 MiB", the heap unchanged and
// the other account 384 MiB lower than when the execution started.
func TestBackstopIgnoresSharesGivenBack(t *testing.T) {
	const held = 96 << 20
	other := &footprintShare{acct: &MemoryAccount{}}
	other.publish(held)
	m := ledgerMachine(&MemoryAccount{})
	other.release()
	grew, others := m.heapGrowth()
	if others != 0 {
		t.Errorf("discounted %d bytes for a share given back, want 0", others)
	}
	if grew > held/4 {
		t.Errorf("charged for %d MiB of growth when another analysis gave back its share", grew>>20)
	}
}
