package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"augur/internal/safefile"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/srctext"
	"augur/analyzer/judge/category"
	"augur/analyzer/output/evidence"
	"augur/analyzer/output/report"
)

// The commands the server executes (workspace/executeCommand). They are
// named apart from the VS Code extension's own augur.* commands, which
// call them: vscode-languageclient registers every server command with
// VS Code, and two registrations of one name fail.
const (
	cmdReplay     = "augur.server.replayEvidence"
	cmdOutputDiff = "augur.server.showOutputDifference"
	cmdIgnore     = "augur.server.ignoreRace"
	cmdAnalyzeNow = "augur.server.analyzeNow"
	cmdTimeline   = "augur.server.showInterleaving"
	cmdApplyFix   = "augur.server.applyFix"
)

func commandNames() []string {
	return []string{cmdReplay, cmdOutputDiff, cmdIgnore, cmdAnalyzeNow, cmdTimeline, cmdApplyFix}
}

// evidenceView is what an evidence command shows of a race's evidence.
type evidenceView int

const (
	viewTranscript evidenceView = iota // the replay, step by step (Markdown)
	viewOutputDiff                     // the two orders' outputs side by side (Markdown)
	viewTimeline                       // the replay drawn as one lane per thread (HTML)
)

// CodeAction offers, for each race in the range: replaying its evidence,
// showing its output difference, ignoring it; for each failure with
// evidence, replaying it; and analyzing now.
func (s *Server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	l := &lines{s: s}
	sites := s.shownSites(path, l)
	var actions []protocol.CommandOrCodeAction
	quickfix := protocol.CodeActionKindQuickFix
	seen := map[string]bool{}
	for i := range sites {
		site := &sites[i]
		if site.rng.Start.Line < params.Range.Start.Line || site.rng.Start.Line > params.Range.End.Line {
			continue
		}
		r := site.race
		diag := []protocol.Diagnostic{s.raceDiagnostic(*site, l)}
		name := s.story(site).name
		if !seen[r.ID] {
			seen[r.ID] = true
			actions = append(actions, s.fixActions(r, diag, l)...)
			for _, c := range evidenceCommands(r) {
				actions = append(actions, &protocol.CodeAction{Title: fmt.Sprintf("%s of the race on %s", c.Title, name),
					Kind: &quickfix, Diagnostics: diag, Command: c})
			}
		}
		if edit := s.ignoreEdit(path, int(site.rng.Start.Line)); edit != nil {
			actions = append(actions, &protocol.CodeAction{Title: fmt.Sprintf("Ignore this race on %s (add augur:ignore)", name),
				Kind: &quickfix, Diagnostics: diag, Edit: edit})
		}
	}
	actions = append(actions, s.failureActions(path, params.Range.Start.Line, params.Range.End.Line, l)...)
	actions = append(actions, s.fileActions(path, params.Range.Start.Line, params.Range.End.Line, l)...)
	s.mu.Unlock()
	if len(s.targetsOfFile(path)) > 0 {
		actions = append(actions, &protocol.CodeAction{Title: "Analyze now (augur)",
			Command: command("Analyze now", cmdAnalyzeNow, string(params.TextDocument.URI))})
	}
	return actions, nil
}

// fixActions are the quick fixes of a race: its verified fixes whose
// lines are still what the analysis saw (an edit since would make the
// edit land elsewhere), the first preferred. Caller holds mu.
func (s *Server) fixActions(r *report.Race, diag []protocol.Diagnostic, l *lines) []protocol.CommandOrCodeAction {
	quickfix := protocol.CodeActionKindQuickFix
	var out []protocol.CommandOrCodeAction
	for _, f := range r.Fixes {
		if !f.Verified {
			continue
		}
		if edit := fixEdit(f, l); edit != nil {
			preferred := len(out) == 0
			out = append(out, &protocol.CodeAction{Title: "Fix: " + f.Title + " (verified by augur)", Kind: &quickfix,
				Diagnostics: diag, Edit: edit, IsPreferred: &preferred})
		}
	}
	return out
}

// fixEdit is f as a workspace edit, or nil when a line it replaces has
// changed.
func fixEdit(f report.Fix, l *lines) *protocol.WorkspaceEdit {
	changes := map[uri.URI][]protocol.TextEdit{}
	for _, e := range f.Edits {
		for i, old := range e.Old {
			if strings.TrimRight(l.get(e.File, e.Line-1+i), "\r") != old {
				return nil
			}
		}
		rng := protocol.Range{Start: protocol.Position{Line: uint32(e.Line - 1)},
			End: protocol.Position{Line: uint32(e.Line - 1 + len(e.Old))}}
		u := uri.File(e.File)
		changes[u] = append(changes[u], protocol.TextEdit{Range: rng, NewText: e.Insert})
	}
	return &protocol.WorkspaceEdit{Changes: changes}
}

