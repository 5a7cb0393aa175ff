package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"augur/analyzer/detect/tsan"
)

// This file compares the races ThreadSanitizer reported on a native build
// of an application (scripts/apps.sh -s: NAME.tsan.K.PID, one file per
// run) with the races of augur's report on the same sources and inputs.
// A race is compared as the pair of its two accesses' source lines: the
// first frame of each stack that names a file (ThreadSanitizer's own
// interceptors, pthread_mutex_lock or memcpy, name none, so the access is
// placed at their call, as augur places a library call's access), by the
// file's base name and the line. Columns are left out: an optimized build
// places a few accesses at another column of the same line.

// site is one access's source line.
type site struct {
	file string
	line int
}

func (s site) String() string { return fmt.Sprintf("%s:%d", s.file, s.line) }

// racePair is a race by its two sites, the lesser first.
type racePair [2]site

func newPair(a, b site) racePair {
	if b.file < a.file || b.file == a.file && b.line < a.line {
		a, b = b, a
	}
	return racePair{a, b}
}

func (p racePair) String() string { return p[0].String() + " | " + p[1].String() }

// pairOf returns the pair of sites a and b, and what ta and tb say of
// each in the pair's order.
func pairOf[T any](a, b site, ta, tb T) (racePair, [2]T) {
	p := newPair(a, b)
	if p[0] != a {
		ta, tb = tb, ta
	}
	return p, [2]T{ta, tb}
}

// tsanRace is a race ThreadSanitizer reported, by its two sites, with the
// function of each site and whether the access was a pthread call's use
// of a mutex (tsan.UseOfMutex: pthread_mutex_unlock, pthread_mutex_lock),
// both in the pair's order.
type tsanRace struct {
	pair     racePair
	fn       [2]string
	mutexUse [2]bool
}

// tsanRaces reads the data races of every ThreadSanitizer log of
// application name in dir, with how many runs reported each, and how many
// runs there were (NAME.tsan-runs; 0: none ran).
func tsanRaces(dir, name string) (map[racePair]*tsanRace, map[racePair]int, int, error) {
	data, err := os.ReadFile(filepath.Join(dir, name+".tsan-runs"))
	if os.IsNotExist(err) {
		return nil, nil, 0, nil
	}
	if err != nil {
		return nil, nil, 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s.tsan-runs: %w", name, err)
	}
	logs, err := filepath.Glob(filepath.Join(dir, name+".tsan.*"))
	if err != nil {
		return nil, nil, 0, err
	}
	races, runs := map[racePair]*tsanRace{}, map[racePair]int{}
	for _, l := range logs {
		seen, err := readTSanLog(l)
		if err != nil {
			return nil, nil, 0, err
		}
		for p, r := range seen {
			if races[p] == nil {
				races[p] = r
			}
			runs[p]++
		}
	}
	return races, runs, n, nil
}

// readTSanLog returns the distinct data races of one run's log (augur's
// own reader of ThreadSanitizer's reports, tsan.Parse, reads it).
func readTSanLog(path string) (map[racePair]*tsanRace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	races := map[racePair]*tsanRace{}
	text := string(data)
	if !strings.Contains(text, "WARNING: ThreadSanitizer: data race") {
		return races, nil // a run's other warnings only (a thread leak)
	}
	ws, err := tsan.Parse(strings.NewReader(text), path, 1)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if w.Truncated {
			continue
		}
		a, b := w.Accesses[0], w.Accesses[1]
		fa, okA := sourceFrame(a.Frames)
		fb, okB := sourceFrame(b.Frames)
		if !okA || !okB {
			continue
		}
		sa, sb := site{filepath.Base(fa.File), fa.Line}, site{filepath.Base(fb.File), fb.Line}
		r := &tsanRace{}
		r.pair, r.fn = pairOf(sa, sb, tsan.FuncName(fa.Func), tsan.FuncName(fb.Func))
		_, r.mutexUse = pairOf(sa, sb, tsan.UseOfMutex(a), tsan.UseOfMutex(b))
		races[r.pair] = r
	}
	return races, nil
}

