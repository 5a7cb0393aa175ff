package vm

import (
	"fmt"
	"sync/atomic"

	"augur/analyzer/ir"
)

// Weak memory (Portend+'s SMCM, section 4.5 of the paper). Under
// sequential consistency a read returns the last write. Under the weak
// model a read R of a location may return any earlier write A to it unless
// some write B to it has A happens-before B happens-before R; a thread
// that reads a location again with no write to it in between reads the
// same value (write buffering). Happens-before comes from this state's own
// vector clocks, kept from the synchronization events the execution makes
// (independently of any monitor), shared copy-on-write between forked
// states.
//
// What is buffered: plain scalar loads and stores (up to 8 bytes, at the
// size they were written) of globals and heap objects. Atomic accesses keep
// their ordering semantics: an atomic write makes the location sequentially
// consistent again (its history is dropped) and atomic loads read the
// latest value; acquire and release create happens-before edges that
// restrict what plain reads may see. Stack objects, aggregates and
// accesses of another size than the location's writes read the latest
// value. A read that can return several values forks the state once per
// value (like a symbolic branch); the state that forks keeps the latest
// value, which is the sequentially consistent one.

// Weak configures the weak memory model of a run; nil means sequential
// consistency. One Weak is shared by every state of one exploration.
type Weak struct {
	// MaxForks bounds the states reads may fork; past it a read returns
	// the latest value (and Stats.ForksRefused counts it).
	MaxForks int
	// Choices replays recorded read-value choices: the read by Thread as
	// its Count-th instruction returns Value instead of the latest value.
	Choices []WeakChoice
	Stats   WeakStats
}

// WeakStats count the weak model's work.
type WeakStats struct {
	Forks        int // states forked at reads with several visible values
	ForksRefused int
	StaleReads   int // reads that returned an older value than the latest
}

// WeakChoice is a read that returned an older value than the last write:
// what evidence records so a replay reproduces it.
type WeakChoice struct {
	Thread int      `json:"thread"`
	Count  uint64   `json:"count"` // the thread's instruction count at the read
	Loc    ir.LocID `json:"-"`
	Value  uint64   `json:"value"`
	Object string   `json:"object"`
	ReadAt string   `json:"read_at"`
	// Read is the write the value came from; Missed are the newer writes
	// the read did not see (the newest last).
	Read   WeakWrite   `json:"read"`
	Missed []WeakWrite `json:"missed"`
}

// WeakWrite describes a buffered write for explanations.
type WeakWrite struct {
	Object string   `json:"object,omitempty"`
	Thread int      `json:"thread"` // -1: the initial contents
	Seq    uint64   `json:"seq"`    // order among this execution's writes
	Loc    ir.LocID `json:"-"`
	At     string   `json:"at,omitempty"`
	Value  uint64   `json:"value"`
}

// staleRereads bounds how often a thread re-reads the same stale value
// with no write in between (a spin loop on a flag): past it the latest
// write becomes visible, as a real store buffer drains in bounded time.
// Without it every spin on a stale value would look like a hang.
const staleRereads = 64

// weakVC is a vector clock; a clock is never changed once another part of
// the state may hold it (it is replaced), so clocks are shared freely.
type weakVC []uint64

func (v weakVC) get(t int) uint64 {
	if t >= 0 && t < len(v) {
		return v[t]
	}
	return 0
}

func (v weakVC) with(t int, c uint64) weakVC {
	n := make(weakVC, max(len(v), t+1))
	copy(n, v)
	n[t] = c
	return n
}

func (v weakVC) join(o weakVC) weakVC {
	n := make(weakVC, max(len(v), len(o)))
	copy(n, v)
	for i, c := range o {
		if c > n[i] {
			n[i] = c
		}
	}
	return n
}

// hbClocks are the happens-before clocks of one execution state: each
// thread's and each synchronization object's.
type hbClocks struct {
	threads []weakVC // by thread id; nil: the thread has no clock yet
	syncs   map[SyncKey]weakVC
}

// setThread sets thread t's clock.
func (h *hbClocks) setThread(t int, c weakVC) {
	for t >= len(h.threads) {
		h.threads = append(h.threads, nil)
	}
	h.threads[t] = c
}

