package tsan

import (
	"fmt"
	"slices"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
)

// What an analysis does with ThreadSanitizer's warnings. Each warning's
// two accesses are found in the program (Matcher); warnings of the same
// pair of statements are one pair (Locate). Detection directs a schedule
// at each pair it did not find on its own (External, race.Options.External);
// a race it finds is its own, classified like any other, and carries the
// warnings it stands for (Match). A warning augur cannot reproduce is
// reported with the reason (Miss), never dropped.

// Miss is a ThreadSanitizer race augur did not reproduce.
type Miss struct {
	// Warnings are the 1-based indices of the warnings that reported it.
	Warnings []int
	// First and Second are the accesses' locations as the warnings give
	// them (file:line), as far as they were read.
	First, Second string
	Reason        string
}

// Pair is one pair of statements the warnings reported.
type Pair struct {
	key      string // race.LinePair of the two sites
	a, b     Site
	warnings []int
	// alone is set when one side is an allocation (tsan.Site.Alloc): b
	// is then the other access, and the race is any of b's statement
	// (key is its file:line).
	alone bool
	// mutexUse is set for a side (0: a, 1: b) whose access is a
	// pthread call's use of a mutex (UseOfMutex).
	mutexUse [2]bool
}

// mutexUses are the calls whose access ThreadSanitizer reports as a read
// of a lock (a mutex, a read-write lock, a spin lock): a thread's last one
// before a destroy is what it keeps.
var mutexUses = map[string]bool{"pthread_mutex_lock": true, "pthread_mutex_unlock": true, "pthread_mutex_trylock": true,
	"pthread_mutex_timedlock": true, "pthread_cond_wait": true, "pthread_cond_timedwait": true,
	"pthread_rwlock_rdlock": true, "pthread_rwlock_wrlock": true, "pthread_rwlock_tryrdlock": true,
	"pthread_rwlock_trywrlock": true, "pthread_rwlock_timedrdlock": true, "pthread_rwlock_timedwrlock": true,
	"pthread_rwlock_unlock": true, "pthread_spin_lock": true, "pthread_spin_trylock": true, "pthread_spin_unlock": true}

// UseOfMutex reports whether an access is a pthread call's use of a
// lock: its innermost frame is the call's, in no source file. augur
// counts a lock as such a use and not an unlock (libc's useMutex), so an
// unlock ThreadSanitizer reports stands for the lock before it.
func UseOfMutex(a Access) bool {
	return len(a.Frames) > 0 && a.Frames[0].File == "" && mutexUses[a.Frames[0].Func]
}

// Locate finds the warnings in prog: the pairs to direct schedules at,
// in the order of their first warning, and the warnings that cannot be
// (truncated, or not in the program).
func Locate(prog *ir.Program, warnings []Warning) ([]*Pair, []Miss) {
	if len(warnings) == 0 {
		return nil, nil
	}
	mt := NewMatcher(prog)
	var pairs []*Pair
	byKey := map[string]*Pair{}
	var missed []Miss
	for _, w := range warnings {
		where := func(i int) string {
			if i < len(w.Accesses) {
				for _, f := range w.Accesses[i].Frames {
					if f.File != "" {
						return fmt.Sprintf("%s:%d", f.File, f.Line)
					}
				}
			}
			return ""
		}
		if w.Truncated {
			missed = append(missed, Miss{Warnings: []int{w.Index}, First: where(0), Second: where(1),
				Reason: fmt.Sprintf("the warning at %s:%d is cut short: it lacks an access's stack", w.Source, w.Line)})
			continue
		}
		a, errA := mt.Locate(w.Accesses[0])
		b, errB := mt.Locate(w.Accesses[1])
		if err := cmpErr(errA, errB); err != nil {
			missed = append(missed, Miss{Warnings: []int{w.Index}, First: where(0), Second: where(1),
				Reason: "location not in the program: " + err.Error()})
			continue
		}
		key, alone := race.LinePair(a.Loc, b.Loc), false
		switch {
		case b.Alloc && !a.Alloc:
			a, b = b, a
			fallthrough
		case a.Alloc:
			key, alone = allocKey(b.File, b.Line), true
		}
		if p := byKey[key]; p != nil {
			p.warnings = append(p.warnings, w.Index)
			continue
		}
		p := &Pair{key: key, a: a, b: b, warnings: []int{w.Index}, alone: alone}
		if !alone {
			p.mutexUse = [2]bool{UseOfMutex(w.Accesses[0]), UseOfMutex(w.Accesses[1])}
		}
		byKey[key] = p
		pairs = append(pairs, p)
	}
	return pairs, missed
}

// allocKey is the key of the races of the access at file:line against
// the initialization of memory (Pair.alone).
func allocKey(file string, line int) string { return fmt.Sprintf("after allocation %s:%d", file, line) }

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// External is the detection's view of the pairs: the pairs of two
// accesses (a race against an allocation has one access to direct at;
// detection's own schedules find it, the memory's initialization racing
// with that access, or do not).
func External(pairs []*Pair) []*race.Candidate {
	var out []*race.Candidate
	for _, p := range pairs {
		if !p.alone {
			out = append(out, &race.Candidate{ID: "tsan " + p.key, Object: "reported by ThreadSanitizer", A: p.a.Loc, B: p.b.Loc})
		}
	}
	return out
}