// sourceFrame is the first frame of a stack with a source line.
func sourceFrame(frames []tsan.Frame) (tsan.Frame, bool) {
	for _, f := range frames {
		if f.File != "" && f.Line > 0 {
			return f, true
		}
	}
	return tsan.Frame{}, false
}

// augurRace is a race of augur's report by its sites, with the function
// of each.
type augurRace struct {
	pair racePair
	fn   [2]string
}

// augurRaces returns the races of augur's report.
func augurRaces(r *result) map[racePair]augurRace {
	out := map[racePair]augurRace{}
	for _, x := range r.Races {
		if len(x.Accesses) != 2 {
			continue
		}
		a, b := x.Accesses[0], x.Accesses[1]
		var ar augurRace
		ar.pair, ar.fn = pairOf(site{filepath.Base(a.File), a.Line}, site{filepath.Base(b.File), b.Line},
			tsan.FuncName(a.Function), tsan.FuncName(b.Function))
		out[ar.pair] = ar
	}
	return out
}

// atAnotherCall reports whether augur reports race t at another call of
// the same critical section: one access at the same line, the other, a
// use of a mutex in ThreadSanitizer's report, at a line at or above it in
// the same function (the lock an unlock closes; augur's own reading of
// ThreadSanitizer's reports, tsan.Match, takes the nearest). A
// race with a destroyed mutex is one: ThreadSanitizer keeps a thread's
// last access to the mutex (its unlock), augur its lock, the access
// whose other order has the consequence.
func atAnotherCall(t *tsanRace, mine map[racePair]augurRace) bool {
	for i := range 2 {
		if !t.mutexUse[i] {
			continue
		}
		same, other := t.pair[1-i], t.pair[i]
		for _, a := range mine {
			for j := range 2 {
				s := a.pair[1-j]
				if a.pair[j] == same && s.file == other.file && a.fn[1-j] == t.fn[i] && s.line <= other.line {
					return true
				}
			}
		}
	}
	return false
}

// printTSan prints, for each application with ThreadSanitizer logs, how
// many of the races it reported augur's report has, and the ones it lacks.
func printTSan(w io.Writer, dir string, reports map[string]*result) error {
	header := false
	for _, p := range portend {
		races, seen, runs, err := tsanRaces(dir, p.name)
		if err != nil {
			return err
		}
		if runs == 0 {
			continue
		}
		if !header {
			fmt.Fprintln(w)
			fmt.Fprintln(w, "ThreadSanitizer on a native build, the same sources and inputs: distinct races as pairs of source lines")
			fmt.Fprintf(w, "%-10s %-5s %-5s %-24s %-26s %s\n", "program", "runs", "tsan", "in augur's, same lines",
				"in augur's, another call", "augur's")
			header = true
		}
		res := reports[p.name]
		if res == nil {
			fmt.Fprintf(w, "%-10s %-5d %-5d (no augur report)\n", p.name, runs, len(races))
			continue
		}
		mine := augurRaces(res)
		same, another := 0, 0
		var missing []racePair
		for rp, t := range races {
			switch _, ok := mine[rp]; {
			case ok:
				same++
			case atAnotherCall(t, mine):
				another++
			default:
				missing = append(missing, rp)
			}
		}
		fmt.Fprintf(w, "%-10s %-5d %-5d %-24d %-26d %d\n", p.name, runs, len(races), same, another, len(mine))
		slices.SortFunc(missing, func(a, b racePair) int { return strings.Compare(a.String(), b.String()) })
		for _, rp := range missing {
			fmt.Fprintf(w, "           not in augur's report: %s (in %d of %d runs)\n", rp, seen[rp], runs)
		}
	}
	return nil
}