func (h *hbClocks) clone() *hbClocks {
	c := &hbClocks{threads: append([]weakVC(nil), h.threads...), syncs: make(map[SyncKey]weakVC, len(h.syncs))}
	for k, v := range h.syncs {
		c.syncs[k] = v
	}
	return c
}

// wWrite is one buffered write.
type wWrite struct {
	val    uint64
	thread int    // -1: a value that happens before every access (initial contents)
	epoch  uint64 // the writer's own clock when it wrote
	vc     weakVC // the writer's clock when it wrote
	seq    uint64 // order of the writes to this location
	loc    ir.LocID
}

// readBinding is the last value a thread read from (or wrote to) a
// location, and how far along the location's writes it has come.
type readBinding struct {
	seq     uint64 // the write read
	nwrites uint64 // the location's write count then
	rereads int
	// floor is coherence: the thread has seen (read or written) the write
	// with this seq, so it can never read an older one of this location.
	floor uint64
}

// wBuf is the write history of one location.
type wBuf struct {
	size    uint64
	writes  []wWrite      // in the order they ran
	base    []wWrite      // the array writes slides along (see push)
	nwrites uint64        // writes ever made
	reads   []readBinding // by thread id; the zero binding: not bound
	gen     uint64        // the weakState generation that may change it in place
}

// push appends a write, dropping the oldest past maxHistory. The
// history slides along a backing array of twice that size and moves back
// to its start only when it reaches the end: a location written in a loop
// costs a copy of the history every maxHistory writes, not every write.
func (b *wBuf) push(nw wWrite) {
	if len(b.writes) >= maxHistory {
		b.writes = b.writes[len(b.writes)-maxHistory+1:]
	}
	if len(b.writes) == cap(b.writes) && len(b.writes) >= maxHistory-1 {
		if cap(b.base) < 2*maxHistory {
			b.base = make([]wWrite, 2*maxHistory)
		}
		n := copy(b.base, b.writes)
		b.writes = b.base[:n]
	}
	b.writes = append(b.writes, nw)
}

// binding returns thread t's binding to the location, and whether it has
// one.
func (b *wBuf) binding(t int) (readBinding, bool) {
	if t < len(b.reads) && b.reads[t].nwrites != 0 {
		return b.reads[t], true
	}
	return readBinding{}, false
}

// bind sets thread t's binding.
func (b *wBuf) bind(t int, rb readBinding) {
	for t >= len(b.reads) {
		b.reads = append(b.reads, readBinding{})
	}
	b.reads[t] = rb
}

// bufKey names a location: object id and offset packed in a word (an
// object is smaller than 4 GiB), so history lookups hash one integer.
type bufKey uint64

func keyOf(obj uint32, off uint64) bufKey { return bufKey(uint64(obj)<<32 | off) }

func (k bufKey) obj() uint32 { return uint32(k >> 32) }
func (k bufKey) off() uint64 { return uint64(k) & (1<<32 - 1) }

// weakState is the weak-memory part of one execution state.
type weakState struct {
	*Weak
	hb      *hbClocks
	hbOwned bool
	bufs    map[bufKey]*wBuf
	bufsOwn bool
	// lastK and lastB remember the last history looked up (see buf).
	lastK bufKey
	lastB *wBuf
	gen   uint64
	// reads makes loads choose among visible values (and fork); off, they
	// read the latest value and only keep the bookkeeping.
	reads bool
	// forced is the value a fork must read when it re-executes its load.
	forced *forcedRead
	// choices are this state's stale reads, in order; observed are the
	// writes of other threads its reads returned (the latest 64), to
	// explain a stale read by what the thread did see.
	choices  []WeakChoice
	observed []WeakWrite
	seq      uint64
}

const maxObserved = 64

type forcedRead struct {
	thread int
	key    bufKey
	seq    uint64
}

// weakGen numbers weak states, so a history knows which state may change
// it in place. Classification runs races on several goroutines.
var weakGen atomic.Uint64

// maxHistory bounds the writes kept per location: older ones are dropped
// (they can no longer be read), so a loop that writes a shared variable
// does not make every later read fork a thousand ways.
const maxHistory = 16

