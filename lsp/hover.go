package lsp

import (
	"augur/analyzer/output/evidence"
	"context"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"augur/analyzer/detect/tsan"
	"augur/analyzer/judge/category"
	"augur/analyzer/output/report"
	"augur/lsp/workspace"
)

// Hover explains the race under the cursor.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	site := s.siteAt(path, params.Position)
	if site == nil {
		return nil, nil
	}
	md := s.hoverText(site, &lines{s: s})
	rng := site.rng
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &rng}, nil
}

// siteAt finds the racing access at pos: one whose range holds it, else
// one on its line; where several races are, the most severe (a
// spec-violated one before a harmless one on the same read). Caller holds
// mu.
func (s *Server) siteAt(path string, pos protocol.Position) *raceSite {
	sites := s.shownSites(path, &lines{s: s})
	var at, onLine *raceSite
	worse := func(a, b *raceSite) bool {
		return b == nil || category.Named(a.category).Severity < category.Named(b.category).Severity
	}
	for i := range sites {
		r := sites[i].rng
		if r.Start.Line != pos.Line {
			continue
		}
		if pos.Character >= r.Start.Character && pos.Character <= r.End.Character && worse(&sites[i], at) {
			at = &sites[i]
		}
		if worse(&sites[i], onLine) {
			onLine = &sites[i]
		}
	}
	if at != nil {
		return at
	}
	return onLine
}

// hoverText is the Markdown explanation of one racing access: what goes
// wrong and in which order, how to see it, how to fix it; the analysis's
// own terms last, on one line. Caller holds mu.
func (s *Server) hoverText(site *raceSite, l *lines) string {
	r := site.race
	st := s.story(site)
	var b strings.Builder
	fmt.Fprintf(&b, "**augur: %s** — %s (%s)\n\n", st.name, headline(site.category), site.category)
	fmt.Fprintf(&b, "This %s in %s (%s) races with %s.", st.me.Noun(), site.inFunction(site.access), st.at(st.me.File, st.me.Line),
		st.access(1-site.access))
	if more := site.alsoText(); more != "" {
		b.WriteString(" " + more)
	}
	b.WriteString("\n\n")
	what := "**What goes wrong:** "
	if site.category == string(category.Harmless) || site.category == string(category.SingleOrdering) {
		what = "**What augur saw:** "
	}
	b.WriteString(what + st.consequence() + "\n\n")
	if order := st.order(); order != "" {
		fmt.Fprintf(&b, "- **Order:** %s\n", order)
	}
	if in := r.Inputs; in != nil && !emptyInputs(in) {
		fmt.Fprintf(&b, "- **Input:** %s\n", describeInputs(in))
	}
	if site.category == string(category.OutputDiffers) && len(r.Outputs) >= 2 {
		fmt.Fprintf(&b, "- **Output:** %s\n", outputDifference(r.Outputs[0], r.Outputs[1]))
	}
	for _, f := range r.FilesDiffer {
		fmt.Fprintf(&b, "- **File `%s`:** %s\n", f.Name, fileDifference(f))
	}
	if p := r.Pattern; p != nil {
		fmt.Fprintf(&b, "- **Benign pattern — %s:** %s\n", p.Name, p.Evidence)
	}
	if ws := r.TSanWarnings(); len(ws) > 0 {
		fmt.Fprintf(&b, "- **ThreadSanitizer** reported this race too: %s\n", site.ts.tsanOrigin(ws))
	}
	if r.Evidence != "" {
		fmt.Fprintf(&b, "\n**See it:** the code lens *Show interleaving* draws both threads step by step; *Replay evidence* "+
			"runs this exact interleaving again (in a terminal: `augur replay %s`).\n", r.Evidence)
	}
	if f := verifiedFix(r); f != nil {
		fmt.Fprintf(&b, "\n**Fix (checked by augur):** %s. %s. Apply it with the quick fix on this line.\n", f.Title, capitalize(f.Checked))
	} else if fix := st.fix(); fix != "" {
		fmt.Fprintf(&b, "\n**Fix:** %s\n", fix)
	}

	if site.category != classifying {
		fmt.Fprintf(&b, "\n---\n*Details:* %s\n", details(r, site.ts.target))
	}
	return b.String()
}

// order says who did what first in the execution that shows the verdict.
func (st raceStory) order() string {
	first, ok := st.runsFirst()
	if !ok {
		return ""
	}
	a, c := st.site.shown[first], st.site.shown[1-first]
	return fmt.Sprintf("%s %s in %s, then %s %s in %s", a.ThreadName(), a.Verb(), st.site.inFunction(first), c.ThreadName(),
		c.Verb(), st.site.inFunction(1-first))
}

// emptyInputs reports whether inputs are the program's plain defaults,
// which need no mention.
func emptyInputs(in *report.Inputs) bool {
	return len(in.Args) == 0 && in.Stdin == "" && len(in.Files) == 0 && len(in.Vars) == 0
}

// outputQuote shows a program's output briefly, in code, its line ends
// visible.
// outputDifference says where two outputs first differ, with the line
// before as context: the first lines of two orders' outputs are often
// the same banner.
func outputDifference(a, b string) string {
	d := evidence.FirstDifference(a, b)
	if d.Line == 0 {
		return "the same" // not an output difference after all; say nothing more
	}
	side := func(text string, ended bool) string {
		if ended {
			return "nothing more"
		}
		return outputQuote(text + "\n")
	}
	s := fmt.Sprintf("at line %d of the output, one order prints %s, the other %s", d.Line, side(d.A, d.AEnded), side(d.B, d.BEnded))
	if d.Before != "" {
		s += fmt.Sprintf(" (both after %s)", outputQuote(d.Before+"\n"))
	}
	return s
}

