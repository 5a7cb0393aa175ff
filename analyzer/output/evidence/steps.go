package evidence

import (
	"fmt"

	"augur/analyzer/frontend/ir"
)

// Step is one row of a replay's transcript: a scheduling decision, one of
// the racing accesses, or a row that stands for many steps. A program
// that takes a lock in a loop makes millions of decisions (four threads
// adding 4,000,000 numbers under a mutex: 17 million), and a row for each
// was a transcript of 2 GB that took 4.6 GB to build; the steps a loop
// repeats are folded into one row instead (Period, Again), and past
// maxStepRows rows the steps far from the racing accesses are left out
// (Left).
type Step struct {
	// N is the step's number over the whole replay, from 1; a fold's or
	// an elision's is that of the first step it stands for.
	N      int
	Thread int
	Loc    ir.Loc
	What   string
	Racing int // 1 or 2 for the racing accesses (in the order they happen), 0 otherwise

	// Period and Again make the row a fold: the Period rows above it
	// happened Again more times, as steps N to N+Period*Again-1.
	Period, Again int
	// Left makes the row an elision: the Left steps from N on are not
	// kept.
	Left int
}

// Steps is how many steps the row stands for.
func (s *Step) Steps() int {
	switch {
	case s.Period > 0:
		return s.Period * s.Again
	case s.Left > 0:
		return s.Left
	}
	return 1
}

const (
	// maxPeriod is the longest repetition a transcript folds: a loop of
	// decisions of that many steps (four threads taking a lock in turns
	// repeat every 17).
	maxPeriod = 64
	// maxStepRows bounds a transcript's rows. Past it the rows far from the
	// racing accesses are left out: the first headRows, the last
	// maxStepRows/2 and nearRace rows on each side of a racing access stay.
	maxStepRows = 4000
	headRows    = 500
	nearRace    = 40
)

// stepKey is what makes two decisions the same step.
type stepKey struct {
	thread int
	loc    string
	what   string
	next   int
}

// stepLog records a replay's steps as they happen, folding repetition
// and bounding the rows it keeps, so a replay holds a transcript of a
// size that follows what the schedule does new, not how long it runs.
type stepLog struct {
	rows []Step
	// ids are the rows' steps interned (keys), 0 for a row that never
	// repeats: a racing access, a fold, an elision.
	ids  []uint32
	keys map[stepKey]uint32
	// known are the interned steps and stepKeys their keys, by id - 1.
	known    []Step
	stepKeys []stepKey
	n        int // steps so far
	// open: the last row is a fold whose next repetition has matched
	// pos steps so far.
	open bool
	pos  int
}

// decision records a scheduling decision at a point of thread at loc
// (as a trace writes it), after a call of what, with next to run.
func (l *stepLog) decision(prog *ir.Program, thread int, loc, what string, next int) {
	if what == "" {
		what = "preemption point"
	}
	k := stepKey{thread, loc, what, next}
	if l.open {
		// The step the open fold expects, most often: no lookup.
		f := len(l.rows) - 1
		if id := l.ids[f-l.rows[f].Period+l.pos]; l.stepKeys[id-1] == k {
			l.add(id)
			return
		}
	}
	id, ok := l.keys[k]
	if !ok {
		if l.keys == nil {
			l.keys = map[stepKey]uint32{}
		}
		l.known = append(l.known, Step{Thread: thread, Loc: prog.LocOf(loc), What: fmt.Sprintf("%s; thread %d runs next", what, next)})
		l.stepKeys = append(l.stepKeys, k)
		id = uint32(len(l.known))
		l.keys[k] = id
	}
	l.add(id)
}

// racing records a racing access, which no fold takes in.
func (l *stepLog) racing(s Step) {
	l.closeFold()
	l.n++
	s.N = l.n
	l.push(s, 0)
}

// add records the interned step id.
func (l *stepLog) add(id uint32) {
	l.n++
	if l.open {
		f := len(l.rows) - 1
		p := l.rows[f].Period
		if l.ids[f-p+l.pos] == id {
			if l.pos++; l.pos == p {
				l.rows[f].Again++
				l.pos = 0
			}
			return
		}
		l.closeFold()
	}
	s := l.known[id-1]
	s.N = l.n
	l.push(s, id)
	l.fold()
}

// push appends a row, leaving out old ones when there are too many.
func (l *stepLog) push(s Step, id uint32) {
	l.rows = append(l.rows, s)
	l.ids = append(l.ids, id)
	if len(l.rows) > maxStepRows {
		l.trim()
	}
}

// fold makes the newest rows a fold when they repeat the rows before
// them: the shortest period whose two last copies are the same steps. A
// fold never takes in a row of id 0 (a racing access, another fold, an
// elision).
func (l *stepLog) fold() {
	last := len(l.rows) - 1
	for p := 1; p <= maxPeriod && last+1-2*p >= 0; p++ {
		if l.ids[last-p] != l.ids[last] || !l.repeats(last+1-p, p) {
			continue
		}
		first := l.rows[last+1-p].N
		l.rows = l.rows[:last+1-p]
		l.ids = l.ids[:last+1-p]
		l.push(Step{N: first, Period: p, Again: 1}, 0)
		l.open, l.pos = true, 0
		return
	}
}

// repeats reports whether the p rows from i are the p rows before them,
// every one a step that may repeat.
func (l *stepLog) repeats(i, p int) bool {
	for k := range p {
		if a := l.ids[i+k]; a == 0 || a != l.ids[i-p+k] {
			return false
		}
	}
	return true
}

// closeFold ends the open fold: the steps of the repetition it had begun
// become rows after it.
func (l *stepLog) closeFold() {
	if !l.open {
		return
	}
	l.open = false
	f := len(l.rows) - 1
	fold := l.rows[f]
	pos := l.pos
	l.pos = 0
	next := fold.N + fold.Period*fold.Again
	for k := range pos {
		id := l.ids[f-fold.Period+k]
		s := l.known[id-1]
		s.N = next + k
		l.push(s, id)
	}
}

// trim leaves out rows far from the racing accesses so that maxStepRows/2
// remain, keeping the first headRows, the newest rows and those near a
// racing access; each stretch left out becomes one elision row. A fold
// is never kept without the rows it repeats.
func (l *stepLog) trim() {
	cut := len(l.rows) - maxStepRows/2
	for f := cut; f < len(l.rows); f++ {
		if p := l.rows[f].Period; p > 0 && f-p < cut {
			cut = f - p
		}
	}
	keep := make([]bool, len(l.rows))
	for i := range keep {
		keep[i] = i < headRows || i >= cut
	}
	for i, r := range l.rows[:cut] {
		if r.Racing != 0 {
			for k := max(i-nearRace, 0); k <= min(i+nearRace, cut-1); k++ {
				keep[k] = true
			}
		}
	}
	// A fold kept needs its rows; one left out may leave them.
	for f := cut - 1; f >= 0; f-- {
		if p := l.rows[f].Period; p > 0 && keep[f] {
			for k := f - p; k < f; k++ {
				keep[k] = true
			}
		}
	}
	rows, ids := make([]Step, 0, maxStepRows+1), make([]uint32, 0, maxStepRows+1)
	for i := range l.rows {
		if keep[i] {
			rows, ids = append(rows, l.rows[i]), append(ids, l.ids[i])
			continue
		}
		if n := len(rows); n > 0 && rows[n-1].Left > 0 {
			rows[n-1].Left += l.rows[i].Steps()
		} else {
			rows, ids = append(rows, Step{N: l.rows[i].N, Left: l.rows[i].Steps()}), append(ids, 0)
		}
	}
	l.rows, l.ids = rows, ids
}
