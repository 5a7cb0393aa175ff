package vm

import (
	"runtime"
	"sync/atomic"
)

// The memory backstop (checkMemory) watches the live heap of the whole
// process, but a language server runs several analyses in it at once:
// measured alone, one analysis's execution was stopped for the heap
// growth of another's (a program that holds nothing, stopped under a
// 128 MiB budget with "augur's heap grew by 611 MiB" while a program
// that allocates was analyzed beside it). The ledger below lets an
// execution tell its own analysis's growth from the others': every
// execution under a memory budget publishes its footprint, by analysis,
// and the backstop discounts what the executions of other analyses came
// to hold since it started.

// MemoryAccount gathers the footprints of the executions of one analysis
// (Limits.Account). Its zero value is ready; an execution without one is
// its own account.
type MemoryAccount struct{ held atomic.Int64 }

// processHeld is the sum of the footprints every live execution under a
// memory budget last published, in every account.
var processHeld atomic.Int64

// others returns what the executions outside a hold now.
func (a *MemoryAccount) others() int64 { return processHeld.Load() - a.held.Load() }

// footprintShare is what one execution has published: its footprint at
// its last memory check. An execution nobody references any more gives
// its share back when it is collected, with the memory it held, so an
// execution dropped without being run to its end (a canceled analysis, a
// snapshot let go) is not counted for ever.
type footprintShare struct {
	acct *MemoryAccount
	n    atomic.Int64
}

// publish records fp as the execution's footprint.
func (s *footprintShare) publish(fp uint64) {
	d := int64(fp) - s.n.Swap(int64(fp))
	s.acct.held.Add(d)
	processHeld.Add(d)
}

func (s *footprintShare) release() { s.publish(0) }

// openLedger gives m a share of its own in the account of its analysis
// (a new one when the limits name none; a fork stays in its parent's):
// from here on the backstop charges m for the heap's growth less what
// other analyses' executions came to hold.
func (m *Machine) openLedger() {
	acct := m.cfg.Account
	if m.share != nil {
		acct = m.share.acct
	} else if acct == nil {
		acct = &MemoryAccount{}
	}
	s := &footprintShare{acct: acct}
	m.share = s
	runtime.AddCleanup(m, (*footprintShare).release, s)
}

// startBackstop opens a new execution's ledger and takes the bases the
// backstop measures from: the process's live heap, and what other
// analyses' executions hold, now.
func (m *Machine) startBackstop() {
	m.openLedger()
	m.othersBase = m.share.acct.others()
	m.heapBase = heapLive()
}