// evidenceCommands are the commands that show a race's evidence, for its
// code actions and its code lenses: none until it has evidence.
func evidenceCommands(r *report.Race) []protocol.Command {
	if r.Evidence == "" {
		return nil
	}
	out := []protocol.Command{command("Replay evidence", cmdReplay, r.ID), command("Show interleaving", cmdTimeline, r.ID)}
	if r.Category == string(category.OutputDiffers) {
		out = append(out, command("Show output difference", cmdOutputDiff, r.ID))
	}
	return out
}

// command builds a Command with string arguments.
func command(title, name string, args ...string) protocol.Command {
	c := protocol.Command{Title: title, Command: name}
	for _, a := range args {
		data, _ := json.Marshal(a)
		c.Arguments = append(c.Arguments, data)
	}
	return c
}

// ignoreEdit inserts the ignore marker at the end of a line (0-based,
// the editor's coordinates) of path; nil when it is already there.
// Caller holds mu.
func (s *Server) ignoreEdit(path string, line int) *protocol.WorkspaceEdit {
	text := (&lines{s: s}).get(path, line)
	if srctext.HasIgnoreMarker([]byte(text)) {
		return nil
	}
	insert := " // " + srctext.IgnoreMarker
	if strings.Contains(text, "//") {
		insert = " " + srctext.IgnoreMarker
	}
	end := protocol.Position{Line: uint32(line), Character: uint32(utf16Col(text, len(strings.TrimRight(text, " \t\r"))))}
	end2 := protocol.Position{Line: uint32(line), Character: uint32(utf16Col(text, len(text)))}
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
		uri.File(path): {{Range: protocol.Range{Start: end, End: end2}, NewText: insert}}}}
}

// targetsOfFile lists the targets a file belongs to or is built into.
func (s *Server) targetsOfFile(path string) []*targetState {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*targetState
	for _, ts := range s.sortedTargets() {
		if slices.Contains(ts.target.Sources, path) || ts.snap != nil && slices.Contains(ts.snap.files, path) {
			out = append(out, ts)
		}
	}
	return out
}

// ExecuteCommand runs one of the server's commands.
func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	args := make([]string, len(params.Arguments))
	for i, a := range params.Arguments {
		if err := json.Unmarshal(a, &args[i]); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: argument %d is not a string: %s", params.Command, i+1, a)
		}
	}
	var result any
	var err error
	switch params.Command {
	case cmdReplay, cmdOutputDiff, cmdTimeline:
		if len(args) < 1 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s needs a race id", params.Command)
		}
		view := map[string]evidenceView{cmdReplay: viewTranscript, cmdOutputDiff: viewOutputDiff, cmdTimeline: viewTimeline}
		id := args[0]
		if len(args) > 1 { // a line's lens for several races
			if id, err = s.pickSubject(ctx, args); err != nil || id == "" {
				return nil, err
			}
		}
		result, err = s.showEvidence(ctx, id, view[params.Command])
	case cmdIgnore:
		if len(args) < 1 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s needs a race id", params.Command)
		}
		result, err = s.ignoreRace(ctx, args[0])
	case cmdAnalyzeNow:
		result, err = s.analyzeNow(args)
	case cmdApplyFix:
		if len(args) < 1 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s needs a race id", params.Command)
		}
		result, err = s.applyFix(ctx, args[0])
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "unknown command %q", params.Command)
	}
	var gone *goneError
	if errors.As(err, &gone) {
		s.sayGone(ctx, gone)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(result)
}

// findRace locates a race of a complete analysis by id.
func (s *Server) findRace(id string) (*targetState, *report.Race) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ts := range s.sortedTargets() {
		if ts.snap == nil || ts.snap.report == nil {
			continue
		}
		for i := range ts.snap.report.Races {
			if r := &ts.snap.report.Races[i]; r.ID == id {
				return ts, r
			}
		}
	}
	return nil, nil
}

// evidenceResult is what the evidence commands return.
type evidenceResult struct {
	Transcript string `json:"transcript"`
	Reproduced bool   `json:"reproduced"`
	Shown      bool   `json:"shown"`
	// Summary says in a sentence what the replay showed; a client that
	// could not open the transcript is also sent it as a message.
	Summary string `json:"summary"`
	// Outputs are an output difference's two outputs as files, the
	// evidence's order first, for a client that shows a diff of them
	// itself (augurDiffView).
	Outputs []string `json:"outputs,omitempty"`
}

