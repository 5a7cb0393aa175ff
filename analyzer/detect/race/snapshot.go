package race

import (
	"slices"

	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

// Schedules that share a prefix. Every schedule of the bounded
// enumeration is a run of the program that makes given choices at its
// first decisions and none after (see bounded): the extensions of one run
// all make its choices up to the decision where they branch. Rather than
// run that prefix again for each of them, the enumeration keeps the
// execution paused just before the decision (a snapshot: the machine, its
// memory shared copy-on-write, and its detector, shadow memory shared the
// same way) and starts each extension from a fork of it. A snapshot is
// made from the deepest one that shares its choices, so the prefix of a
// run is interpreted once however many schedules branch off it.
//
// A fork goes on exactly as the execution would have from the start
// (vm.Machine.PauseBeforeDecision), so the enumeration finds the same
// races, in the same schedules, with or without snapshots
// (Explore.NoSnapshots); TestSnapshotsChangeNothing holds it to that.

// snapshot is an execution of the enumeration paused just before its
// decision len(choices), having made those choices.
type snapshot struct {
	st      *started
	choices []int
	insts   uint64 // instructions executed before the decision
	// cost is the state's footprint when it paused: an upper bound of
	// what keeping it costs, since most of it is shared with its forks.
	cost uint64
	used uint64 // the store's clock at its last use
}

// snapshotStore holds the snapshots of one enumeration, within a memory
// limit, evicting the least recently used. An enumeration runs under one
// focus (its preemption points), so every snapshot of a store was made
// under the same one.
type snapshotStore struct {
	byHash map[uint64][]*snapshot
	n      int // snapshots kept
	bytes  uint64
	limit  uint64
	clock  uint64
	// made counts the snapshots made, resumed the schedules started from
	// one, and skipped the instructions those did not run again.
	made, resumed int
	skipped       uint64
	// noRoot is set when the run to the first decision did not pause;
	// tooBig when a state was larger than the whole limit. Either way
	// the enumeration's schedules run from the program's start: a state
	// that large costs more to keep and to copy object by object than to
	// rebuild (a 64 MiB array and its shadow are copied whole by the
	// first write of every fork).
	noRoot, tooBig bool
	// checked is the size of the detection's set of sites shadowed from
	// birth (private.go) when the snapshots were last checked against it.
	checked int
}

// Limits of the snapshots an enumeration keeps: their footprints (which
// count shared memory as their own) add up to at most maxSnapshotBytes,
// and to a quarter of the run's memory budget when it has one.
const (
	maxSnapshotBytes = 256 << 20
	maxSnapshots     = 256
)

// snapshotLimit is the footprint the snapshots of an exploration may
// have, for executions of the memory budget maxMemory (0: none).
func snapshotLimit(maxMemory uint64) uint64 {
	limit := uint64(maxSnapshotBytes)
	if maxMemory != 0 {
		limit = min(limit, maxMemory/4)
	}
	return limit
}

func newSnapshotStore(maxMemory uint64) *snapshotStore {
	return &snapshotStore{byHash: map[uint64][]*snapshot{}, limit: snapshotLimit(maxMemory)}
}

// choicesHash hashes the first n choices (FNV-1a, with the length).
func choicesHash(c []int) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range c {
		h = (h ^ uint64(x+1)) * 1099511628211
	}
	return h ^ uint64(len(c))<<48
}

// deepest returns the snapshot with the most of p's first choices, at
// most upto of them, or nil. The hashes of p's prefixes are made in one
// pass, as choicesHash makes each.
func (s *snapshotStore) deepest(p []int, upto int) *snapshot {
	hashes := make([]uint64, upto+1)
	h := uint64(14695981039346656037)
	for j := 0; j <= upto; j++ {
		hashes[j] = h ^ uint64(j)<<48
		if j < upto {
			h = (h ^ uint64(p[j]+1)) * 1099511628211
		}
	}
	for j := upto; j >= 0; j-- {
		for _, sn := range s.byHash[hashes[j]] {
			if slices.Equal(sn.choices, p[:j]) {
				return sn
			}
		}
	}
	return nil
}

// add keeps sn, evicting the least recently used snapshots to make room;
// one larger than the whole limit is not kept (its schedule uses it once).
func (s *snapshotStore) add(sn *snapshot) {
	s.made++
	if sn.cost > s.limit {
		s.tooBig = true
		return
	}
	for s.bytes+sn.cost > s.limit || s.n >= maxSnapshots {
		s.evict()
	}
	h := choicesHash(sn.choices)
	s.byHash[h] = append(s.byHash[h], sn)
	s.bytes += sn.cost
	s.n++
}

// dropStale forgets the snapshots whose detectors keep objects private
// that d now shadows from birth (sharedSites.stale, the rule the root
// snapshot of the exploration follows too): an execution from one would
// run twice.
func (s *snapshotStore) dropStale(d *detection) {
	for h, l := range s.byHash {
		l = slices.DeleteFunc(l, func(sn *snapshot) bool {
			if !d.shared.stale(sn.st.det) {
				return false
			}
			s.bytes -= sn.cost
			s.n--
			return true
		})
		if len(l) == 0 {
			delete(s.byHash, h)
		} else {
			s.byHash[h] = l
		}
	}
}

// evict drops the least recently used snapshot.
func (s *snapshotStore) evict() {
	var oldest *snapshot
	var key uint64
	for h, l := range s.byHash {
		for _, sn := range l {
			if oldest == nil || sn.used < oldest.used {
				oldest, key = sn, h
			}
		}
	}
	if oldest == nil {
		return
	}
	l := slices.DeleteFunc(s.byHash[key], func(x *snapshot) bool { return x == oldest })
	if len(l) == 0 {
		delete(s.byHash, key)
	} else {
		s.byHash[key] = l
	}
	s.bytes -= oldest.cost
	s.n--
}

