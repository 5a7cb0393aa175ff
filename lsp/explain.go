package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"augur/analyzer/judge/category"
	"augur/analyzer/output/report"
)

// This file says a race in the user's words, for the diagnostic message
// and the hover: which variable, the other access, what goes wrong and in
// which order, and what to do. The analysis's own terms (stages, k, the
// exploration budgets) stay in the hover's details line and in the JSON.

// raceStory is what the editor says about one racing access.
type raceStory struct {
	site *raceSite
	// name is what the source calls the racing memory (`book->entries`),
	// or augur's description of it when no source text names it.
	name string
	me   report.Access
	// other is the other access.
	other report.Access
	// here is the file of this access: places in it are "line N".
	here string
}

// story gathers what the messages about site need. Caller holds mu.
func (s *Server) story(site *raceSite) raceStory {
	r := site.race
	st := raceStory{site: site, me: site.shown[site.access], other: site.shown[1-site.access]}
	st.here = st.me.File
	st.name = "`" + r.Object + "`" // the analysis names the memory as the source does (analyzer.nameRaces)
	if v := site.via[site.access]; v != "" {
		st.name += " inside " + v // the library's name for it: `__x->_M_right` inside std::map::operator[]
	}
	return st
}

// at names a place: "line N" in this access's file, "file.c:N" elsewhere.
func (st raceStory) at(file string, line int) string {
	if file == st.here || !filepath.IsAbs(file) && strings.HasSuffix(st.here, "/"+file) {
		return fmt.Sprintf("line %d", line)
	}
	return fmt.Sprintf("%s:%d", baseName(file), line)
}

// access names the race's access i: "the free in main (line 43)", or
// "the write in std::map::operator[], called from fill (line 9)" for one
// inside a library.
func (st raceStory) access(i int) string {
	a := st.site.shown[i]
	return fmt.Sprintf("the %s in %s (%s)", a.Noun(), st.site.inFunction(i), st.at(a.File, a.Line))
}

// inFunction names the function the race's access i is shown in: its own,
// or for an access inside a library the library function the program
// called, and from where.
func (site *raceSite) inFunction(i int) string {
	if v := site.via[i]; v != "" {
		return v + ", called from " + site.shown[i].Function
	}
	return site.shown[i].Function
}

// runsFirst is the index of the access the harmful order runs first, and
// whether the report says which (older reports do not).
func (st raceStory) runsFirst() (int, bool) {
	r := st.site.race
	if len(r.HarmfulOrder) != 2 {
		return 0, false
	}
	return r.HarmfulOrder[0], true
}

// failure says how the harmful order fails, briefly: "crashes with a use
// after free at line 33".
func (st raceStory) failure() string {
	f := st.site.race.Failure
	if f == nil {
		return "fails"
	}
	cause := f.Message
	if i := strings.Index(cause, ": "); i > 0 {
		cause = cause[:i]
	}
	for _, short := range []string{"double free", "use after free", "null pointer dereference"} {
		if strings.HasPrefix(cause, short) {
			cause = short
		}
	}
	where := ""
	if f.Line > 0 {
		where = " at " + st.at(f.File, f.Line)
	}
	switch f.Kind {
	case "assert":
		return fmt.Sprintf("fails an assertion%s (%s)", where, shortPaths(cause))
	case "deadlock":
		return "deadlocks" + where
	case "hang":
		return "hangs (it loops forever: the same states come back and nothing changes memory)" + where
	case "memory-error", "crash":
		return fmt.Sprintf("crashes%s: %s", where, shortPaths(cause))
	}
	return fmt.Sprintf("fails%s: %s", where, shortPaths(cause))
}

// consequence is what goes wrong, in one or two sentences.
func (st raceStory) consequence() string {
	r := st.site.race
	switch st.site.category {
	case classifying:
		return "augur is checking whether either order of the two accesses is harmful."
	case string(category.SpecViolated):
		who := "In one order of the two accesses"
		if first, ok := st.runsFirst(); ok {
			who = fmt.Sprintf("If %s runs first,", st.access(first))
			if first == st.site.access {
				who = fmt.Sprintf("If this %s runs first,", st.me.Noun())
			}
		}
		return fmt.Sprintf("%s the program %s.", who, st.failure()) + weakNote(r.Consequence)
	case string(category.OutputDiffers):
		what := "prints different output"
		if fs := r.FilesDiffer; len(fs) > 0 {
			names := make([]string, len(fs))
			for i, f := range fs {
				names[i] = f.Name
			}
			what = "writes different contents to " + strings.Join(names, ", ")
			if !r.PrintedSame {
				what = "prints different output and " + what
			}
		}
		return "The program " + what + " depending on which runs first." + weakNote(r.Consequence)
	case string(category.Harmless):
		return fmt.Sprintf("Likely harmless: both orders gave the same result in %d %s.", r.K, plural(r.K, "try", "tries")) +
			report.DestroyNote(r.Accesses[0].Call, r.Accesses[1].Call)
	case string(category.SingleOrdering):
		return "Only one order of the two accesses can happen: " + sentence(r.Reason)
	case report.Unclassified:
		return "augur could not decide what this race does: " + sentence(r.Reason)
	}
	return sentence(shortPaths(r.Consequence))
}

