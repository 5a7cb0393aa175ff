package evidence

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"augur/internal/safefile"

	"augur/analyzer/exec/vm"
	"augur/analyzer/judge/classify"
)

// Style is how a transcript is written: plain text for a terminal, or
// Markdown for an editor.
type Style int

const (
	Text Style = iota
	Markdown
)

// Render writes the transcript of a replay: the evidence it replayed, each
// scheduling step with its source line (the racing accesses marked), and
// the outcome. Paths are shown relative to base when inside it.
func (tr *Transcript) Render(w io.Writer, ev *Evidence, base string, style Style) {
	r := renderer{w: w, base: base, style: style, src: sourceLines{}, starts: tr.Starts, stepWidth: 5}
	if n := len(tr.Steps); n > 0 {
		last := &tr.Steps[n-1]
		r.stepWidth = max(len(fmt.Sprint(last.N+last.Steps()-1)), r.stepWidth)
	}
	r.header(ev)
	r.steps(tr)
	if tr.Result != nil {
		r.outcome(ev, tr)
	}
	if !tr.Reproduced {
		if style == Markdown {
			fmt.Fprintf(w, "\n**Not reproduced:** %s\n", tr.Mismatch)
		} else {
			fmt.Fprintf(w, "\nNOT REPRODUCED: %s\n", tr.Mismatch)
		}
	}
}

// RenderOutputDifference writes what the two orders of an output-differs
// race printed, side by side, marking the lines that differ.
func RenderOutputDifference(w io.Writer, ev *Evidence, style Style) {
	r := renderer{w: w, style: style}
	if style == Markdown {
		fmt.Fprintf(w, "# Output difference: race on `%s`\n\n%s\n\n", ev.Race.Object, ev.Reason)
	}
	r.outputTable(ev)
	r.fileTables(ev, true)
}

type renderer struct {
	w     io.Writer
	base  string
	style Style
	src   sourceLines
	// starts name the threads (Transcript.Starts).
	starts map[int]string
	// stepWidth is the width of the step column: the last step's number.
	stepWidth int
}

func (r *renderer) rel(p string) string {
	if rp, err := filepath.Rel(r.base, p); err == nil && r.base != "" && !strings.HasPrefix(rp, "..") {
		return rp
	}
	return p
}

func (r *renderer) header(ev *Evidence) {
	if ev.Kind == KindFailure {
		r.failureHeader(ev)
		return
	}
	if r.style == Markdown {
		fmt.Fprintf(r.w, "# augur replay: %s race on `%s`\n\n", ev.Category, ev.Race.Object)
		fmt.Fprintf(r.w, "%s\n\n", ev.Reason)
		fmt.Fprintf(r.w, "- order: %s\n- inputs: `%q`\n", ev.Order, ev.Inputs.Argv[1:])
		if ev.Inputs.Stdin != "" {
			fmt.Fprintf(r.w, "- stdin: `%q`\n", ev.Inputs.Stdin)
		}
		fmt.Fprintf(r.w, "- program: %s\n", strings.Join(ev.Program.Files, ", "))
		if ts := r.threads(); ts != "" {
			fmt.Fprintf(r.w, "- threads: %s\n", ts)
		}
		for _, wr := range ev.WeakReads {
			fmt.Fprintf(r.w, "- weak memory: %s\n", r.weakRead(wr))
		}
		r.w.Write([]byte("\n"))
		fmt.Fprintf(r.w, "| step | thread | location | source | event |\n|---|---|---|---|---|\n")
		return
	}
	fmt.Fprintf(r.w, "augur replay: %s race on %s (%s order)\n", ev.Category, ev.Race.Object, ev.Order)
	fmt.Fprintf(r.w, "  %s\n  inputs: %q\n", ev.Reason, ev.Inputs.Argv[1:])
	if ts := r.threads(); ts != "" {
		fmt.Fprintf(r.w, "  threads: %s\n", ts)
	}
	for _, wr := range ev.WeakReads {
		fmt.Fprintf(r.w, "  weak memory: %s\n", r.weakRead(wr))
	}
	fmt.Fprintln(r.w)
	fmt.Fprintf(r.w, "%-*s %-6s %-28s %-40s %s\n", r.stepWidth, "step", "thread", "location", "source", "event")
}