// footprint estimates the memory the state's histories and clocks hold:
// a history keeps at most maxHistory writes, each with its writer's clock.
func (w *weakState) footprint() uint64 {
	n := uint64(len(w.hb.threads)+len(w.hb.syncs)) * 96
	n += uint64(len(w.bufs)) * (128 + 4*(64+8*uint64(len(w.hb.threads)))) // about 4 writes kept per location
	return n + uint64(len(w.choices)+len(w.observed))*128
}

func newWeakState(w *Weak) *weakState {
	return &weakState{Weak: w, hb: &hbClocks{threads: []weakVC{{1}}, syncs: map[SyncKey]weakVC{}},
		hbOwned: true, bufs: map[bufKey]*wBuf{}, bufsOwn: true, gen: weakGen.Add(1)}
}

// fork shares everything copy-on-write: neither side copies clocks or
// histories until it changes them.
func (w *weakState) fork() *weakState {
	c := *w
	c.gen = weakGen.Add(1)
	c.hbOwned, c.bufsOwn = false, false
	w.hbOwned, w.bufsOwn = false, false
	w.gen = weakGen.Add(1)
	c.choices = w.choices[:len(w.choices):len(w.choices)]
	c.observed = w.observed[:len(w.observed):len(w.observed)]
	c.forced = nil
	c.lastB, w.lastB = nil, nil
	return &c
}

func (w *weakState) clocks() *hbClocks {
	if !w.hbOwned {
		w.hb = w.hb.clone()
		w.hbOwned = true
	}
	return w.hb
}

// clock is thread t's vector clock.
func (w *weakState) clock(t int) weakVC {
	if t < len(w.hb.threads) && w.hb.threads[t] != nil {
		return w.hb.threads[t]
	}
	return weakVC{}.with(t, 1)
}

// sync applies a synchronization event to the clocks, with the rules of
// the race detector (race.Detector.Sync).
func (w *weakState) sync(ev SyncEvent) {
	if ev.Op == LockAcquired || ev.Op == LockReleased {
		return
	}
	h := w.clocks()
	c := w.clock(ev.Thread)
	switch ev.Op {
	case Acquire:
		if l, ok := h.syncs[ev.Key]; ok {
			c = c.join(l)
		}
	case Release:
		h.syncs[ev.Key] = c
		c = c.with(ev.Thread, c.get(ev.Thread)+1)
	case ReleaseMerge:
		h.syncs[ev.Key] = h.syncs[ev.Key].join(c)
		c = c.with(ev.Thread, c.get(ev.Thread)+1)
	case Fork:
		h.setThread(ev.Other, c.with(ev.Other, 1))
		c = c.with(ev.Thread, c.get(ev.Thread)+1)
	case JoinThread:
		c = c.join(w.clock(ev.Other))
	}
	h.setThread(ev.Thread, c)
}

// buffered reports whether accesses to o are kept in write histories.
func buffered(o *Object) bool { return o.Kind == ObjGlobal || o.Kind == ObjHeap }

// peek returns the history of a location, to read, or nil.
func (w *weakState) peek(k bufKey) *wBuf {
	if w.lastB != nil && w.lastK == k {
		return w.lastB
	}
	return w.bufs[k]
}

// buf returns the history of a location for changing it, or nil. The last
// one returned is remembered: a load and a store of one location in a
// row look it up once.
func (w *weakState) buf(k bufKey) *wBuf {
	if w.lastB != nil && w.lastK == k && w.lastB.gen == w.gen {
		return w.lastB
	}
	b := w.bufs[k]
	if b == nil || b.gen == w.gen {
		if b != nil {
			w.lastK, w.lastB = k, b
		}
		return b
	}
	if !w.bufsOwn {
		m := make(map[bufKey]*wBuf, len(w.bufs))
		for k, v := range w.bufs {
			m[k] = v
		}
		w.bufs, w.bufsOwn = m, true
	}
	c := &wBuf{size: b.size, writes: append([]wWrite(nil), b.writes...), nwrites: b.nwrites, gen: w.gen,
		reads: append([]readBinding(nil), b.reads...)}
	w.bufs[k] = c
	w.lastK, w.lastB = k, c
	return c
}