// weakNote keeps the sentence of a consequence that says the harm needs
// the weak memory model.
func weakNote(consequence string) string {
	if i := strings.Index(consequence, " It needs the weak memory model"); i >= 0 {
		return shortPaths(consequence[i:])
	}
	return ""
}

// fix says what to do about the race.
func (st raceStory) fix() string {
	if tf := st.teardownFix(); tf != "" {
		return tf
	}
	switch st.site.category {
	case string(category.SpecViolated):
		f := st.site.race.Failure
		if st.me.Kind == "free" || st.other.Kind == "free" || f != nil && strings.Contains(f.Message, "free") {
			return "Free the memory only after every thread that uses it is done with it (join them first), " +
				"or guard the pointer and the free with one mutex."
		}
		return fmt.Sprintf("Hold the same mutex around both accesses to %s, or make it atomic.", st.name)
	case string(category.OutputDiffers):
		return "If the output must not depend on timing, order the two accesses: hold one mutex around both, " +
			"or wait for the writer (join it, or signal a condition variable) before reading."
	case string(category.Harmless), string(category.SingleOrdering):
		return "Nothing to fix if this is intended; the quick fix *Ignore this race* silences it (`// augur:ignore`)."
	}
	return ""
}

// teardownFix says what to do about a race between a use of a
// synchronization object (a call: a signal, a lock, a post) and its
// destroy or the free of its memory: hold the mutex, or protect the word,
// is no advice for those. The use must come before whatever lets the
// tearing-down thread go on; for a condition that is a signal made while
// the waiter's mutex is still held. "" for other races, and for harmless
// ones without a destroy (nothing POSIX leaves undefined).
func (st raceStory) teardownFix() string {
	use, end := st.me, st.other
	if ends(use) {
		use, end = end, use
	}
	if use.Call == "" || !ends(end) || ends(use) {
		return ""
	}
	c := st.site.category
	if c != string(category.SpecViolated) && (c != string(category.Harmless) || !strings.HasSuffix(end.Call, "_destroy")) {
		return ""
	}
	var fix string
	switch use.Call {
	case "pthread_cond_signal", "pthread_cond_broadcast":
		fix = fmt.Sprintf("Call %s while still holding the mutex, before pthread_mutex_unlock: the waiting thread "+
			"cannot return from its wait, and go on to the %s, until the signal has returned. "+
			"Or join %s's thread before the %s.", use.Call, end.Noun(), use.Function, end.Noun())
	default:
		fix = fmt.Sprintf("Let %s go on to the %s only after %s's last %s: join that thread first, "+
			"or have it say it is done (a flag under a mutex, a semaphore) after that call.",
			end.Function, end.Noun(), use.Function, use.Call)
	}
	if c == string(category.Harmless) {
		fix += " Or, since glibc's destroy changes nothing a later use notices, keep it: the quick fix " +
			"*Ignore this race* silences it (`// augur:ignore`)."
	}
	return fix
}

// ends reports whether a ends an object's life: a destroy call or a free.
func ends(a report.Access) bool { return a.Kind == "free" || strings.HasSuffix(a.Call, "_destroy") }

// headline says what kind of race this is, for the hover's first line.
func headline(c string) string {
	switch c {
	case string(category.SpecViolated):
		return "a data race that can make the program fail"
	case string(category.OutputDiffers):
		return "a data race that changes the output"
	case string(category.Harmless):
		return "a data race that looks harmless"
	case string(category.SingleOrdering):
		return "a data race whose other order cannot happen"
	case classifying:
		return "a data race, being classified"
	}
	return "a data race"
}

// message is the diagnostic's text: the race, the other access and what
// goes wrong, in a sentence or two.
func (st raceStory) message() string {
	return fmt.Sprintf("Data race on %s with %s. %s", st.name, st.access(1-st.site.access), st.consequence())
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
