package sched

// A group is a stretch of a trace's runs that repeats as a whole: threads
// that take turns, each running a loop of its own for a while before the
// next one's turn, make a run of each turn's loop and a short literal run
// at each hand-over, and that sequence of runs is what repeats. PCT, which
// lets a thread keep the processor for FairPoints of its points before it
// gives way, does this on any program whose threads loop over a lock:
// without groups its trace of parallel_sum stored a few events for every
// turn of every thread, a million in all at 8 million additions.
//
// A group is found when a repeated run ends: if the runs after the last
// group end with a stretch of runs twice in a row, the second occurrence
// is dropped and the stretch becomes a group of two repetitions. The
// decisions that follow are then compared with the group's body as they
// come, and cost nothing stored, until one differs: what its open
// repetition had matched is then stored as runs again (endGroup), and
// recording goes on as before.

// maxGroupRuns is the most runs a group's body holds, and maxPeriod the
// most events it stores.
const maxGroupRuns = 64

// group is the runs runs[a:b] occurring reps times in a row; stride is how
// far the instruction count moves per repetition.
type group struct {
	a, b   int
	reps   int
	stride uint64
}

// groupPos is a place in a group's body: event k of repetition rep of the
// body's run number run; n counts the decisions of the body's repetition
// before it.
type groupPos struct {
	run, rep, k int
	n           int
}

// sameRun reports whether runs i and j are the same decisions.
func (t *Trace) sameRun(i, j int) bool {
	x, y := &t.runs[i], &t.runs[j]
	if x.reps != y.reps || x.hi-x.lo != y.hi-y.lo {
		return false
	}
	for d := range x.hi - x.lo {
		if t.ev[x.lo+d].key != t.ev[y.lo+d].key {
			return false
		}
	}
	return true
}

// groupRuns makes a group of the shortest stretch of runs that the runs
// after the last group end with twice in a row, when there is one, and
// reports whether it did. It is called when the last run, a repeated one,
// has just ended, so that the runs are all closed and ev ends with the
// last one's events.
func (t *Trace) groupRuns() bool {
	k := len(t.runs)
	for j := k - 2; j >= t.frozen && k-1-j <= maxGroupRuns; j-- {
		p := k - 1 - j
		lo := k - 2*p
		if lo < t.frozen {
			return false
		}
		if !t.sameRun(j, k-1) || t.runs[lo+p].lo-t.runs[lo].lo > maxPeriod {
			continue
		}
		same := true
		for i := 0; i < p-1 && same; i++ {
			same = t.sameRun(lo+i, lo+p+i)
		}
		if !same {
			continue
		}
		cut := t.runs[lo+p].lo
		stride := t.ev[cut].insts - t.ev[t.runs[lo].lo].insts
		if cut < t.keep {
			// A fork still reads the events the next append would overwrite.
			t.ev = append(make([]event, 0, cut+64), t.ev[:cut]...)
			t.keep = 0
		} else {
			t.ev = t.ev[:cut]
		}
		t.runs = t.runs[:lo+p]
		t.groups = append(t.groups, group{a: lo, b: lo + p, reps: 2, stride: stride})
		t.frozen = lo + p
		t.grouping, t.at = true, groupPos{}
		clear(t.last)
		t.period, t.match = 0, 0
		return true
	}
	return false
}

// groupNext is the decision the group being matched has next.
func (t *Trace) groupNext() *event {
	g := &t.groups[len(t.groups)-1]
	r := &t.runs[g.a+t.at.run]
	return &t.ev[r.lo+t.at.k]
}

// groupAdvance moves past a decision that matched groupNext.
func (t *Trace) groupAdvance() {
	g := &t.groups[len(t.groups)-1]
	r := &t.runs[g.a+t.at.run]
	t.at.n++
	if t.at.k++; t.at.k < r.hi-r.lo {
		return
	}
	t.at.k = 0
	if t.at.rep++; t.at.rep < r.reps {
		return
	}
	t.at.rep = 0
	if t.at.run++; t.at.run < g.b-g.a {
		return
	}
	t.at = groupPos{}
	g.reps++
}

// endGroup stops matching decisions against the last group: the decisions
// of its open repetition become runs after it, as they were in its body
// (the run they stopped in with the repetitions it had so far, and the
// rest of that repetition still open, as if recorded one by one), and
// recording goes on from there. It reports false when the trace reached
// its limit doing so, with what it could not store counted as dropped.
func (t *Trace) endGroup() bool {
	g := t.groups[len(t.groups)-1]
	at := t.at
	t.grouping, t.at = false, groupPos{}
	clear(t.last)
	t.period, t.match = 0, 0
	off := uint64(g.reps) * g.stride
	for i := range at.run {
		r := t.runs[g.a+i]
		lo := len(t.ev)
		for _, e := range t.ev[r.lo:r.hi] {
			e.insts += off
			t.ev = append(t.ev, e)
		}
		t.runs = append(t.runs, run{lo: lo, hi: len(t.ev), reps: r.reps, stride: r.stride})
	}
	r := t.runs[g.a+at.run]
	body := r.hi - r.lo
	if at.rep >= 2 {
		// Still repeating: its open repetition is the partial one.
		lo := len(t.ev)
		for _, e := range t.ev[r.lo:r.hi] {
			e.insts += off
			t.ev = append(t.ev, e)
		}
		t.runs = append(t.runs, run{lo: lo, hi: len(t.ev), reps: at.rep, stride: r.stride})
		for i := range at.k {
			t.partial = append(t.partial, t.ev[lo+i].insts+uint64(at.rep)*r.stride)
		}
		return true
	}
	left := at.rep*body + at.k
	for i := range left {
		e := t.ev[r.lo+i%body]
		e.insts += off + uint64(i/body)*r.stride
		t.n--
		if !t.appendLiteral(e) {
			rest := left - i - 1
			t.n -= rest
			t.dropped += rest
			return false
		}
	}
	return true
}

// settled returns a copy of a trace whose last group is being matched,
// with that group ended as endGroup ends it: the form a file holds. The
// copy shares nothing either side changes.
func (t *Trace) settled() *Trace {
	c := t.share()
	c.endGroup()
	return c
}
