package sched

import (
	"sync"
	"sync/atomic"
)

// event is an Event as a trace stores it: its two texts are numbers in the
// trace's table of names, so that it holds no pointer (the collector
// never scans a trace's events, which a long schedule has hundreds of
// thousands of) and takes 24 bytes instead of 56.
type event struct {
	key   eventKey
	insts uint64
}

// eventKey is what tells two decisions apart, the instruction count
// aside: equal keys are the same decision.
type eventKey struct {
	thread, next int32
	loc, what    uint32
}

// names numbers the texts of a trace's events, each distinct text once.
// A trace and its forks share one table, and forks may record in parallel
// goroutines, so the numbers a text gets depend on which of them met it
// first: they are compared only for equality, never ordered or written
// out.
type names struct {
	mu  sync.Mutex
	ids map[string]uint32
	// texts is indexed by number. It only grows; a reader loads it
	// without the lock and finds every number it was given.
	texts atomic.Pointer[[]string]
}

func newNames() *names {
	n := &names{ids: map[string]uint32{}}
	n.texts.Store(new([]string))
	return n
}

// id returns the number of s, giving it the next one when it has none.
func (n *names) id(s string) uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if id, ok := n.ids[s]; ok {
		return id
	}
	texts := append(*n.texts.Load(), s)
	id := uint32(len(texts) - 1)
	n.ids[s] = id
	n.texts.Store(&texts)
	return id
}

// text returns the text numbered id.
func (n *names) text(id uint32) string { return (*n.texts.Load())[id] }

// nameMemo is a slot of a trace's memo of recent texts and their numbers,
// which spares most events the table's lock and hash: a program's
// decisions come from a few places.
type nameMemo struct {
	s  string
	id uint32
	ok bool
}

// memoSlots is the size of a trace's memo.
const memoSlots = 64

// nameID returns the number of s in the trace's table, making the table
// when the trace has none.
func (t *Trace) nameID(s string) uint32 {
	// A location's text is made once for the program
	// (ir.Program.LocString) and an operation's is a constant, so the same
	// text comes back at the same address; a text made anew each time
	// only misses the memo, and the slot's string comparison keeps every
	// hit right.
	m := &t.memo[textSlot(s, memoSlots)]
	if m.ok && m.s == s {
		return m.id
	}
	if t.names == nil {
		t.names = newNames()
	}
	id := t.names.id(s)
	*m = nameMemo{s: s, id: id, ok: true}
	return id
}

// pack returns e as the trace stores it.
func (t *Trace) pack(e Event) event {
	return event{key: eventKey{thread: int32(e.Thread), next: int32(e.Next), loc: t.nameID(e.Loc), what: t.nameID(e.What)},
		insts: e.Insts}
}

// unpack returns the Event x stands for.
func (t *Trace) unpack(x event) Event {
	return Event{Thread: int(x.key.thread), Loc: t.names.text(x.key.loc), What: t.names.text(x.key.what), Insts: x.insts,
		Next: int(x.key.next)}
}