// minGap is the fewest instructions a new snapshot must save beyond the
// one it would be made from: forking a small state costs about as much as
// interpreting a few thousand instructions, and a snapshot per schedule
// of a short program costs more than it saves (BenchmarkSnapshots).
const minGap = 10_000

// start returns the execution of schedule b under cfg, started from a
// snapshot: the deepest that shares b's choices, or one made now at b's
// branching decision when that saves at least minGap instructions more.
// The first snapshot is the state before the first decision, which every
// schedule shares. start returns nil when b is to run from the program's
// start: the root schedule, which shares nothing, or a prefix that did
// not pause where its run did.
func (s *snapshotStore) start(d *detection, cfg vm.Config, b bounded) (*started, error) {
	if b.at < 0 || s.noRoot || s.tooBig {
		return nil, nil
	}
	if n := len(d.shared.get()); n != s.checked {
		s.dropStale(d) // made keeping objects private that are now shadowed from birth
		s.checked = n
	}
	p := b.prefix()
	at := b.at
	sn := s.deepest(p, at)
	if sn == nil {
		var err error
		if sn, err = s.make(d, cfg, nil, p, 0); sn == nil || err != nil {
			// Not paused before its first decision (a budget ran out):
			// no schedule of this enumeration tries it again.
			s.noRoot = err == nil
			return nil, err
		}
	}
	if len(sn.choices) < at && (at >= len(b.insts) || b.insts[at] >= sn.insts+minGap) {
		made, err := s.make(d, cfg, sn, p, at)
		if err != nil {
			return nil, err
		}
		if made != nil {
			sn = made
		}
	}
	s.clock++
	sn.used = s.clock
	s.resumed++
	s.skipped += sn.insts
	st := sn.fork(p)
	st.again = cfg // its policy, a new Bounded, is not the fork's: unused
	return st, nil
}

// make runs the first k choices of p, from the program's start or from
// the snapshot from (which makes some of them), and returns the execution
// paused before decision k, kept in the store when it fits; nil when the
// run ended before it.
func (s *snapshotStore) make(d *detection, cfg vm.Config, from *snapshot, p []int, k int) (*snapshot, error) {
	var st *started
	if from == nil {
		cfg.Policy = &sched.Bounded{Prefix: p[:k]}
		var err error
		if st, err = d.begin(cfg); err != nil {
			return nil, err
		}
	} else {
		st = from.fork(p[:k])
	}
	st.m.PauseBeforeDecision(k)
	if res := st.m.Run(); res.Term.Kind != vm.TermPaused {
		// It ended before the decision its parent run made (a budget,
		// say): what it shares is not a prefix this store can keep.
		return nil, nil
	}
	sn := &snapshot{st: st, choices: slices.Clone(p[:k]), insts: st.m.Instructions(), cost: st.m.Footprint()}
	s.add(sn)
	return sn, nil
}

// fork returns an execution that goes on from the snapshot making the
// choices of prefix (which starts with the snapshot's own) and none
// after: the machine, its policy and its monitors forked and wired to
// each other.
func (sn *snapshot) fork(prefix []int) *started {
	m := sn.st.m.Fork()
	pol := m.Policy().(*sched.Bounded)
	pol.Prefix = prefix
	return wire(m, pol)
}

// wire binds the forked monitors of m to it, and the footprints to the
// bounded policy pol (nil when there is none).
func wire(m *vm.Machine, pol *sched.Bounded) *started {
	st := &started{m: m}
	switch mon := m.Monitor().(type) {
	case *footprints:
		mon.pol = pol
		st.fp, st.det = mon, mon.Monitor.(*Detector)
	case *Detector:
		st.det = mon
	}
	st.det.Bind(m)
	return st
}

// rootSnapshot is the state before the first decision under one focus,
// with a plain detector: no policy has been asked anything there, so
// every PCT schedule of the exploration under that focus starts from a
// fork of it, which saves what the program does before its second thread
// (or first focus access): its start-up and its setup.
type rootSnapshot struct {
	// limit is the largest footprint worth keeping (snapshotLimit): a
	// larger start state is rebuilt by each schedule instead.
	limit uint64
	focus []string
	ready bool
	sn    *snapshot // nil: the program ended before a decision
	// made, resumed and skipped count as in snapshotStore.
	made, resumed int
	skipped       uint64
}

// start returns an execution under cfg from a fork of the state before
// the first decision, or nil when it is to run from the program's start.
func (r *rootSnapshot) start(d *detection, cfg vm.Config) (*started, error) {
	if cfg.Timeout != 0 {
		return nil, nil // a fork keeps its parent's deadline
	}
	if !r.ready || !slices.Equal(cfg.PreemptAt, r.focus) || (r.sn != nil && d.shared.stale(r.sn.st.det)) {
		r.focus, r.ready, r.sn = cfg.PreemptAt, true, nil
		c := cfg
		c.Policy = sched.RoundRobin{}
		st, err := d.begin(c)
		if err != nil {
			return nil, err
		}
		st.m.PauseBeforeDecision(0)
		if res := st.m.Run(); res.Term.Kind == vm.TermPaused && st.m.Footprint() <= r.limit {
			r.sn = &snapshot{st: st, insts: st.m.Instructions()}
			r.made++
		}
	}
	if r.sn == nil {
		return nil, nil
	}
	again := cfg
	again.Policy = rerunnable(cfg.Policy) // before the fork's decisions change cfg's
	m := r.sn.st.m.Fork()
	if err := m.StartPolicy(cfg.Policy); err != nil {
		return nil, err
	}
	r.resumed++
	r.skipped += r.sn.insts
	st := wire(m, nil)
	st.again = again
	return st, nil
}