// Match gives each of an analysis's races the warnings of its pair of
// statements, and says why each other pair was not reproduced: whether
// it is among the races an augur:ignore comment silenced (ignored), or
// the schedule detection directed at it (runs, race.Result.External)
// ran and what it saw.
func Match(pairs []*Pair, races, ignored []*race.Race, runs []race.ExternalRun) (map[*race.Race][]int, []Miss) {
	if len(pairs) == 0 {
		return nil, nil
	}
	found := map[*race.Race][]int{}
	byKey := map[string][]*race.Race{}
	for _, r := range races {
		byKey[race.RaceLinePair(r)] = append(byKey[race.RaceLinePair(r)], r)
		for _, e := range []race.Endpoint{r.First, r.Second} {
			k := allocKey(e.Loc.File, e.Loc.Line)
			if rs := byKey[k]; len(rs) == 0 || rs[len(rs)-1] != r {
				byKey[k] = append(byKey[k], r)
			}
		}
	}
	silenced := map[string]bool{}
	for _, r := range ignored {
		silenced[race.RaceLinePair(r)] = true
	}
	byID := map[string]race.ExternalRun{}
	for _, x := range runs {
		byID[x.ID] = x
	}
	var missed []Miss
	for _, p := range pairs {
		rs := byKey[p.key]
		if len(rs) == 0 {
			rs = p.sameCriticalSection(races)
		}
		if len(rs) > 0 {
			for _, r := range rs {
				found[r] = append(found[r], p.warnings...)
				slices.Sort(found[r])
			}
			continue
		}
		missed = append(missed, Miss{Warnings: p.warnings, First: fmt.Sprintf("%s:%d", p.a.File, p.a.Line),
			Second: fmt.Sprintf("%s:%d", p.b.File, p.b.Line), Reason: p.why(silenced[p.key], byID["tsan "+p.key])})
	}
	return found, missed
}

// sameCriticalSection returns the races that stand for a pair of which
// one side is a use of a mutex (mutexUse): those with the pair's other
// access and, for this side, the last access before it in the same
// function (the nearest line at or above it). ThreadSanitizer reports
// the use it kept, a thread's last (an unlock); augur reports the lock
// that took the mutex (libc's destroyMutex), the same thread's access to
// the same mutex, which opened the critical section the unlock closes.
func (p *Pair) sameCriticalSection(races []*race.Race) []*race.Race {
	var out []*race.Race
	for i, use := range p.mutexUse {
		if !use {
			continue
		}
		mine, other := p.a, p.b
		if i == 1 {
			mine, other = p.b, p.a
		}
		want := FuncName(mine.Frame.Func)
		best := 0
		var at []*race.Race
		for _, r := range races {
			for _, e := range [2][2]race.Endpoint{{r.First, r.Second}, {r.Second, r.First}} {
				if !sameLine(e[0], other) || e[1].Loc.File != mine.File || FuncName(e[1].Function) != want ||
					e[1].Loc.Line > mine.Line || e[1].Loc.Line < best {
					continue
				}
				if e[1].Loc.Line > best {
					best, at = e[1].Loc.Line, nil
				}
				at = append(at, r)
				break
			}
		}
		out = append(out, at...)
	}
	return out
}

// sameLine reports whether endpoint e is at site s's line.
func sameLine(e race.Endpoint, s Site) bool { return e.Loc.File == s.File && e.Loc.Line == s.Line }

// FuncName is a function's name without a demangled parameter list, as
// ThreadSanitizer's frames ("consumer(void*)") and augur's reports
// ("consumer") both name it.
func FuncName(name string) string {
	if i := strings.IndexByte(name, '('); i > 0 {
		return name[:i]
	}
	return name
}

// why says why pair p was not reproduced: silenced by an augur:ignore
// comment, or what the schedule directed at it (run) did.
func (p *Pair) why(silenced bool, run race.ExternalRun) string {
	reason := ""
	switch {
	case silenced:
		reason = "reproduced, and silenced by an augur:ignore comment"
	case p.alone:
		reason = "no race of " + p.b.Frame.Func + "'s access against the initialization of the memory allocated at " +
			fmt.Sprintf("%s:%d", p.a.File, p.a.Line) + " in augur's schedules"
	case !run.Ran:
		reason = "budget: the analysis's time ran out before a schedule was directed at it"
	case !run.Met && run.Inputs > 0:
		reason = fmt.Sprintf("never reached together, on the analysis's inputs nor on the %d explored: the schedules directed at the two accesses could not bring them together (something orders them, such as a lock augur follows and ThreadSanitizer does not, or the ThreadSanitizer run had inputs augur's exploration did not find)", run.Inputs)
	case !run.Met:
		reason = "never reached together: the schedule directed at the two accesses could not bring them together (something orders them, such as a lock augur follows and ThreadSanitizer does not, or the ThreadSanitizer run took another path or inputs; --sym-arg, --sym-stdin and --sym-file let augur explore inputs)"
	default:
		reason = "reached together but ordered: augur's schedules brought the accesses together and saw synchronization between them"
	}
	if p.a.Moved || p.b.Moved {
		reason += "; the lines moved since the ThreadSanitizer run, the nearest accesses in the same function were taken"
	}
	return reason
}