// evidenceSubject is what a piece of evidence is of: a race, or a
// failure some schedule reached.
type evidenceSubject struct {
	ts       *targetState
	evidence string
	// name says what it is in a sentence ("race 3c83 on balance", "the
	// assert at account.c:27"), short in a button ("balance", the same
	// for a failure); file names the transcript.
	name, short, file string
	// between names a race's two accesses: ": free in main, read in
	// auditor".
	between string
	// shows is what a reproducing replay shows, as a sentence.
	shows    string
	category string
}

// pickSubject asks the user which of several races or failures (a line's
// lens stands for all of them) to show, with window/showMessageRequest,
// which every client shows its own way (VS Code: a notification with a
// button per race, which the augur extension replaces with a quick pick).
// "" when the user chose none.
func (s *Server) pickSubject(ctx context.Context, ids []string) (string, error) {
	var actions []protocol.MessageActionItem
	byTitle := map[string]string{}
	var gone error
	for _, id := range ids {
		sub, err := s.findEvidence(id)
		if errors.As(err, new(*goneError)) {
			gone = err // a lens drawn before the last analysis: offer the others
			continue
		}
		if err != nil {
			return "", err
		}
		// A choice holds the memory's name and the category first (a
		// notification's button shows a dozen characters), then the
		// two accesses; the id only to tell apart two races still alike.
		title := sub.short
		if sub.category != "failure" {
			title += " (" + sub.category + ")" + sub.between
		}
		if _, dup := byTitle[title]; dup {
			title += " " + shortID(id)
		}
		actions = append(actions, protocol.MessageActionItem{Title: title})
		byTitle[title] = id
	}
	switch len(byTitle) {
	case 0:
		return "", gone
	case 1:
		for _, id := range byTitle {
			return id, nil
		}
	}
	chosen, err := s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{Type: protocol.MessageTypeInfo,
		Message: fmt.Sprintf("This line holds %d races or failures with evidence: which one?", len(actions)), Actions: actions})
	if err != nil || chosen == nil {
		return "", err
	}
	return byTitle[chosen.Title], nil
}

// goneError is a command's error for a race or failure the last analysis
// no longer has: its code lens or the Races view's entry was drawn before
// a save whose analysis no longer finds it (the editor draws the lenses
// it has until it asks again). It is no error of the command's.
type goneError struct{ kind, id string } // "race" or "failure", and its id

func (e *goneError) Error() string {
	return fmt.Sprintf("no %s %s is known (it may have gone with the last save)", e.kind, e.id)
}

// sayGone tells the user that the race or failure a command was run on
// is gone, and asks the client to draw the code lenses again: the command
// answers null rather than an error, which the client would show and log
// as the server's failure.
func (s *Server) sayGone(ctx context.Context, gone *goneError) {
	_ = s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo,
		Message: fmt.Sprintf("augur: that %s is gone since the last save.", gone.kind)})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lensRefresh != nil {
		s.refresh(s.lensRefresh)
	}
}

// shortID is the start of a race's id, enough to tell two apart.
func shortID(id string) string { return id[:min(len(id), 6)] }

// findEvidence locates the race, or the failure (ids failureID makes),
// whose evidence the commands show.
func (s *Server) findEvidence(id string) (*evidenceSubject, error) {
	if strings.HasPrefix(id, failurePrefix) {
		ts, f := s.findFailure(id)
		if f == nil {
			return nil, &goneError{kind: "failure", id: id}
		}
		name := fmt.Sprintf("the %s at %s:%d", f.Kind, filepath.Base(f.File), f.Line)
		return &evidenceSubject{ts: ts, evidence: f.Evidence, name: name, short: name,
			file: id, shows: sentence(shortPaths(f.Message)), category: "failure"}, nil
	}
	ts, r := s.findRace(id)
	if r == nil {
		return nil, &goneError{kind: "race", id: id}
	}
	if r.Evidence == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "race %s on %s (%s) has no evidence to replay: only spec-violated "+
			"and output-differs races have one", id, r.Object, r.Category)
	}
	a, b := r.Accesses[0], r.Accesses[1]
	return &evidenceSubject{ts: ts, evidence: r.Evidence, name: fmt.Sprintf("race %s on %s", id, r.Object), short: r.Object,
		between: fmt.Sprintf(": %s in %s, %s in %s", a.Noun(), a.Function, b.Noun(), b.Function),
		// races of two targets may share an id
		file: "race-" + id + "-" + shortHash(ts.key), shows: sentence(shortPaths(r.Consequence)), category: r.Category}, nil
}

