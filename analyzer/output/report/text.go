package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
)

// WriteText writes a report that reads like a sanitizer's.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, x := range r.Races {
		fmt.Fprintf(&b, "WARNING: augur: data race on %s (%s) [%s]\n", x.Object, x.Category, x.ID)
		for i, a := range x.Accesses {
			what := capitalize(a.Kind)
			if i == 0 {
				what = "Previous " + a.Kind
			}
			size := ""
			if a.Size > 0 {
				size = fmt.Sprintf(" of size %d", a.Size)
			}
			call := ""
			if a.Call != "" {
				call = ", in " + a.Call
			}
			fmt.Fprintf(&b, "  %s%s by %s%s:\n", what, size, a.ThreadName(), call)
			writeFrames(&b, a.Stack)
		}
		if x.Memory != "" {
			fmt.Fprintf(&b, "  Memory: %s\n", x.Memory)
		}
		found := ""
		if x.FoundBy != "" {
			found = " (found by " + x.FoundBy + ")"
		}
		fmt.Fprintf(&b, "  Instances: %d%s\n  %s\n", x.Instances, found, x.Consequence)
		if ws := x.TSanWarnings(); len(ws) > 0 {
			fmt.Fprintf(&b, "  Reported by ThreadSanitizer: %s\n", tsanList(ws))
		}
		if x.Stage != "" {
			fmt.Fprintf(&b, "  Decided by: %s (k=%d): %s\n", x.Stage, x.K, x.Reason)
		}
		if p := x.Pattern; p != nil {
			fmt.Fprintf(&b, "  Benign pattern: %s: %s\n", p.Name, p.Evidence)
		}
		if len(x.Outputs) > 1 {
			fmt.Fprintf(&b, "  Outputs seen (%s memory model):", r.MemoryModel)
			for _, o := range x.Outputs {
				fmt.Fprintf(&b, " %q", o)
			}
			b.WriteString("\n")
		}
		for _, f := range x.FilesDiffer {
			fmt.Fprintf(&b, "  File %s: %s, against %s in the other order\n", f.Name, f.Harmful.describe(), f.Other.describe())
		}
		for _, wr := range x.WeakReads {
			from := "its initial value"
			if wr.WrittenAt != "" {
				from = "the store at " + wr.WrittenAt
			}
			fmt.Fprintf(&b, "  Weak read: thread %d read %s = %d at %s (%s), missing the stores at %s\n",
				wr.Thread, wr.Object, wr.Value, wr.At, from, strings.Join(wr.Missed, ", "))
		}
		if x.Evidence != "" {
			fmt.Fprintf(&b, "  Replay: augur replay %s\n", x.Evidence)
		}
		writeFixes(&b, x.Fixes)
		b.WriteString("\n")
	}
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "ERROR: augur: %s: %s (schedule: %s)\n", f.Kind, f.Message, f.Schedule)
		if flag := BudgetFlags[f.Budget]; flag != "" {
			fmt.Fprintf(&b, "  (the %s budget: raise %s to give the program more)\n", f.Budget, flag)
		}
		if len(f.Threads) > 0 {
			ids := make([]int, 0, len(f.Threads))
			for id := range f.Threads {
				n, _ := strconv.Atoi(id)
				ids = append(ids, n)
			}
			sort.Ints(ids)
			for _, id := range ids {
				fmt.Fprintf(&b, "  thread %d:\n", id)
				writeFrames(&b, f.Threads[strconv.Itoa(id)])
			}
		} else {
			fmt.Fprintf(&b, "  in thread %d:\n", f.Thread)
			writeFrames(&b, f.Stack)
		}
		if len(f.Inputs.Vars) > 0 {
			fmt.Fprintf(&b, "  inputs: args %q", f.Inputs.Args)
			names := make([]string, 0, len(f.Inputs.Vars))
			for n := range f.Inputs.Vars {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(&b, " %s=%d", n, f.Inputs.Vars[n])
			}
			b.WriteString("\n")
		}
		switch {
		case strings.HasSuffix(f.Evidence, "-inputs.json"): // inputs only: no schedule to replay
			fmt.Fprintf(&b, "  replay: augur run --inputs %s ...\n", f.Evidence)
		case f.Evidence != "":
			fmt.Fprintf(&b, "  Replay: augur replay %s\n", f.Evidence)
		}
		b.WriteString("\n")
	}
	for _, inv := range r.Inversions {
		fmt.Fprintf(&b, "WARNING: augur: lock-order inversion (potential deadlock) between %s and %s [%s]\n", inv.Locks[0], inv.Locks[1], inv.ID)
		fmt.Fprintf(&b, "  thread %d took %s, then %s:\n", inv.First[0].Thread, inv.Locks[0], inv.Locks[1])
		writeFrames(&b, inv.First[0].Stack)
		writeFrames(&b, inv.First[1].Stack)
		fmt.Fprintf(&b, "  thread %d took %s, then %s:\n", inv.Second[0].Thread, inv.Locks[1], inv.Locks[0])
		writeFrames(&b, inv.Second[0].Stack)
		writeFrames(&b, inv.Second[1].Stack)
		b.WriteString("\n")
	}
	if r.Stats.Paths > 1 || r.Stats.StoppedBy != "" || r.Stats.LongInputRuns > 0 || r.Stats.LongInputsLeftOut > 0 {
		fmt.Fprintf(&b, "EXPLORATION: %d paths with symbolic inputs, %d solver queries", r.Stats.Paths, r.Stats.SolverQueries)
		if len(r.Stats.SymbolicInputs) > 0 {
			fmt.Fprintf(&b, "; symbolic: %s", strings.Join(r.Stats.SymbolicInputs, ", "))
		}
		if n := r.Stats.PathBudget; n > 0 {
			fmt.Fprintf(&b, "; each path after the given inputs' had %d instructions (%dx theirs, at least %d)", n, race.AutoFactor, race.AutoFloor)
			if all := r.Stats.PathsBudget; all > 0 {
				fmt.Fprintf(&b, " and all of them %d", all)
			}
		}
		if r.Stats.StoppedBy != "" {
			fmt.Fprintf(&b, "; stopped early by the %s", r.Stats.StoppedBy)
		}
		if r.Stats.FloatConcretized > 0 {
			fmt.Fprintf(&b, "; %d floating-point values made concrete", r.Stats.FloatConcretized)
		}
		if r.Stats.PointerTargetsGivenUp > 0 {
			fmt.Fprintf(&b, "; %d symbolic pointers had more targets than followed", r.Stats.PointerTargetsGivenUp)
		}
		if r.Stats.ForksRefused > 0 {
			fmt.Fprintf(&b, "; %d paths not explored (state budget)", r.Stats.ForksRefused)
		}
		if r.Stats.PinnedPaths > 0 {
			fmt.Fprintf(&b, "; %d paths went on along one input without forking (solver budget)", r.Stats.PinnedPaths)
		}
		if n := r.Stats.LongInputRuns; n > 0 {
			fmt.Fprintf(&b, "; %d executions on explored inputs ran out of their budget (inputs that make the program run longer than it allows; the first: %s)",
				n, r.Stats.LongInputSchedule)
		}
		if n := r.Stats.LongInputsLeftOut; n > 0 {
			fmt.Fprintf(&b, "; %d more such inputs not run under the detector (the exploration's run of each went past its instruction budget)", n)
		}
		b.WriteString("\n")
	}
	if st := r.Stopped; st != nil {
		fmt.Fprintf(&b, "INCOMPLETE: augur: the analysis stopped early: %s while %s", st.Message, st.Stage)
		if st.Total > 0 {
			noun := "schedules ran"
			if st.Stage == "classifying" {
				noun = "races classified"
			}
			fmt.Fprintf(&b, " (%d of %d %s)", st.Done, st.Total, noun)
		}
		if flag := BudgetFlags[st.Budget]; flag != "" && st.Message != vm.InterruptedMessage {
			fmt.Fprintf(&b, "; what it found until then is above. Raise %s to let it finish.\n", flag)
		} else {
			b.WriteString("; what it found until then is above.\n")
		}
	}
	for _, g := range r.Incomplete {
		if g.Kind == GapBudget && g.Schedule != "" {
			fmt.Fprintf(&b, "INCOMPLETE: augur: %s", g.Message)
			if g.File != "" {
				fmt.Fprintf(&b, " at %s:%d:%d", g.File, g.Line, g.Column)
			}
			fmt.Fprintf(&b, " (schedule: %s); what the execution would have done after is not analyzed", g.Schedule)
			if flag := BudgetFlags[g.Budget]; flag != "" {
				fmt.Fprintf(&b, ". Raise %s to let it finish", flag)
			}
			b.WriteString(".\n")
			continue
		}
		if g.Kind != GapUnsupported {
			continue
		}
		fmt.Fprintf(&b, "INCOMPLETE: augur: %s", g.Message)
		if g.File != "" {
			fmt.Fprintf(&b, " at %s:%d:%d", g.File, g.Line, g.Column)
		}
		if g.Schedule != "" {
			fmt.Fprintf(&b, " (schedule: %s)", g.Schedule)
		}
		b.WriteString("; the executions that reached it stopped there")
		if h := unsupportedHint(g); h != "" {
			b.WriteString(". " + capitalize(h))
		}
		b.WriteString(".\n")
	}
	for _, m := range r.TSanUnreproduced {
		fmt.Fprintf(&b, "TSAN: ThreadSanitizer %s (%s / %s) not reproduced: %s\n", tsanList(m.Warnings), m.First, m.Second, m.Reason)
	}
	if len(r.SourcesTaken) > 0 {
		taken := make([]string, len(r.SourcesTaken))
		for i, t := range r.SourcesTaken {
			taken[i] = fmt.Sprintf("%s (defines %s, used by %s)", t.File, t.Symbol, t.NeededBy)
		}
		fmt.Fprintf(&b, "SOURCES: completed from the project's files: %s\n", strings.Join(taken, ", "))
	}
	if len(r.FilesNotGiven) > 0 {
		b.WriteString("FILES: " + FilesNotGivenText(r.FilesNotGiven) + "\n")
	}
	if len(r.Havoc) > 0 {
		fmt.Fprintf(&b, "HAVOC: calls to these undefined functions returned unconstrained values: %s\n", strings.Join(r.Havoc, ", "))
	}
	if x := r.Stats.Exploration; x != nil && x.Ended == race.EndedOneThread {
		b.WriteString("SCHEDULES: one: no execution created a second thread, so every schedule is the one already run")
		if x.ExitedEarly() {
			b.WriteString("; " + EarlyExitText(x) + ": if it needs arguments, input or files, give them")
		}
		b.WriteString("\n")
	} else if x != nil && x.Ended == race.EndedForkJoin {
		b.WriteString("SCHEDULES: one: on its inputs the threads met only where they were created and joined, and raced nowhere, ")
		if x.OutputOrder {
			b.WriteString("so every schedule runs them as this one did (only the order of what they print can differ)\n")
		} else {
			b.WriteString("so every schedule is the one already run\n")
		}
	} else if x != nil {
		fmt.Fprintf(&b, "SCHEDULES: explored after the plan, switching threads at synchronization and at %d racing access%s: %s; "+
			"%s %d PCT schedule%s%s%s (%d distinct switches in all); %s\n", x.Focus, pluralES(x.Focus), bounded(x),
			pctOrder(x), x.Schedules, plural(x.Schedules), depths(x.Depth), beside(x), x.Switches, exploreEnd(x))
	}
	if n := r.Stats.InstructionBudget; n != 0 && r.Stats.Schedules == 1 {
		fmt.Fprintf(&b, "BUDGET: the one schedule ran %d instructions with no instruction budget\n", r.Stats.FirstInstructions)
	} else if n != 0 {
		fmt.Fprintf(&b, "BUDGET: the first schedule ran %d instructions with no instruction budget; every later execution had %d (%dx, at least %d)\n",
			r.Stats.FirstInstructions, n, race.AutoFactor, race.AutoFloor)
	}
	writeShares(&b, r.Stats)
	writeLibraryRaces(&b, r.Races)
	fmt.Fprintf(&b, "SUMMARY: augur: %d race%s, %d failure%s, %d lock-order inversion%s in %d schedule%s (%d instructions, %.2fs)\n",
		len(r.Races), plural(len(r.Races)), len(r.Failures), plural(len(r.Failures)), len(r.Inversions), plural(len(r.Inversions)),
		r.Stats.Schedules, plural(r.Stats.Schedules), r.Stats.Instructions, r.Stats.Seconds)
	_, err := io.WriteString(w, b.String())
	return err
}

