package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"augur/analyzer/output/report"
)

// failurePrefix starts the ids of failures, which the evidence commands
// take as they take a race's id: the base name of the failure's evidence
// file, unique per failure and program.
const failurePrefix = "failure-"

// failureID is the id of a failure with evidence ("" without).
func failureID(f *report.Failure) string {
	if f.Evidence == "" {
		return ""
	}
	return strings.TrimSuffix(filepath.Base(f.Evidence), ".json")
}

// findFailure locates a failure of a complete analysis by id.
func (s *Server) findFailure(id string) (*targetState, *report.Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ts := range s.sortedTargets() {
		if ts.snap == nil || ts.snap.report == nil {
			continue
		}
		for i := range ts.snap.report.Failures {
			if f := &ts.snap.report.Failures[i]; failureID(f) == id {
				return ts, f
			}
		}
	}
	return nil, nil
}

// failureCommands are the commands that show a failure's evidence, for
// its code lenses and actions: none without evidence.
func failureCommands(f *report.Failure) []protocol.Command {
	id := failureID(f)
	if id == "" {
		return nil
	}
	return []protocol.Command{command("Replay evidence", cmdReplay, id), command("Show interleaving", cmdTimeline, id)}
}

// failuresIn are the failures with evidence the complete analyses found
// in path, with the range of their line. Caller holds mu.
func (s *Server) failuresIn(path string, l *lines) (out []failureSite) {
	seen := map[string]bool{}
	for _, ts := range s.sortedTargets() {
		sn := ts.snap
		if sn == nil || sn.report == nil {
			continue
		}
		for i := range sn.report.Failures {
			f := &sn.report.Failures[i]
			at, _, _ := failurePlace(f)
			if at.File != path || f.Evidence == "" || seen[failureID(f)] {
				continue
			}
			seen[failureID(f)] = true
			out = append(out, failureSite{f: f, rng: l.lineRange(sn, at.File, at.Line), diag: failureDiagnostic(*f, sn, l)})
		}
	}
	return out
}

// failureSite is a failure at its place in a file.
type failureSite struct {
	f    *report.Failure
	rng  protocol.Range
	diag protocol.Diagnostic
}

// failureActions are the code actions of the failures in path on lines
// from..to. Caller holds mu.
func (s *Server) failureActions(path string, from, to uint32, l *lines) []protocol.CommandOrCodeAction {
	quickfix := protocol.CodeActionKindQuickFix
	var out []protocol.CommandOrCodeAction
	for _, site := range s.failuresIn(path, l) {
		if site.rng.Start.Line < from || site.rng.Start.Line > to {
			continue
		}
		for _, c := range failureCommands(site.f) {
			out = append(out, &protocol.CodeAction{Title: fmt.Sprintf("%s of the %s", c.Title, site.f.Kind),
				Kind: &quickfix, Diagnostics: []protocol.Diagnostic{site.diag}, Command: c})
		}
	}
	return out
}

// failurePlace is where the editor shows failure f: where it happened, or
// for a failure inside a library the program's innermost call into it
// (report.PlaceInProgram). from is that frame's index in f.Stack (0 for
// f's own place), and own says the place is the program's: false for a
// failure whose stack has no frame of the program's (a static destructor
// run by exit), shown where it happened.
func failurePlace(f *report.Failure) (at report.Frame, from int, own bool) {
	return report.PlaceInProgram(report.Frame{File: f.File, Line: f.Line}, f.Stack)
}