// failureHeader introduces the replay of a failure: where it fails, the
// schedule that reaches it and the inputs.
func (r *renderer) failureHeader(ev *Evidence) {
	at := failurePlace(ev, r.rel)
	if r.style == Markdown {
		fmt.Fprintf(r.w, "# augur replay: %s%s\n\n%s\n\n- inputs: `%q`\n", ev.Expected.Termination, at, ev.Reason, ev.Inputs.Argv[1:])
		if ev.Inputs.Stdin != "" {
			fmt.Fprintf(r.w, "- stdin: `%q`\n", ev.Inputs.Stdin)
		}
		fmt.Fprintf(r.w, "- program: %s\n", strings.Join(ev.Program.Files, ", "))
		if ts := r.threads(); ts != "" {
			fmt.Fprintf(r.w, "- threads: %s\n", ts)
		}
		fmt.Fprintf(r.w, "\n| step | thread | location | source | event |\n|---|---|---|---|---|\n")
		return
	}
	fmt.Fprintf(r.w, "augur replay: %s%s\n  %s\n  inputs: %q\n", ev.Expected.Termination, at, ev.Reason, ev.Inputs.Argv[1:])
	if len(ev.Inputs.Vars) > 0 {
		fmt.Fprintf(r.w, "  input values: %v\n", ev.Inputs.Vars)
	}
	if ts := r.threads(); ts != "" {
		fmt.Fprintf(r.w, "  threads: %s\n", ts)
	}
	fmt.Fprintln(r.w)
	fmt.Fprintf(r.w, "%-*s %-6s %-28s %-40s %s\n", r.stepWidth, "step", "thread", "location", "source", "event")
}

// threads names the replay's threads by their start functions, in
// order: "0 main, 1 worker, 2 worker".
func (r *renderer) threads() string {
	ids := make([]int, 0, len(r.starts))
	for t := range r.starts {
		ids = append(ids, t)
	}
	sort.Ints(ids)
	names := make([]string, len(ids))
	for i, t := range ids {
		names[i] = fmt.Sprintf("%d %s", t, r.starts[t])
	}
	return strings.Join(names, ", ")
}

// failurePlace is " at file:line" of the failure evidence records, with
// the file named by name; "" when the failure has no one place (a
// deadlock).
func failurePlace(ev *Evidence, name func(string) string) string {
	if ev.Expected.File == "" {
		return ""
	}
	return fmt.Sprintf(" at %s:%d", name(ev.Expected.File), ev.Expected.Line)
}

func (r *renderer) steps(tr *Transcript) {
	for _, s := range tr.Steps {
		if s.Period > 0 || s.Left > 0 {
			r.foldedSteps(&s)
			continue
		}
		mark := fmt.Sprint(s.N)
		if s.Racing != 0 {
			mark = ">>>"
		}
		loc, code := "-", ""
		if s.Loc.File != "" {
			loc = fmt.Sprintf("%s:%d", r.rel(s.Loc.File), s.Loc.Line)
			code = r.src.line(s.Loc.File, s.Loc.Line)
		}
		thread := fmt.Sprint(s.Thread)
		if s.Thread < 0 {
			thread = "-"
		}
		if r.style == Markdown {
			if s.Racing != 0 {
				mark = "**racing**"
			}
			if code != "" {
				code = "`" + strings.ReplaceAll(code, "|", "\\|") + "`"
			}
			fmt.Fprintf(r.w, "| %s | %s | %s | %s | %s |\n", mark, thread, loc, code, strings.ReplaceAll(s.What, "|", "\\|"))
			continue
		}
		if len(code) > 40 {
			code = code[:37] + "..."
		}
		fmt.Fprintf(r.w, "%-*s %-6s %-28s %-40s %s\n", r.stepWidth, mark, thread, loc, code, s.What)
	}
}

// foldedSteps writes a row that stands for many steps: a repetition of
// the rows above it, or steps left out.
func (r *renderer) foldedSteps(s *Step) {
	last := s.N + s.Steps() - 1
	var what string
	if s.Period > 0 {
		rows := "the step above"
		if s.Period > 1 {
			rows = fmt.Sprintf("the %d steps above", s.Period)
		}
		what = fmt.Sprintf("%s again, %s more %s (steps %s to %s)", rows, count(s.Again), plural(s.Again, "time", "times"), count(s.N), count(last))
	} else {
		what = fmt.Sprintf("%s %s far from the race left out (steps %s to %s)", count(s.Left), plural(s.Left, "step", "steps"), count(s.N), count(last))
	}
	if r.style == Markdown {
		fmt.Fprintf(r.w, "| … | | | | %s |\n", what)
		return
	}
	fmt.Fprintf(r.w, "%-*s %s\n", r.stepWidth, "...", what)
}

