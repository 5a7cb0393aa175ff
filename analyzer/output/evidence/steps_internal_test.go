package evidence

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"augur/analyzer/frontend/ir"
)

// noProg is a program with no locations: the steps' locations are text.
var noProg = &ir.Program{}

// logged records steps (a step is a number; -1 and -2 are the racing
// accesses) and returns the log.
func logged(steps []int) *stepLog {
	l := &stepLog{}
	for _, s := range steps {
		if s < 0 {
			l.racing(Step{What: fmt.Sprintf("racing access %d", -s), Racing: -s})
			continue
		}
		l.decision(noProg, s%3, "", fmt.Sprintf("w%d", s), s%2)
	}
	return l
}

// expand lists the steps the rows stand for, -1 for each step left out.
func expand(t *testing.T, rows []Step) []string {
	t.Helper()
	var out []string
	for i, r := range rows {
		if r.N != len(out)+1 {
			t.Fatalf("row %d (%+v) numbered %d after %d steps", i, r, r.N, len(out))
		}
		switch {
		case r.Period > 0:
			if i < r.Period {
				t.Fatalf("row %d folds %d rows above it, has %d", i, r.Period, i)
			}
			body := rows[i-r.Period : i]
			for _, b := range body {
				if b.Period > 0 || b.Left > 0 || b.Racing != 0 {
					t.Fatalf("row %d folds a row that is not a plain step: %+v", i, b)
				}
			}
			for range r.Again {
				for _, b := range body {
					out = append(out, b.What)
				}
			}
		case r.Left > 0:
			for range r.Left {
				out = append(out, "?")
			}
		default:
			out = append(out, r.What)
		}
	}
	return out
}

func want(steps []int) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		if s < 0 {
			out[i] = fmt.Sprintf("racing access %d", -s)
		} else {
			out[i] = fmt.Sprintf("w%d; thread %d runs next", s, s%2)
		}
	}
	return out
}

// loops makes a random schedule of loops of loops, some too long to
// fold, some stopping short, with the racing accesses somewhere.
func loops(rng *rand.Rand, n int) []int {
	var steps []int
	var body func(depth int) []int
	body = func(depth int) []int {
		var b []int
		for range 1 + rng.IntN(4) {
			if depth < 2 && rng.IntN(3) == 0 {
				inner := body(depth + 1)
				for range 1 + rng.IntN(5) {
					b = append(b, inner...)
				}
				continue
			}
			b = append(b, rng.IntN(12))
		}
		return b
	}
	for len(steps) < n {
		b := body(0)
		times := 1 + rng.IntN(300)
		for range times {
			steps = append(steps, b...)
		}
		if rng.IntN(2) == 0 {
			steps = append(steps, b[:rng.IntN(len(b))]...)
		}
	}
	steps = steps[:n]
	steps[rng.IntN(n)] = -1
	steps[rng.IntN(n)] = -2
	return steps
}

// The transcript's rows stand for exactly the steps replayed, in order
// and numbered: folds repeat the plain rows above them, and a transcript
// that never reached its row bound leaves nothing out.
func TestStepLogFoldsExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		steps := loops(rng, 1+rng.IntN(3000))
		l := logged(steps)
		got, w := expand(t, l.rows), want(steps)
		if l.open {
			// The open repetition's matched steps are not rows yet.
			f := l.rows[len(l.rows)-1]
			for k := range l.pos {
				got = append(got, l.rows[len(l.rows)-1-f.Period+k].What)
			}
		}
		left := strings.Count(strings.Join(got, "\n"), "?")
		if len(got) != len(w) {
			t.Fatalf("trial %d: rows stand for %d steps, replayed %d", trial, len(got), len(w))
		}
		for i := range w {
			if got[i] != w[i] && !(got[i] == "?" && w[i][0] != 'r') {
				t.Fatalf("trial %d: step %d is %q, replayed %q", trial, i+1, got[i], w[i])
			}
		}
		if left > 0 && len(l.rows) < maxStepRows/2 {
			t.Errorf("trial %d: %d steps left out of %d rows", trial, left, len(l.rows))
		}
	}
}

// Four threads taking a lock in turns for a million rounds make a
// transcript of a few dozen rows.
func TestStepLogOfTurnsIsSmall(t *testing.T) {
	l := &stepLog{}
	for range 1_000_000 {
		for th := range 4 {
			l.decision(noProg, th, "", "pthread_mutex_lock", (th+1)%4)
			l.decision(noProg, th, "", "pthread_mutex_unlock", (th+1)%4)
		}
	}
	l.racing(Step{What: "racing access 1", Racing: 1})
	if len(l.rows) > 20 || l.n != 8_000_001 {
		t.Fatalf("%d rows for %d steps", len(l.rows), l.n)
	}
}

// A schedule that never repeats keeps at most maxStepRows rows: the
// first, the last and those around the racing accesses, with the steps
// between them counted.
func TestStepLogLeavesOutFarSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	l := &stepLog{}
	const n = 200_000
	for i := range n {
		if i == 50_000 {
			l.racing(Step{What: "racing access 1", Racing: 1})
			continue
		}
		l.decision(noProg, rng.IntN(8), fmt.Sprint(rng.IntN(1000)), "lock", rng.IntN(8))
	}
	if len(l.rows) > maxStepRows {
		t.Fatalf("%d rows", len(l.rows))
	}
	total, racing, near := 0, -1, 0
	for i, r := range l.rows {
		if r.N != total+1 {
			t.Fatalf("row %d numbered %d after %d steps", i, r.N, total)
		}
		total += r.Steps()
		if r.Racing != 0 {
			racing = i
		}
	}
	if total != n || racing < 0 {
		t.Fatalf("rows stand for %d steps, racing access at row %d", total, racing)
	}
	for _, r := range l.rows[racing-nearRace : racing+nearRace+1] {
		if r.Left == 0 {
			near++
		}
	}
	if near != 2*nearRace+1 || l.rows[0].N != 1 || l.rows[headRows-1].Left != 0 {
		t.Errorf("kept %d rows around the racing access; first rows %+v", near, l.rows[:2])
	}
}