// showEvidence replays a race's or a failure's evidence into a Markdown
// transcript or an HTML timeline (or renders a race's output difference)
// under the cache directory and asks the client to show it: a timeline in
// the client's own view when it has one (the VS Code extension's
// webview), otherwise in an external program (a browser).
func (s *Server) showEvidence(ctx context.Context, id string, view evidenceView) (*evidenceResult, error) {
	sub, err := s.findEvidence(id)
	if err != nil {
		return nil, err
	}
	ev, err := evidence.Read(sub.evidence)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (save again to analyze the program as it is now)", sub.name, err)
	}
	var buf bytes.Buffer
	res := &evidenceResult{Reproduced: true}
	name := sub.file
	ext := ".md"
	if view == viewOutputDiff {
		if ev.Category != "output-differs" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is %s, not output-differs", sub.name, sub.category)
		}
		evidence.RenderOutputDifference(&buf, ev, evidence.Markdown)
		name += "-output"
		mine, theirs := evidence.FirstDifference(ev.Expected.Stdout, ev.Expected.OtherStdout).Sides()
		res.Summary = fmt.Sprintf("augur: the two orders of %s print different output, first at %s in one order, %s in the other.",
			sub.name, mine, theirs)
	} else {
		s.mu.Lock()
		sn := sub.ts.snap
		s.mu.Unlock()
		if sn == nil || sn.prog == nil {
			return nil, fmt.Errorf("%s: the analysis is still running; replay once it is done", sub.name)
		}
		// The replay runs on the program the evidence was made for (its
		// analysis may still be classifying other races), under the
		// target's budgets, and stops with the request.
		run := sn.opts
		tr := evidence.Replay(sn.prog, ev, vm.Limits{Timeout: run.Timeout, MaxMemory: run.Run.MaxMemory, Cancel: ctx.Done()})
		if view == viewTimeline {
			if err := tr.Timeline(&buf, ev, s.ws.Root, evidence.HTML); err != nil {
				return nil, err
			}
			name, ext = name+"-interleaving", ".html"
		} else {
			tr.Render(&buf, ev, s.ws.Root, evidence.Markdown)
		}
		res.Reproduced = tr.Reproduced
		if tr.Reproduced {
			res.Summary = fmt.Sprintf("augur: the replay of %s reproduced it: %s", sub.name, sub.shows)
		} else {
			res.Summary = fmt.Sprintf("augur: the replay of %s did not reproduce it: %s", sub.name, sentence(tr.Mismatch))
		}
	}
	dir := filepath.Join(s.opts.CacheDir, "transcripts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	res.Transcript = filepath.Join(dir, name+ext)
	if err := os.WriteFile(res.Transcript, buf.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	s.mu.Lock()
	canShow, ownView, diffView := s.showDocument, s.timelineView, s.diffView
	s.mu.Unlock()
	if view == viewTimeline && ownView {
		res.Shown = true // the client shows it in its own view
		return res, nil
	}
	if view == viewOutputDiff && diffView {
		if err := writeOutputs(res, ev, dir, name); err != nil {
			return nil, err
		}
		res.Shown = true // the client shows the two files as a diff
		return res, nil
	}
	if canShow {
		yes := true
		show := &protocol.ShowDocumentParams{URI: uri.File(res.Transcript), TakeFocus: &yes}
		if view == viewTimeline {
			show.External = &yes // a page, for a browser
		}
		shown, err := s.client.ShowDocument(ctx, show)
		if err != nil {
			s.logf(protocol.MessageTypeWarning, "showing %s: %v", res.Transcript, err)
		} else {
			// A null result is a client's way of saying nothing: not shown.
			res.Shown = shown != nil && shown.Success
		}
	}
	if !res.Shown {
		// Every client shows a message: the summary, and where the whole
		// transcript is.
		_ = s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo,
			Message: res.Summary + " The step-by-step transcript is in " + res.Transcript + "."})
	}
	return res, nil
}

