package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"augur/analyzer/category"
	"augur/analyzer/report"
	"augur/lsp/workspace"
)

// categoryMeaning says what a category means, for hovers.
func categoryMeaning(c string) string {
	if c == classifying {
		return "augur is still classifying this race: it will run both orders of the accesses and compare the outcomes."
	}
	return category.Named(c).Meaning
}

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
	md := hoverText(site, site.ts.target)
	rng := site.rng
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &rng}, nil
}

// siteAt finds the racing access at pos: one whose range holds it, else
// one on its line. Caller holds mu.
func (s *Server) siteAt(path string, pos protocol.Position) *raceSite {
	sites := s.racesIn(path, &lines{s: s})
	var onLine *raceSite
	for i := range sites {
		r := sites[i].rng
		if r.Start.Line != pos.Line {
			continue
		}
		if pos.Character >= r.Start.Character && pos.Character <= r.End.Character {
			return &sites[i]
		}
		if onLine == nil {
			onLine = &sites[i]
		}
	}
	return onLine
}

// hoverText is the Markdown explanation of one racing access.
func hoverText(site *raceSite, t *workspace.Target) string {
	r := site.race
	me, other := r.Accesses[site.access], r.Accesses[1-site.access]
	var b strings.Builder
	fmt.Fprintf(&b, "**augur: data race on `%s`** — %s\n\n", r.Object, site.category)
	meaning := categoryMeaning(site.category)
	if site.category == report.Unclassified && r.Reason != "" {
		meaning += " " + r.Reason
	}
	fmt.Fprintf(&b, "%s\n\n", meaning)
	if site.category != classifying {
		fmt.Fprintf(&b, "**Consequence:** %s\n\n", r.Consequence)
	}
	fmt.Fprintf(&b, "- **This access:** %s\n", describeAccess(me))
	fmt.Fprintf(&b, "- **Other access:** %s\n", describeAccess(other))
	if in := r.Inputs; in != nil {
		fmt.Fprintf(&b, "- **Input:** %s\n", describeInputs(in))
	}
	if r.Schedule != "" {
		fmt.Fprintf(&b, "- **Schedule:** %s\n", r.Schedule)
	}
	if site.category != classifying {
		fmt.Fprintf(&b, "- **Explored:** %s\n", explored(r, t))
	}
	if r.Instances > 1 {
		fmt.Fprintf(&b, "- **Seen:** %d times across the detection schedules\n", r.Instances)
	}
	if how := foundBy(r.FoundBy); how != "" {
		fmt.Fprintf(&b, "- **Found by:** %s\n", how)
	}
	if r.Evidence != "" {
		fmt.Fprintf(&b, "\n**Replay:** use the code action *Replay evidence* (it replays this exact interleaving and "+
			"opens its transcript), or run `augur replay %s` in a terminal.\n", r.Evidence)
	}
	return b.String()
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

func describeAccess(a report.Access) string {
	return fmt.Sprintf("%s by thread %d in `%s` at %s:%d", a.Kind, a.Thread, a.Function, baseName(a.File), a.Line)
}

func describeInputs(in *report.Inputs) string {
	parts := []string{fmt.Sprintf("arguments `%q`", in.Args)}
	if in.Stdin != "" {
		parts = append(parts, fmt.Sprintf("stdin `%q`", in.Stdin))
	}
	for name, data := range in.Files {
		parts = append(parts, fmt.Sprintf("file %s `%q`", name, data))
	}
	if len(in.Vars) > 0 {
		parts = append(parts, fmt.Sprintf("input values %v", in.Vars))
	}
	return strings.Join(parts, ", ")
}

// explored says what classification compared: k and the budgets.
func explored(r *report.Race, t *workspace.Target) string {
	var b strings.Builder
	switch r.Category {
	case string(category.Harmless):
		fmt.Fprintf(&b, "k = %d: %d pairs of executions (each order of the accesses once per pair) agreed", r.K, r.K)
	case string(category.SpecViolated), string(category.OutputDiffers):
		fmt.Fprintf(&b, "found at pair %d of the executions compared (each pair runs both orders)", r.K+1)
	default:
		fmt.Fprintf(&b, "k = %d", r.K)
	}
	if t != nil {
		fmt.Fprintf(&b, "; budget: up to Mp = %d primary paths × Ma = %d post-race schedules, %d detection schedules",
			t.Settings.Mp, t.Settings.Ma, t.Settings.Schedules)
	}
	if r.Stage != "" {
		fmt.Fprintf(&b, "; decided by the %s stage", r.Stage)
	}
	return b.String()
}