// setBuf installs a new history (or removes one: nil).
func (w *weakState) setBuf(k bufKey, b *wBuf) {
	if !w.bufsOwn {
		m := make(map[bufKey]*wBuf, len(w.bufs))
		for k, v := range w.bufs {
			m[k] = v
		}
		w.bufs, w.bufsOwn = m, true
	}
	if w.lastK == k {
		w.lastB = nil
	}
	if b == nil {
		delete(w.bufs, k)
		return
	}
	b.gen = w.gen
	w.bufs[k] = b
}

// forget drops the histories that overlap [off, off+size) of o: the
// location is sequentially consistent from here (an atomic write, a write
// of another size).
func (w *weakState) forget(o *Object, off, size uint64) {
	if len(w.bufs) == 0 {
		return
	}
	if size <= 64 {
		// A history covers at most 8 bytes, so only the keys from 7 bytes
		// before off can overlap: look them up rather than scan every
		// history on each atomic store.
		for p := off - min(off, 7); p < off+size; p++ {
			k := keyOf(o.ID, p)
			if b, ok := w.bufs[k]; ok && p+b.size > off {
				w.setBuf(k, nil)
			}
		}
		return
	}
	for k, b := range w.bufs {
		if k.obj() == o.ID && k.off() < off+size && off < k.off()+b.size {
			w.setBuf(k, nil)
		}
	}
}

// hbWrite reports whether write a happens before write b.
func (w *weakState) hbWrite(a, b *wWrite) bool {
	switch {
	case a.thread == -1:
		return b.thread != -1 || a.seq < b.seq
	case b.thread == -1:
		return false
	case a.thread == b.thread:
		return a.seq < b.seq
	}
	return a.epoch <= b.vc.get(a.thread)
}

// hbRead reports whether write b happens before a read by thread t whose
// clock is c.
func hbRead(b *wWrite, t int, c weakVC) bool {
	return b.thread == -1 || b.thread == t || b.epoch <= c.get(b.thread)
}

// write records a plain store of val by thread t (whose clock is c) to a
// location, after memory holds it; old is what the location held before.
func (w *weakState) write(m *Machine, t int, o *Object, off, size, old, val uint64, loc ir.LocID) {
	k := keyOf(o.ID, off)
	b := w.buf(k)
	if b != nil && b.size != size {
		w.forget(o, off, size)
		b = nil
	}
	if b == nil {
		w.forget(o, off, size) // overlapping histories of other sizes
		w.seq++
		b = &wBuf{size: size, nwrites: 1, writes: []wWrite{{val: old, thread: -1, seq: w.seq}}}
		w.setBuf(k, b)
	}
	c := w.clock(t)
	w.seq++
	nw := wWrite{val: val, thread: t, epoch: c.get(t), vc: c, seq: w.seq, loc: loc}
	b.nwrites++
	// Compression and pruning: an earlier write that happens before this
	// one is redundant when it holds the same value, and invisible for
	// ever once this one happens before every live thread.
	hidesAll := m.hiddenFromAll(w, &nw)
	drop := -1 // the first write to drop, if any
	for i := range b.writes {
		if a := &b.writes[i]; w.hbWrite(a, &nw) && (a.val == val || hidesAll) {
			drop = i
			break
		}
	}
	if drop >= 0 {
		keep := b.writes[:drop]
		for i := drop + 1; i < len(b.writes); i++ {
			if a := &b.writes[i]; !(w.hbWrite(a, &nw) && (a.val == val || hidesAll)) {
				keep = append(keep, *a)
			}
		}
		b.writes = keep
	}
	b.push(nw)
	// The writer has seen its own write: it reads it (or a later one) from
	// here on.
	b.bind(t, readBinding{seq: nw.seq, nwrites: b.nwrites, floor: nw.seq})
}

// hiddenFromAll reports whether write b happens before every live
// thread's current point, so nothing older than it can be read any more.
func (m *Machine) hiddenFromAll(w *weakState, b *wWrite) bool {
	for _, th := range m.threads {
		if th.status == exited {
			continue
		}
		if !hbRead(b, th.ID, w.clock(th.ID)) {
			return false
		}
	}
	return true
}