// writeOutputs writes what each order of an output-differs race printed
// to a file of its own beside the transcript (NAME-ORDER.txt), for a diff.
// When the two printed the same and differ in a file they wrote, it is
// that file's two versions (NAME-ORDER-FILE.txt): what differs is what a
// diff should show.
func writeOutputs(res *evidenceResult, ev *evidence.Evidence, dir, name string) error {
	other := "primary"
	if ev.Order == "primary" {
		other = "alternate"
	}
	mine, theirs, suffix := ev.Expected.Stdout, ev.Expected.OtherStdout, ".txt"
	if x := ev.Expected; mine == theirs && len(x.Files) > 0 && len(x.OtherFiles) > 0 {
		mine, theirs = x.Files[0].Contents, x.OtherFiles[0].Contents
		suffix = "-" + filepath.Base(x.Files[0].Name()) + ".txt"
	}
	for _, o := range []struct{ order, text string }{{ev.Order, mine}, {other, theirs}} {
		path := filepath.Join(dir, name+"-"+o.order+suffix)
		if err := os.WriteFile(path, []byte(o.text), 0o644); err != nil {
			return fmt.Errorf("output of the %s order: %w", o.order, err)
		}
		res.Outputs = append(res.Outputs, path)
	}
	return nil
}

// ignoreRace inserts the ignore marker on the line of the race's first
// access (in the file as the editor has it) through workspace/applyEdit.
func (s *Server) ignoreRace(ctx context.Context, id string) (bool, error) {
	_, r := s.findRace(id)
	if r == nil {
		return false, &goneError{kind: "race", id: id}
	}
	s.mu.Lock()
	var edit *protocol.WorkspaceEdit
	l := &lines{s: s}
	// The marker goes where the editor shows the first access: at the
	// program's call when the access is inside a library (both silence the
	// race, race.MarkerSites); at the second when the first has no frame
	// of the program's, rather than in a system header.
	first, _, ok := r.Accesses[0].InProgram()
	if !ok {
		first, _, _ = r.Accesses[1].InProgram()
	}
	for _, site := range s.racesIn(first.File, l) {
		if site.race.ID == id {
			edit = s.ignoreEdit(first.File, int(site.rng.Start.Line))
			break
		}
	}
	s.mu.Unlock()
	if edit == nil {
		return false, nil // already ignored
	}
	label := "augur: ignore race on " + r.Object
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit})
	if err != nil {
		return false, fmt.Errorf("apply edit: %w", err)
	}
	if res == nil {
		// A client may answer null; the edit was then not applied.
		return false, nil
	}
	return res.Applied, nil
}

// fixApplied is what the applyFix command answers.
type fixApplied struct {
	Applied bool   `json:"applied"`
	Title   string `json:"title,omitempty"`
	// Why says why nothing was applied: no verified fix, or its lines
	// changed since the analysis.
	Why string `json:"why,omitempty"`
}

// applyFix asks the client to apply race id's first verified fix whose
// lines are still as analyzed (the Races view's command).
func (s *Server) applyFix(ctx context.Context, id string) (fixApplied, error) {
	_, r := s.findRace(id)
	if r == nil {
		return fixApplied{}, &goneError{kind: "race", id: id}
	}
	s.mu.Lock()
	var edit *protocol.WorkspaceEdit
	var title string
	for _, f := range r.Fixes {
		if f.Verified {
			if edit = fixEdit(f, &lines{s: s}); edit != nil {
				title = f.Title
				break
			}
		}
	}
	s.mu.Unlock()
	switch {
	case verifiedFix(r) == nil:
		return fixApplied{Why: "augur has no verified fix for the race on " + r.Object}, nil
	case edit == nil:
		return fixApplied{Why: "the lines the fix changes were edited since the analysis; save to analyze again"}, nil
	}
	label := "augur: " + title
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit})
	if err != nil {
		return fixApplied{}, fmt.Errorf("apply edit: %w", err)
	}
	if res == nil || !res.Applied {
		return fixApplied{Title: title, Why: "the editor did not apply the edit"}, nil
	}
	return fixApplied{Applied: true, Title: title}, nil
}

// analyzeNow re-analyzes the targets of the given document URIs, or every
// target without arguments.
func (s *Server) analyzeNow(args []string) (any, error) {
	if len(args) == 0 {
		s.reanalyzeAll(0)
		return nil, nil
	}
	for _, a := range args {
		u, err := uri.Parse(a)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not a document URI", a)
		}
		path, err := filePath(u)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
		s.mu.Lock()
		var text []byte
		if d := s.docs[path]; d != nil {
			text = []byte(d.text)
		}
		s.mu.Unlock()
		if text == nil {
			text, _ = safefile.Read(path, safefile.Rules{Max: safefile.MaxSource})
		}
		s.fileSaved(path, text, onDemand)
	}
	return nil, nil
}
