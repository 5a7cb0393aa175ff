package memmodel

import (
	"errors"
	"fmt"
	"sync/atomic"

	"augur/analyzer/frontend/ir"
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

// Config configures the weak memory model of a run. One Config is shared
// by every state of one exploration.
type Config struct {
	// MaxForks bounds the states reads may fork; past it a read returns
	// the latest value (and Stats.ForksRefused counts it).
	MaxForks int
	// Choices replays recorded read-value choices: the read by Thread as
	// its Count-th instruction returns Value instead of the latest value.
	Choices []Choice
	Stats   Stats
}

// Stats count the weak model's work.
type Stats struct {
	Forks        int // states forked at reads with several visible values
	ForksRefused int
	StaleReads   int // reads that returned an older value than the latest
}

// Choice is a read that returned an older value than the last write:
// what evidence records so a replay reproduces it.
type Choice struct {
	Thread int      `json:"thread"`
	Count  uint64   `json:"count"` // the thread's instruction count at the read
	Loc    ir.LocID `json:"-"`
	Value  uint64   `json:"value"`
	Object string   `json:"object"`
	ReadAt string   `json:"read_at" loc:"text"`
	// Read is the write the value came from; Missed are the newer writes
	// the read did not see (the newest last).
	Read   Write   `json:"read"`
	Missed []Write `json:"missed"`
}

// Write describes a buffered write for explanations.
type Write struct {
	Object string   `json:"object,omitempty"`
	Thread int      `json:"thread"` // -1: the initial contents
	Seq    uint64   `json:"seq"`    // order among this execution's writes
	Loc    ir.LocID `json:"-"`
	At     string   `json:"at,omitempty" loc:"text"`
	Value  uint64   `json:"value"`
}

// staleRereads bounds how often a thread re-reads the same stale value
// with no write in between (a spin loop on a flag): past it the latest
// write becomes visible, as a real store buffer drains in bounded time.
// Without it every spin on a stale value would look like a hang.
const staleRereads = 64

// hbClocks are the happens-before clocks of one execution state: each
// thread's and each synchronization object's.
type hbClocks struct {
	threads []VC // by thread id; nil: the thread has no clock yet
	syncs   map[SyncKey]VC
}

// setThread sets thread t's clock.
func (h *hbClocks) setThread(t int, c VC) {
	for t >= len(h.threads) {
		h.threads = append(h.threads, nil)
	}
	h.threads[t] = c
}

func (h *hbClocks) clone() *hbClocks {
	c := &hbClocks{threads: append([]VC(nil), h.threads...), syncs: make(map[SyncKey]VC, len(h.syncs))}
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
	vc     VC     // the writer's clock when it wrote
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
	gen     uint64        // the State generation that may change it in place
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

// State is the weak-memory part of one execution state.
type State struct {
	*Config
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
	choices  []Choice
	observed []Write
	seq      uint64
	// live marks the threads that have not ended, by id (shared with forks
	// until one changes it).
	live []bool
}

const maxObserved = 64

type forcedRead struct {
	thread int
	key    bufKey
	seq    uint64
}

// stateGen numbers weak states, so a history knows which state may change
// it in place. Classification runs races on several goroutines.
var stateGen atomic.Uint64

// maxHistory bounds the writes kept per location: older ones are dropped
// (they can no longer be read), so a loop that writes a shared variable
// does not make every later read fork a thousand ways.
const maxHistory = 16

// Footprint estimates the memory the state's histories and clocks hold:
// a history keeps at most maxHistory writes, each with its writer's clock.
func (w *State) Footprint() uint64 {
	n := uint64(len(w.hb.threads)+len(w.hb.syncs)) * 96
	n += uint64(len(w.bufs)) * (128 + 4*(64+8*uint64(len(w.hb.threads)))) // about 4 writes kept per location
	return n + uint64(len(w.choices)+len(w.observed))*128
}

func NewState(w *Config) *State {
	return &State{Config: w, live: []bool{true}, hb: &hbClocks{threads: []VC{{1}}, syncs: map[SyncKey]VC{}},
		hbOwned: true, bufs: map[bufKey]*wBuf{}, bufsOwn: true, gen: stateGen.Add(1)}
}

// Fork shares everything copy-on-write: neither side copies clocks or
// histories until it changes them.
func (w *State) Fork() *State {
	c := *w
	c.gen = stateGen.Add(1)
	c.hbOwned, c.bufsOwn = false, false
	w.hbOwned, w.bufsOwn = false, false
	w.gen = stateGen.Add(1)
	c.choices = w.choices[:len(w.choices):len(w.choices)]
	c.observed = w.observed[:len(w.observed):len(w.observed)]
	c.forced = nil
	c.lastB, w.lastB = nil, nil
	return &c
}

func (w *State) clocks() *hbClocks {
	if !w.hbOwned {
		w.hb = w.hb.clone()
		w.hbOwned = true
	}
	return w.hb
}

// clock is thread t's vector clock.
func (w *State) clock(t int) VC {
	if t < len(w.hb.threads) && w.hb.threads[t] != nil {
		return w.hb.threads[t]
	}
	return VC{}.With(t, 1)
}

// Sync applies a synchronization operation by thread to the clocks, with
// the rules of the race detector (race.Detector.Sync); other is the child
// of a Fork and the joined thread of a JoinThread.
func (w *State) Sync(op SyncOp, thread, other int, key SyncKey) {
	if op == LockAcquired || op == LockReleased {
		return
	}
	h := w.clocks()
	c := w.clock(thread)
	switch op {
	case Acquire:
		if l, ok := h.syncs[key]; ok {
			c = c.Joined(l)
		}
	case Release:
		h.syncs[key] = c
		c = c.With(thread, c.Get(thread)+1)
	case ReleaseMerge:
		h.syncs[key] = h.syncs[key].Joined(c)
		c = c.With(thread, c.Get(thread)+1)
	case Fork:
		h.setThread(other, c.With(other, 1))
		c = c.With(thread, c.Get(thread)+1)
		w.setLive(other, true)
	case JoinThread:
		c = c.Joined(w.clock(other))
	}
	h.setThread(thread, c)
}

// ThreadExited notes that thread t ended: what it may still read no
// longer keeps older writes alive.
func (w *State) ThreadExited(t int) { w.setLive(t, false) }

func (w *State) setLive(t int, on bool) {
	if t < len(w.live) && w.live[t] == on {
		return
	}
	w.live = append([]bool(nil), w.live...) // shared with forks: copy to change
	for t >= len(w.live) {
		w.live = append(w.live, false)
	}
	w.live[t] = on
}

// peek returns the history of a location, to read, or nil.
func (w *State) peek(k bufKey) *wBuf {
	if w.lastB != nil && w.lastK == k {
		return w.lastB
	}
	return w.bufs[k]
}

// buf returns the history of a location for changing it, or nil. The last
// one returned is remembered: a load and a store of one location in a
// row look it up once.
func (w *State) buf(k bufKey) *wBuf {
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
func (w *State) setBuf(k bufKey, b *wBuf) {
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

// Forget drops the histories that overlap [off, off+size) of o: the
// location is sequentially consistent from here (an atomic write, a write
// of another size).
func (w *State) Forget(obj uint32, off, size uint64) {
	if len(w.bufs) == 0 {
		return
	}
	if size <= 64 {
		// A history covers at most 8 bytes, so only the keys from 7 bytes
		// before off can overlap: look them up rather than scan every
		// history on each atomic store.
		for p := off - min(off, 7); p < off+size; p++ {
			k := keyOf(obj, p)
			if b, ok := w.bufs[k]; ok && p+b.size > off {
				w.setBuf(k, nil)
			}
		}
		return
	}
	for k, b := range w.bufs {
		if k.obj() == obj && k.off() < off+size && off < k.off()+b.size {
			w.setBuf(k, nil)
		}
	}
}

// hbWrite reports whether write a happens before write b.
func (w *State) hbWrite(a, b *wWrite) bool {
	switch {
	case a.thread == -1:
		return b.thread != -1 || a.seq < b.seq
	case b.thread == -1:
		return false
	case a.thread == b.thread:
		return a.seq < b.seq
	}
	return a.epoch <= b.vc.Get(a.thread)
}

// hbRead reports whether write b happens before a read by thread t whose
// clock is c.
func hbRead(b *wWrite, t int, c VC) bool {
	return b.thread == -1 || b.thread == t || b.epoch <= c.Get(b.thread)
}

// Write records a plain store of val by thread t to size bytes at off of
// object obj, after memory holds it; old is what the location held before.
func (w *State) Write(t int, obj uint32, off, size, old, val uint64, loc ir.LocID) {
	k := keyOf(obj, off)
	b := w.buf(k)
	if b != nil && b.size != size {
		w.Forget(obj, off, size)
		b = nil
	}
	if b == nil {
		w.Forget(obj, off, size) // overlapping histories of other sizes
		w.seq++
		b = &wBuf{size: size, nwrites: 1, writes: []wWrite{{val: old, thread: -1, seq: w.seq}}}
		w.setBuf(k, b)
	}
	c := w.clock(t)
	w.seq++
	nw := wWrite{val: val, thread: t, epoch: c.Get(t), vc: c, seq: w.seq, loc: loc}
	b.nwrites++
	// Compression and pruning: an earlier write that happens before this
	// one is redundant when it holds the same value, and invisible for
	// ever once this one happens before every live thread.
	hidesAll := w.hiddenFromAll(&nw)
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
func (w *State) hiddenFromAll(b *wWrite) bool {
	for t, live := range w.live {
		if live && !hbRead(b, t, w.clock(t)) {
			return false
		}
	}
	return true
}

// Read is a plain load the model decides the value of.
type Read struct {
	Thread int
	Count  uint64 // the thread's instruction count at the load
	Obj    uint32
	Name   string // the object's name, for explanations
	Off    uint64
	Size   uint64
	Cur    uint64 // the latest value: what memory holds
	Loc    ir.LocID
}

// ErrReplay is wrapped by the error of a recorded choice that can no
// longer be made (Config.Choices replayed on another execution).
var ErrReplay = errors.New("replay: a recorded read cannot be made again")

// Read returns the value load r reads. handled is false when the location
// has no history (the load reads memory as usual). When reads choose (see
// SetReads) and several values are visible, fork is called once per other
// value with the write the forked state must read (see Force), before
// this state reads the latest value, the sequentially consistent one.
func (w *State) Read(r Read, fork func(seq uint64)) (val uint64, handled bool, err error) {
	k := keyOf(r.Obj, r.Off)
	b := w.peek(k)
	if b == nil || b.size != r.Size {
		return r.Cur, false, nil
	}
	b = w.buf(k)
	if last := b.writes[len(b.writes)-1]; last.val != r.Cur {
		// Memory was written by a path that is not buffered (the modeled
		// libc): from here the location reads its latest value.
		w.setBuf(k, nil)
		return r.Cur, false, nil
	}
	if f := w.forced; f != nil && f.thread == r.Thread && f.key == k {
		w.forced = nil
		return w.take(r, b, f.seq)
	}
	for _, ch := range w.Config.Choices {
		if ch.Thread == r.Thread && ch.Count == r.Count {
			for i := len(b.writes) - 1; i >= 0; i-- {
				if b.writes[i].val == ch.Value {
					return w.take(r, b, b.writes[i].seq)
				}
			}
			return 0, true, fmt.Errorf("%w: the read of %s by thread %d cannot return %d any more", ErrReplay,
				r.Name, r.Thread, ch.Value)
		}
	}
	rb, bound := b.binding(r.Thread)
	if bound && rb.floor == b.writes[len(b.writes)-1].seq {
		// Coherence: the thread has seen the latest write already, so it
		// is the only one it may read (the common case of a thread working
		// on a location alone).
		return w.take(r, b, rb.floor)
	}
	if bound && rb.nwrites == b.nwrites {
		// Write buffering: no write since this thread's last read.
		latest := b.writes[len(b.writes)-1].seq
		if rb.seq == latest || rb.rereads < staleRereads {
			for _, x := range b.writes {
				if x.seq == rb.seq {
					rb.rereads++
					b.bind(r.Thread, rb)
					return x.val, true, nil
				}
			}
		}
	}
	w.prune(b)
	vis := w.visible(b, r.Thread)
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
			fork(x.seq)
			forked = true
		}
	}
	if forked {
		// The forks share b now: this state changes its own copy.
		b = w.buf(k)
	}
	return w.take(r, b, latest.seq)
}

// Force makes the next read of thread at obj+off, in this state, read the
// write seq: what a state forked at that read re-executes it with.
func (w *State) Force(thread int, obj uint32, off, seq uint64) {
	w.forced = &forcedRead{thread: thread, key: keyOf(obj, off), seq: seq}
}

// take makes the load r read write seq of b.
func (w *State) take(r Read, b *wBuf, seq uint64) (uint64, bool, error) {
	var x *wWrite
	for i := len(b.writes) - 1; i >= 0; i-- { // the latest is the usual one
		if b.writes[i].seq == seq {
			x = &b.writes[i]
			break
		}
	}
	if x == nil {
		return 0, true, fmt.Errorf("weak memory: write %d of %s is gone", seq, r.Name)
	}
	old, _ := b.binding(r.Thread)
	b.bind(r.Thread, readBinding{seq: seq, nwrites: b.nwrites, floor: max(seq, old.floor)})
	desc := func(x *wWrite) Write {
		return Write{Object: r.Name, Thread: x.thread, Seq: x.seq, Loc: x.loc, Value: x.val}
	}
	if x.thread != r.Thread && x.thread != -1 {
		if len(w.observed) >= maxObserved {
			w.observed = append(w.observed[:0:0], w.observed[1:]...)
		}
		w.observed = append(w.observed, desc(x))
	}
	if last := &b.writes[len(b.writes)-1]; last.seq != seq {
		w.Stats.StaleReads++
		ch := Choice{Thread: r.Thread, Count: r.Count, Loc: r.Loc, Value: x.val, Object: r.Name, Read: desc(x)}
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
func (w *State) prune(b *wBuf) {
	if len(b.writes) < 2 {
		return
	}
	latest := b.writes[len(b.writes)-1]
	if !w.hiddenFromAll(&latest) {
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
func (w *State) visible(b *wBuf, t int) []*wWrite {
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

// SetReads turns read-value choices on or off (classification turns
// them on once the race has happened). Bookkeeping runs either way.
func (w *State) SetReads(on bool) { w.reads = on }

// Chosen returns the stale reads this state made, in order (their
// locations as ids; the caller spells them).
func (w *State) Chosen() []Choice {
	out := make([]Choice, len(w.choices))
	for i, c := range w.choices {
		c.Missed = append([]Write(nil), c.Missed...)
		out[i] = c
	}
	return out
}

// Observed returns the latest writes of other threads this state's reads
// returned.
func (w *State) Observed() []Write { return append([]Write(nil), w.observed...) }