// read returns the value a plain load by thread t of [off, off+size) of o
// reads, given that memory holds cur (the latest value). It may fork the
// state, once per other visible value; handled is false when the location
// has no history (the load reads memory as usual).
func (w *weakState) read(m *Machine, t *Thread, o *Object, off, size, cur uint64, loc ir.LocID) (val uint64, handled bool, err error) {
	k := keyOf(o.ID, off)
	b := w.peek(k)
	if b == nil || b.size != size {
		return cur, false, nil
	}
	b = w.buf(k)
	if last := b.writes[len(b.writes)-1]; last.val != cur {
		// Memory was written by a path that is not buffered (the modeled
		// libc): from here the location reads its latest value.
		w.setBuf(k, nil)
		return cur, false, nil
	}
	if f := w.forced; f != nil && f.thread == t.ID && f.key == k {
		w.forced = nil
		return w.take(m, t, b, f.seq, loc, o)
	}
	count := m.ThreadCount(t.ID)
	for _, ch := range w.Choices {
		if ch.Thread == t.ID && ch.Count == count {
			for i := len(b.writes) - 1; i >= 0; i-- {
				if b.writes[i].val == ch.Value {
					return w.take(m, t, b, b.writes[i].seq, loc, o)
				}
			}
			return 0, true, terminate(TermReplay, 0, "replay: the read of %s by thread %d cannot return %d any more",
				o.Name, t.ID, ch.Value)
		}
	}
	rb, bound := b.binding(t.ID)
	if bound && rb.floor == b.writes[len(b.writes)-1].seq {
		// Coherence: the thread has seen the latest write already, so it
		// is the only one it may read (the common case of a thread working
		// on a location alone).
		return w.take(m, t, b, rb.floor, loc, o)
	}
	if bound && rb.nwrites == b.nwrites {
		// Write buffering: no write since this thread's last read.
		latest := b.writes[len(b.writes)-1].seq
		if rb.seq == latest || rb.rereads < staleRereads {
			for _, x := range b.writes {
				if x.seq == rb.seq {
					rb.rereads++
					b.bind(t.ID, rb)
					return x.val, true, nil
				}
			}
		}
	}
	w.prune(m, b)
	vis := w.visible(b, t.ID)
	latest := vis[len(vis)-1]
	forked := false
	if w.reads {
		// One state per other value, latest first; the state itself keeps
		// the latest (sequentially consistent) value.
		seen := map[uint64]bool{latest.val: true}
		for i := len(vis) - 2; i >= 0; i-- {
			x := vis[i]
			if seen[x.val] {
				continue
			}
			seen[x.val] = true
			if w.Stats.Forks >= w.MaxForks {
				w.Stats.ForksRefused++
				continue
			}
			w.Stats.Forks++
			child := m.forkAgain()
			child.weak.forced = &forcedRead{thread: t.ID, key: k, seq: x.seq}
			if m.cfg.PreemptAccesses && t.atomicDepth == 0 {
				// This thread was granted the access it makes again: the
				// fork makes it at once rather than yielding before it a
				// second time (which would let other threads run first,
				// and schedule forks there lose the forced value).
				child.cur.accessGranted = true
			}
			m.spawned = append(m.spawned, child)
			forked = true
		}
	}
	if forked {
		// The forks share b now: this state changes its own copy.
		b = w.buf(k)
	}
	val, handled, err = w.take(m, t, b, latest.seq, loc, o)
	if forked && m.cfg.PauseAtFork {
		// The load runs again on resume and reads the same value: this
		// thread's binding now says so.
		return 0, true, errPaused
	}
	return val, handled, err
}

