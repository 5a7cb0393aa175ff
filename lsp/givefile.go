package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"augur/analyzer/output/report"
	"augur/lsp/workspace"
)

// Files a program looked for and was not given. augur gives a program
// only the files augur.toml lists, so a program whose input sits in the
// workspace runs, and is analyzed, on the path a missing file takes. The
// report names such files (report.FileNotGiven); here each becomes an
// information where the program looked, and a quick fix that lists the
// file in augur.toml: in the program's target when augur.toml describes
// it, otherwise in the top-level files every program gets (making
// augur.toml when there is none), which leaves which programs are
// analyzed as it was.

// fileNotGivenDiagnostic marks where the program looked for a file it was
// not given: the analysis ran the program without it. It says what the
// quick fix would write, for a client that offers none.
func (s *Server) fileNotGivenDiagnostic(f report.FileNotGiven, ts *targetState, sn *snapshot, l *lines) protocol.Diagnostic {
	rng := l.fromColumn(sn, f.File, f.Line, 0)
	var msg string
	switch {
	case filepath.IsAbs(f.Name):
		msg = fmt.Sprintf("augur: the program looks for %s here, which exists on this machine, but augur gives a program only the files "+
			"it is told to: the analysis of %s ran without it. augur.toml gives files from inside the workspace: copy it in and list it "+
			"as NAME=PATH (files = [%q]).", f.Name, ts.name(), f.Name+"="+filepath.Base(f.Name))
	case ts.target != nil && ts.target.SourcesLine > 0:
		msg = fmt.Sprintf("augur: the program looks for %s here, and the workspace has that file, but augur gives a program only the files "+
			"it is told to: the analysis of %s ran without it. To let it read the file, list it in the target's files in augur.toml: "+
			"files = [%q].", f.Name, ts.name(), f.Name)
	default:
		msg = fmt.Sprintf("augur: the program looks for %s here, and the workspace has that file, but augur gives a program only the files "+
			"it is told to: the analysis of %s ran without it. To let it read the file, list it in augur.toml's top-level files, "+
			"which every program of the workspace gets: files = [%q].", f.Name, ts.name(), f.Name)
	}
	return protocol.Diagnostic{Range: rng, Severity: protocol.DiagnosticSeverityInformation, Source: protocol.NewOptional(sourceAugur),
		Code: protocol.String("file-not-given"), Message: protocol.String(msg)}
}

// fileActions are the quick fixes of the files path's program looked for
// on lines first to last (0-based) and was not given: each lists one in
// augur.toml. Caller holds mu.
func (s *Server) fileActions(path string, first, last uint32, l *lines) []protocol.CommandOrCodeAction {
	quickfix := protocol.CodeActionKindQuickFix
	var out []protocol.CommandOrCodeAction
	seen := map[string]bool{}
	for _, ts := range s.sortedTargets() {
		sn := ts.snap
		if sn == nil || sn.report == nil {
			continue
		}
		for _, f := range sn.report.FilesNotGiven {
			if f.File != path || filepath.IsAbs(f.Name) || seen[f.Name] {
				continue
			}
			diag := s.fileNotGivenDiagnostic(f, ts, sn, l)
			if diag.Range.Start.Line < first || diag.Range.Start.Line > last {
				continue
			}
			edit := s.giveFileEdit(ts.target, f.Name, l)
			if edit == nil {
				continue
			}
			seen[f.Name] = true
			preferred := true
			out = append(out, &protocol.CodeAction{Title: fmt.Sprintf("Give %s to the program (augur.toml files)", f.Name),
				Kind: &quickfix, Diagnostics: []protocol.Diagnostic{diag}, Edit: edit, IsPreferred: &preferred})
		}
	}
	return out
}

// giveFileEdit lists name in augur.toml's files for target t: in the
// target's own files when augur.toml describes it, otherwise at the top.
// An existing files key is extended when it is written on one line;
// otherwise a files line is added (before the target's sources, or at
// the top of the file). nil when the edit cannot be made safely: a files
// array over several lines, augur.toml edited since it was read, or a
// client that cannot make the file. Caller holds mu.
func (s *Server) giveFileEdit(t *workspace.Target, name string, l *lines) *protocol.WorkspaceEdit {
	if s.ws == nil || t == nil || s.ws.ConfigError() != nil {
		return nil
	}
	cfgPath := s.ws.ConfigPath()
	u := uri.File(cfgPath)
	quoted := strconv.Quote(name)
	insert := func(line, col int, text string) *protocol.WorkspaceEdit {
		pos := protocol.Position{Line: uint32(line), Character: uint32(col)}
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: {{Range: protocol.Range{Start: pos, End: pos}, NewText: text}}}}
	}
	filesLine, before := 0, 0
	switch cfg := s.ws.Config(); {
	case t.SourcesLine > 0:
		filesLine, before = t.FilesLine, t.SourcesLine-1
	case cfg != nil:
		filesLine = cfg.FilesLine
	default:
		if _, open := s.docs[cfgPath]; open || !s.createFiles {
			return nil
		}
		if _, err := os.Stat(cfgPath); err == nil {
			return nil // there since it was read: the next reading decides
		}
		return &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
			&protocol.CreateFile{ResourceOperation: protocol.ResourceOperation{Kind: "create"}, Kind: "create", URI: u},
			&protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}, // version null: the file is new
				Edits: []protocol.TextDocumentEditElement{&protocol.TextEdit{NewText: "files = [" + quoted + "]\n"}}},
		}}
	}
	if filesLine == 0 {
		if _, ok := keyLine(l.get(cfgPath, before), "sources"); t.SourcesLine > 0 && !ok {
			return nil // the files line goes above sources = [...]: an inline table, or an edit since it was read
		}
		return insert(before, 0, "files = ["+quoted+"]\n")
	}
	text := l.get(cfgPath, filesLine-1)
	value, ok := keyLine(text, "files")
	if !ok || !strings.HasPrefix(value, "[") || !strings.HasSuffix(value, "]") {
		return nil
	}
	if slices.ContainsFunc(strings.Split(value[1:len(value)-1], ","), func(item string) bool { return strings.TrimSpace(item) == quoted }) {
		return nil // listed since the analysis: the next one gives it
	}
	end := strings.LastIndex(text, "]")
	sep := ", "
	if strings.TrimSpace(value[1:len(value)-1]) == "" {
		sep = ""
	}
	return insert(filesLine-1, utf16Col(text, end), sep+quoted)
}

// keyLine returns the value of a line of augur.toml that sets key
// (key = value), trimmed; ok is false for any other line.
func keyLine(text, key string) (value string, ok bool) {
	k, v, found := strings.Cut(text, "=")
	if !found || strings.TrimSpace(k) != key {
		return "", false
	}
	return strings.TrimSpace(v), true
}