// BudgetFlags are the command-line flags that raise each budget.
var BudgetFlags = map[string]string{"instructions": "--max-instructions", "time": "--timeout", "memory": "--max-memory"}

func writeFrames(b *strings.Builder, st []Frame) {
	for i, f := range st {
		if f.File == "" && f.Line == 0 { // the middle of a deep stack (frames)
			fmt.Fprintf(b, "    %s\n", f.Function)
			continue
		}
		fmt.Fprintf(b, "    #%d %s %s:%d", i, f.Function, f.File, f.Line)
		if f.Column > 0 {
			fmt.Fprintf(b, ":%d", f.Column)
		}
		b.WriteString("\n")
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// depths says which PCT depths the exploration's schedules had, when it
// ran any: 2 and 3 in turn at first, deeper ones as it went on.
func depths(deepest int) string {
	switch {
	case deepest == 0:
		return ""
	case deepest <= 3:
		return " of depths 2 and 3"
	}
	return fmt.Sprintf(" of depths 2 to %d", deepest)
}

// pctOrder and beside say when the PCT schedules ran: after the
// enumeration's, or, a long program's first ones, beside them.
func pctOrder(x *Exploration) string {
	switch {
	case x.Beside == 0:
		return "then"
	case x.Beside == x.Schedules:
		return "and beside them"
	}
	return "and"
}

func beside(x *Exploration) string {
	if x.Beside == 0 || x.Beside == x.Schedules {
		return ""
	}
	return fmt.Sprintf(", the first %d beside them", x.Beside)
}

// bounded says what the bounded enumeration covered.
func bounded(x *Exploration) string {
	switch {
	case x.AllSchedules && x.Reduced:
		return fmt.Sprintf("every schedule, up to the order of independent steps (%d run; none needed more than %d preemptions)",
			x.Bounded, x.PreemptionBound)
	case x.AllSchedules:
		return fmt.Sprintf("every schedule (%d; none needed more than %d preemptions)", x.Bounded, x.PreemptionBound)
	case x.Exhaustive && x.Reduced:
		return fmt.Sprintf("all schedules with at most %d preemptions, up to the order of independent steps (%d run)",
			x.PreemptionBound, x.Bounded)
	case x.Exhaustive:
		return fmt.Sprintf("all %d schedules with at most %d preemptions", x.Bounded, x.PreemptionBound)
	}
	if x.CompleteBound > 0 {
		return fmt.Sprintf("all schedules with at most %d preemptions and some with %d (%d run in all)",
			x.CompleteBound, x.PreemptionBound, x.Bounded)
	}
	return fmt.Sprintf("%d of the schedules with at most %d preemptions (not all)", x.Bounded, x.PreemptionBound)
}

// exploreEnd says why the exploration stopped.
func exploreEnd(x *Exploration) string {
	switch x.Ended {
	case race.EndedSaturated:
		return "it stopped when a long run of schedules found nothing new"
	case race.EndedTime:
		return "its time ran out before it saturated (raise --explore-time to explore further)"
	case race.EndedBudget:
		return "the analysis's time budget stopped it"
	case race.EndedComplete:
		return "PCT had none left to run, as it switches at the same points"
	case race.EndedInstructions:
		return fmt.Sprintf("its schedules ran the %d instructions it had before it saturated (raise --explore-instructions to explore further)",
			x.InstructionBudget)
	}
	return "it stopped at its schedule limit"
}

func pluralES(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// tsanList names ThreadSanitizer warnings by their indices.
func tsanList(ws []int) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = strconv.Itoa(w)
	}
	if len(ws) == 1 {
		return "warning " + parts[0]
	}
	return "warnings " + strings.Join(parts, ", ")
}

// writeFixes prints a race's verified fixes with their diffs, and the
// rejected ones with why, in a line each.
func writeFixes(b *strings.Builder, fixes []Fix) {
	for _, f := range fixes {
		if !f.Verified {
			fmt.Fprintf(b, "  Fix not offered: %s (%s)\n", f.Title, f.Checked)
			continue
		}
		fmt.Fprintf(b, "  Fix: %s\n    %s\n", f.Title, capitalize(f.Checked))
		for _, l := range strings.SplitAfter(strings.TrimSuffix(f.Diff, "\n"), "\n") {
			b.WriteString("    " + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
}

// writeShares says which stages of detection after the plan ended on
// their share of instructions, and what they left out.
func writeShares(b *strings.Builder, st Stats) {
	for _, s := range []struct {
		sh         *Share
		what, unit string
	}{{st.InputsShare, "the plans on explored inputs", "execution"}, {st.DirectedShare, "race-directed runs", "potential race"}} {
		if s.sh == nil || s.sh.LeftOut == 0 {
			continue
		}
		fmt.Fprintf(b, "BUDGET: %s ran their share of instructions on executions that found nothing new, %d of %d (a stage's budget: %dx the first schedule's, at least %d up to a first schedule of %d, a floor that falls to none at %d; --explore-instructions), and left out %d %s%s\n",
			s.what, s.sh.Instructions, s.sh.InstructionBudget, race.StageRuns, race.ExploreFloor, race.FloorRun, race.LongRun, s.sh.LeftOut, s.unit, plural(s.sh.LeftOut))
	}
}

// FilesNotGivenText says which files the program looked for and ran
// without though they exist where augur ran, and how to give them: one
// sentence, for the report's FILES line and augur run's last word.
func FilesNotGivenText(fs []FileNotGiven) string {
	var found, flags []string
	for _, f := range fs {
		found = append(found, fmt.Sprintf("%s (%s:%d)", f.Name, f.File, f.Line))
		flags = append(flags, "--file "+f.Name)
	}
	exist, them := "exist", "them"
	if len(fs) == 1 {
		exist, them = "exists", "it"
	}
	return fmt.Sprintf("the program looked for %s, which augur was not given and which %s here: it ran without %s "+
		"(augur gives a program only the files it is told to); pass %s, or list %s in an augur.toml target's files",
		strings.Join(found, ", "), exist, them, strings.Join(flags, " "), them)
}

// ExitedEarly reports whether no execution created a second thread and
// the program exited with a nonzero status on its own inputs.
func (x *Exploration) ExitedEarly() bool {
	return x != nil && x.Ended == race.EndedOneThread && x.ExitStatus != 0
}

// EarlyExitText says that a program that never made a second thread
// exited with a nonzero status on its own inputs, so that a clean report
// of it is not read as a clean program: it most likely stopped before
// its threads for want of an argument, input or file.
func EarlyExitText(x *Exploration) string {
	text := fmt.Sprintf("the program exited with status %d on its own inputs before it created a second thread", x.ExitStatus)
	if x.ExitMessage != "" {
		text += fmt.Sprintf(" (its last words on standard error: %q)", x.ExitMessage)
	}
	return text + ", so nothing concurrent was analyzed"
}

// maxCallPairs bounds the pairs of calls the LIBRARIES line names.
const maxCallPairs = 3

// writeLibraryRaces says how many races are inside library code and from
// which of the program's calls (Access.InProgram): two threads that use a
// std::map with no lock race on dozens of its words, and the calls are
// what the developer fixes, marks with augur:ignore, and sees in the
// editor, once per pair.
func writeLibraryRaces(b *strings.Builder, races []Race) {
	type pair struct{ a, b string }
	var pairs []pair
	seen := map[pair]bool{}
	n := 0
	for _, r := range races {
		var at [2]string
		inside := false
		for i, a := range r.Accesses {
			shown, via, _ := a.InProgram()
			at[i] = fmt.Sprintf("%s:%d", shown.File, shown.Line)
			if via != "" {
				inside = true
				at[i] = via + " at " + at[i]
			}
		}
		if !inside {
			continue
		}
		n++
		p := pair{at[0], at[1]}
		if p.b < p.a {
			p = pair{p.b, p.a}
		}
		if !seen[p] {
			seen[p] = true
			pairs = append(pairs, p)
		}
	}
	if n == 0 {
		return
	}
	named := make([]string, 0, maxCallPairs)
	for _, p := range pairs[:min(len(pairs), maxCallPairs)] {
		named = append(named, p.a+" with "+p.b)
	}
	more := ""
	if len(pairs) > maxCallPairs {
		more = fmt.Sprintf("; and %d more", len(pairs)-maxCallPairs)
	}
	fmt.Fprintf(b, "LIBRARIES: %d of the races %s inside library code, from %d pair%s of the program's calls: %s%s\n",
		n, isAre(n), len(pairs), plural(len(pairs)), strings.Join(named, "; "), more)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