// take makes thread t read write seq of b.
func (w *weakState) take(m *Machine, t *Thread, b *wBuf, seq uint64, loc ir.LocID, o *Object) (uint64, bool, error) {
	var x *wWrite
	for i := len(b.writes) - 1; i >= 0; i-- { // the latest is the usual one
		if b.writes[i].seq == seq {
			x = &b.writes[i]
			break
		}
	}
	if x == nil {
		return 0, true, fmt.Errorf("weak memory: write %d of %s is gone", seq, o.Name)
	}
	old, _ := b.binding(t.ID)
	b.bind(t.ID, readBinding{seq: seq, nwrites: b.nwrites, floor: max(seq, old.floor)})
	desc := func(x *wWrite) WeakWrite {
		return WeakWrite{Object: o.Name, Thread: x.thread, Seq: x.seq, Loc: x.loc, Value: x.val}
	}
	if x.thread != t.ID && x.thread != -1 {
		if len(w.observed) >= maxObserved {
			w.observed = append(w.observed[:0:0], w.observed[1:]...)
		}
		w.observed = append(w.observed, desc(x))
	}
	if last := &b.writes[len(b.writes)-1]; last.seq != seq {
		w.Stats.StaleReads++
		ch := WeakChoice{Thread: t.ID, Count: m.ThreadCount(t.ID), Loc: loc, Value: x.val, Object: o.Name, Read: desc(x)}
		for i := range b.writes {
			if b.writes[i].seq > seq {
				ch.Missed = append(ch.Missed, desc(&b.writes[i]))
			}
		}
		w.choices = append(w.choices, ch)
	}
	return x.val, true, nil
}

// prune drops the writes no live thread can read any more: those a later
// write hides from everyone, now that threads may have synchronized since
// it was written.
func (w *weakState) prune(m *Machine, b *wBuf) {
	if len(b.writes) < 2 {
		return
	}
	latest := b.writes[len(b.writes)-1]
	if !m.hiddenFromAll(w, &latest) {
		return // the common case while threads run unsynchronized
	}
	// Everything that happens before the latest write is hidden by it from
	// every thread; concurrent writes stay readable.
	keep := b.writes[:0]
	for i := range b.writes[:len(b.writes)-1] {
		if !w.hbWrite(&b.writes[i], &latest) {
			keep = append(keep, b.writes[i])
		}
	}
	b.writes = append(keep, latest)
}

// visible returns the writes a read by thread t may return, oldest first
// (never empty: the latest write is always visible). b.writes is in seq
// order, which is the location's coherence order: the writes older than
// the last one the thread saw are not visible to it.
func (w *weakState) visible(b *wBuf, t int) []*wWrite {
	c := w.clock(t)
	rb, _ := b.binding(t)
	floor := rb.floor
	var out []*wWrite
	for i := range b.writes {
		a := &b.writes[i]
		if a.seq < floor {
			continue
		}
		hidden := false
		for j := i + 1; j < len(b.writes) && !hidden; j++ {
			bb := &b.writes[j]
			hidden = w.hbWrite(a, bb) && hbRead(bb, t, c)
		}
		if !hidden {
			out = append(out, a)
		}
	}
	return out
}

// SetWeakReads turns read-value choices on or off for the rest of the run
// (classification turns them on once the race has happened). Bookkeeping
// runs either way when the run has a weak memory model.
func (m *Machine) SetWeakReads(on bool) {
	if m.weak != nil {
		m.weak.reads = on
	}
}

// WeakChoices returns the stale reads this state made, in order, with
// their locations spelled out.
func (m *Machine) WeakChoices() []WeakChoice {
	if m.weak == nil {
		return nil
	}
	out := make([]WeakChoice, len(m.weak.choices))
	for i, c := range m.weak.choices {
		c.ReadAt = m.locString(c.Loc)
		c.Read = m.spell(c.Read)
		c.Missed = append([]WeakWrite(nil), c.Missed...)
		for j := range c.Missed {
			c.Missed[j] = m.spell(c.Missed[j])
		}
		out[i] = c
	}
	return out
}

// WeakObserved returns the latest writes of other threads this state's
// reads returned.
func (m *Machine) WeakObserved() []WeakWrite {
	if m.weak == nil {
		return nil
	}
	out := make([]WeakWrite, len(m.weak.observed))
	for i, x := range m.weak.observed {
		out[i] = m.spell(x)
	}
	return out
}

func (m *Machine) spell(x WeakWrite) WeakWrite {
	x.At = m.locString(x.Loc)
	return x
}

func (m *Machine) locString(id ir.LocID) string {
	if id == 0 {
		return ""
	}
	return m.prog.Loc(id).String()
}
