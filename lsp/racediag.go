package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"augur/analyzer/exec/vm"
	"augur/analyzer/judge/category"
	"augur/analyzer/output/report"
)

// maxStackNotes bounds the caller frames each access lists among a race
// diagnostic's related information: a short stack, as clangd gives.
const maxStackNotes = 3

// raceDiagnostic is the diagnostic of one racing access. Its message names
// the other access and the consequence; its code is the category, linked
// to the category's documentation; its related information points at
// everything else the race involves: the other access, where the object
// was allocated, where the harmful order fails and where it freed the
// memory, and the callers of both accesses.
func (s *Server) raceDiagnostic(site raceSite, l *lines) protocol.Diagnostic {
	r := site.race
	st := s.story(&site)
	msg := st.message()
	if more := site.alsoText(); more != "" {
		msg += " " + more
	}
	if s.configProblem != nil {
		msg += " (From the last analysis: augur.toml has an error, and nothing is analyzed again until it is fixed.)"
	}
	rd := raceData{RaceID: r.ID, Target: site.ts.key, Category: site.category, Access: site.access,
		Evidence: len(evidenceCommands(r)) > 0 && site.category != classifying}
	if f := verifiedFix(r); f != nil {
		rd.Fix = f.Title
	}
	data, _ := json.Marshal(rd)
	d := protocol.Diagnostic{Range: site.rng, Severity: severityOf(site.category), Code: protocol.String(site.category),
		Source: protocol.NewOptional(sourceAugur), Message: protocol.String(msg), Data: data}
	if href := s.categoryDoc(site.category); href != "" {
		d.CodeDescription = protocol.CodeDescription{Href: uri.URI(href)}
	}
	d.RelatedInformation = raceRelated(r, site, l, st.name)
	return d
}

// alsoText says what other races a folded site stands for (foldSites), or
// "" when it stands for none.
func (site *raceSite) alsoText() string {
	races := plural(site.also, "race", "races")
	switch {
	case site.also == 0:
		return ""
	case site.inLibrary():
		return fmt.Sprintf("It stands for %d more %s inside the library's code, between the same two calls.", site.also, races)
	}
	return fmt.Sprintf("It stands for %d more %s between the same two statements, reached through other call paths.", site.also, races)
}

// raceRelated lists the places a race diagnostic points at, each once;
// name is what the messages call the racing memory.
func raceRelated(r *report.Race, site raceSite, l *lines, name string) []protocol.DiagnosticRelatedInformation {
	sn := site.ts.snap
	me, other := site.shown[site.access], site.shown[1-site.access]
	var out []protocol.DiagnosticRelatedInformation
	seen := map[string]bool{}
	add := func(file string, line, col int, msg string) {
		key := fmt.Sprintf("%s:%d:%s", file, line, msg)
		if file == "" || line <= 0 || seen[key] {
			return
		}
		seen[key] = true
		out = append(out, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri.File(file), Range: l.place(sn, file, line, col)}, Message: msg})
	}
	add(other.File, other.Line, other.Column,
		fmt.Sprintf("the other access: %s of %s by %s in %s", other.Noun(), name, other.ThreadName(), site.inFunction(1-site.access)))
	// A place inside a library shows at the program's call into it, or
	// not at all when the report gives no stack to find that call by.
	place := func(at report.Frame, stack []report.Frame, msg string) {
		if fr, _, ok := report.PlaceInProgram(at, stack); ok {
			add(fr.File, fr.Line, fr.Column, msg)
		}
	}
	if f := r.Failure; f != nil {
		place(report.Frame{File: f.File, Line: f.Line, Column: f.Column}, f.Stack,
			fmt.Sprintf("the harmful order fails here, in thread %d: %s", f.Thread, shortPaths(f.Message)))
		if fr := f.Freed; fr != nil {
			place(*fr, nil, "the memory is freed here")
		}
	}
	if a := r.Allocated; a != nil {
		place(*a, nil, "the racing object is allocated here")
	}
	// Only the program's own calls are worth a note: a std::thread's
	// lambda is called through half a dozen frames of libstdc++'s
	// headers, which the user neither wrote nor can change.
	callers := func(acc report.Access, who string) {
		n := 0
		for i := 1; i < len(acc.Stack) && n < maxStackNotes; i++ {
			if fr := acc.Stack[i]; !vm.InLibrary(fr.File) {
				add(fr.File, fr.Line, fr.Column, fmt.Sprintf("%s: %s is called here, from %s", who, acc.Stack[i-1].Function, fr.Function))
				n++
			}
		}
	}
	callers(me, "this access")
	callers(other, "the other access")
	return out
}

// categoryDoc is the address of a category's documentation, or "" when
// the server does not know where its documentation is.
func (s *Server) categoryDoc(c string) string {
	if s.opts.DocsDir == "" || c == classifying {
		return ""
	}
	doc := category.Of(category.Category(c)).Doc
	file, anchor, _ := strings.Cut(doc, "#")
	href := string(uri.File(filepath.Join(s.opts.DocsDir, file)))
	if anchor != "" {
		href += "#" + anchor
	}
	return href
}