// count writes n with thousands separated: 4,249,989.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (r *renderer) outcome(ev *Evidence, tr *Transcript) {
	t := tr.Result.Term
	fmt.Fprintln(r.w)
	if t.Kind != vm.TermExit {
		if r.style == Markdown {
			fmt.Fprintf(r.w, "## Outcome\n\n```\n%s```\n", t.Report())
		} else {
			fmt.Fprint(r.w, "outcome: "+t.Report())
		}
		return
	}
	what := "; the other order printed something else"
	filesOnly := len(ev.Expected.Files) > 0 && ev.Expected.Stdout == ev.Expected.OtherStdout
	if filesOnly {
		what = ", printing what the other order printed; the other order left " + classify.FileNames(ev.Expected.Files) + " otherwise"
	}
	if r.style == Markdown {
		fmt.Fprintf(r.w, "## Outcome\n\nExit status %d%s:\n\n", t.Status, what)
	} else {
		fmt.Fprintf(r.w, "outcome: exit status %d%s:\n\n", t.Status, what)
	}
	if !filesOnly {
		r.outputTable(ev)
	}
	r.fileTables(ev, !filesOnly)
	for _, o := range tr.Result.Output {
		if len(o.Stack) > 0 {
			fmt.Fprintf(r.w, "\n  %q printed by thread %d at %s (%s)", strings.TrimSpace(string(o.Data)), o.Thread,
				r.rel(o.Stack[0].Loc.File)+fmt.Sprintf(":%d", o.Stack[0].Loc.Line), o.Stack[0].Function)
		}
	}
	fmt.Fprintln(r.w)
}

// weakRead describes a read that returned an older value.
func (r *renderer) weakRead(c vm.WeakChoice) string {
	from := "its initial value"
	if c.Read.At != "" {
		from = "the store at " + r.relLoc(c.Read.At)
	}
	var missed []string
	for _, m := range c.Missed {
		missed = append(missed, fmt.Sprintf("%d at %s", m.Value, r.relLoc(m.At)))
	}
	return fmt.Sprintf("thread %d read %s = %d at %s (%s), not the later store(s) of %s", c.Thread, c.Object, c.Value,
		r.relLoc(c.ReadAt), from, strings.Join(missed, ", "))
}

// relLoc makes a file:line:col location relative to the base.
func (r *renderer) relLoc(loc string) string {
	if r.base != "" && strings.HasPrefix(loc, r.base+"/") {
		return loc[len(r.base)+1:]
	}
	return loc
}

// outputTable shows the harmful order's stdout beside the other order's.
func (r *renderer) outputTable(ev *Evidence) {
	r.sideBySide("this order ("+ev.Order+")", "the other order", ev.Expected.Stdout, ev.Expected.OtherStdout)
}

// fileTables shows, for each file the two orders left differently, this
// order's version beside the other's (their first vm.MaxFileHead bytes),
// after a blank line when after is set or the table is not the first.
func (r *renderer) fileTables(ev *Evidence, after bool) {
	for i, f := range ev.Expected.Files {
		if i >= len(ev.Expected.OtherFiles) {
			break
		}
		if after || i > 0 {
			fmt.Fprintln(r.w)
		}
		o := ev.Expected.OtherFiles[i]
		r.sideBySide(f.Name()+" as this order left it"+fileState(f), "as the other order left it"+fileState(o), f.Contents, o.Contents)
	}
}

// fileState says, after a file's name, what the order did to it when it
// holds no contents to show: " (removed)", " (as given, or not made)".
func fileState(f classify.File) string {
	switch {
	case f.Untouched:
		return " (as given, or not made)"
	case f.Removed:
		return " (removed)"
	case uint64(len(f.Contents)) < f.Size:
		return fmt.Sprintf(" (first %d of %d bytes)", len(f.Contents), f.Size)
	}
	return ""
}

// sideBySide shows two texts line by line, marking the lines that
// differ.
func (r *renderer) sideBySide(left, right, a, b string) {
	mine := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	other := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if r.style == Markdown {
		fmt.Fprintf(r.w, "| | %s | %s |\n|---|---|---|\n", left, right)
	} else {
		fmt.Fprintf(r.w, "  %-36s | %s\n", left, right)
	}
	for i := 0; i < max(len(mine), len(other)); i++ {
		a, b := "", ""
		if i < len(mine) {
			a = mine[i]
		}
		if i < len(other) {
			b = other[i]
		}
		diff := " "
		if a != b {
			diff = "*"
		}
		if r.style == Markdown {
			cell := func(s string) string {
				if s == "" {
					return ""
				}
				return "`" + strings.ReplaceAll(s, "|", "\\|") + "`"
			}
			if diff == "*" {
				diff = "≠"
			}
			fmt.Fprintf(r.w, "| %s | %s | %s |\n", diff, cell(a), cell(b))
			continue
		}
		fmt.Fprintf(r.w, "%s %-36s | %s\n", diff, a, b)
	}
}

// sourceLines caches the lines of source files for the transcript.
type sourceLines map[string][]string

func (s sourceLines) line(file string, n int) string {
	lines, ok := s[file]
	if !ok {
		if data, err := safefile.Read(file, safefile.Rules{Max: safefile.MaxSource}); err == nil {
			lines = strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		}
		s[file] = lines
	}
	if n >= 1 && n <= len(lines) {
		return strings.TrimSpace(lines[n-1])
	}
	return ""
}