// fileDifference says how the two orders of a race left a file: where
// their versions first differ, or that one removed it or left it as
// given.
func fileDifference(f report.FileDifference) string {
	state := func(v report.FileVersion) string {
		switch {
		case v.Untouched:
			return "leaves it as given (or does not make it)"
		case v.Removed:
			return "removes it"
		}
		return ""
	}
	a, b := state(f.Harmful), state(f.Other)
	if a != "" || b != "" {
		side := func(s string, v report.FileVersion) string {
			if s != "" {
				return s
			}
			return fmt.Sprintf("leaves %d bytes in it", v.Size)
		}
		return fmt.Sprintf("one order %s, the other %s", side(a, f.Harmful), side(b, f.Other))
	}
	d := evidence.FirstDifference(f.Harmful.Contents, f.Other.Contents)
	if d.Line == 0 {
		return fmt.Sprintf("the two orders leave it %d and %d bytes long, the same in their first %d", f.Harmful.Size, f.Other.Size,
			min(len(f.Harmful.Contents), len(f.Other.Contents)))
	}
	side := func(text string, ended bool) string {
		if ended {
			return "nothing more"
		}
		return outputQuote(text + "\n")
	}
	return fmt.Sprintf("at line %d of the file, one order leaves %s, the other %s", d.Line, side(d.A, d.AEnded), side(d.B, d.BEnded))
}

func outputQuote(out string) string {
	if out == "" {
		return "nothing"
	}
	out = strings.ReplaceAll(strings.TrimSuffix(out, "\n"), "\n", " ⏎ ")
	if r := []rune(out); len(r) > 60 {
		out = string(r[:57]) + "…"
	}
	return "`" + strings.ReplaceAll(out, "`", "'") + "`"
}

// details is the analysis's account of the verdict, for those who want it:
// how the race was found, how often, and what classification compared.
func details(r *report.Race, t *workspace.Target) string {
	var parts []string
	if how := foundBy(r.FoundBy); how != "" {
		parts = append(parts, "found by "+how)
	}
	if r.Instances > 1 {
		parts = append(parts, fmt.Sprintf("seen %d times", r.Instances))
	}
	parts = append(parts, explored(r, t))
	return strings.Join(parts, "; ") + "."
}

// foundBy explains a detection technique to someone who has not read
// docs/detection.md.
func foundBy(t string) string {
	switch t {
	case "round-robin":
		return "the round-robin schedule"
	case "sync-reversal":
		return "a schedule that postpones one thread's lock acquisition or wake-up (interleaving generation)"
	case "pct":
		return "a randomized (PCT) schedule"
	case "inputs":
		return "a run on an input the exploration of inputs found"
	case "race-directed":
		return "race-directed scheduling: a schedule that held one thread at its access until the other reached its own"
	case "history":
		return "an earlier analysis of this program (the history across saves)"
	}
	return t
}

func describeInputs(in *report.Inputs) string {
	parts := []string{fmt.Sprintf("arguments `%q`", in.Args)}
	if in.Stdin != "" {
		parts = append(parts, fmt.Sprintf("stdin `%q`", in.Stdin))
	}
	names := make([]string, 0, len(in.Files))
	for name := range in.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("file %s `%q`", name, in.Files[name]))
	}
	// The bytes of the arguments, standard input and files are shown
	// whole above; the other inputs (__VERIFIER_nondet_*, augur_make_symbolic)
	// by name.
	var vars []string
	for name, v := range in.Vars {
		if !strings.Contains(name, "[") {
			vars = append(vars, fmt.Sprintf("%s = %d", name, int64(v)))
		}
	}
	sort.Strings(vars)
	if len(vars) > 0 {
		parts = append(parts, "input values "+strings.Join(vars, ", "))
	}
	return strings.Join(parts, ", ")
}

// explored says what classification compared: k, the stage that decided
// and the budgets (docs/categories.md explains them).
func explored(r *report.Race, t *workspace.Target) string {
	var b strings.Builder
	switch r.Category {
	case string(category.Harmless):
		fmt.Fprintf(&b, "both orders compared in %d %s (k = %d)", r.K, plural(r.K, "execution pair", "execution pairs"), r.K)
	case string(category.SpecViolated), string(category.OutputDiffers):
		fmt.Fprintf(&b, "shown by execution pair %d of those compared (k = %d)", r.K+1, r.K)
	default:
		fmt.Fprintf(&b, "k = %d", r.K)
	}
	if r.Stage != "" {
		fmt.Fprintf(&b, ", %s stage", r.Stage)
	}
	if t != nil {
		fmt.Fprintf(&b, "; budget Mp = %d, Ma = %d, %d schedules", t.Settings.Mp, t.Settings.Ma, t.Settings.Schedules)
	}
	return b.String()
}

// tsanOrigin names ThreadSanitizer warnings by report and line, as the
// target's settings (tsanReport) read them: "warning 2 (ci/tsan.log,
// line 14)".
func (ts *targetState) tsanOrigin(ws []int) string {
	var warnings []tsan.Warning
	if ts.snap != nil && ts.snap.opts != nil {
		warnings = ts.snap.opts.TSan
	}
	parts := make([]string, 0, len(ws))
	for _, n := range ws {
		part := fmt.Sprintf("warning %d", n)
		for _, w := range warnings {
			if w.Index == n {
				part += fmt.Sprintf(" (%s, line %d)", w.Source, w.Line)
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// verifiedFix is a race's first verified fix, or nil.
func verifiedFix(r *report.Race) *report.Fix {
	for i := range r.Fixes {
		if r.Fixes[i].Verified {
			return &r.Fixes[i]
		}
	}
	return nil
}
