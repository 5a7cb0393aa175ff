package lsp

import (
	"augur/analyzer/output/srcexpr"
	"crypto/sha256"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"augur/internal/safefile"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/judge/category"
	"augur/analyzer/output/report"
	"augur/lsp/workspace"
)

const (
	sourceAugur = "augur"
	sourceClang = "augur (clang)"
	// classifying is the code of a race whose category is not known yet.
	classifying = "classifying…"
)

// publishedSet is the hash of what a file was last sent, so an unchanged
// set is not sent again.
type publishedSet [32]byte

// severityOf maps a race category to a diagnostic severity.
func severityOf(c string) protocol.DiagnosticSeverity {
	if c == classifying {
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverity(category.Named(c).Severity)
}

// raceData is a race diagnostic's data: what code actions and commands
// need to find the race again.
type raceData struct {
	RaceID   string `json:"raceId"`
	Target   string `json:"target"`
	Category string `json:"category"`
	Access   int    `json:"access"`
	// Fix is the title of the race's verified fix, when it has one (the
	// Races view offers to apply it).
	Fix string `json:"fix,omitempty"`
	// Evidence says the race has evidence to replay: the Races view
	// offers "Replay evidence" and "Show interleaving" for it, and only
	// for it.
	Evidence bool `json:"evidence,omitempty"`
}

// raceSite is one racing access as the editor shows it now.
type raceSite struct {
	ts       *targetState
	race     *report.Race
	access   int
	rng      protocol.Range
	category string // classifying… while the analysis runs
	// shown are the race's two accesses where the editor shows them, and
	// via the library function each was made in, "" for the program's own
	// (report.Access.InProgram).
	shown [2]report.Access
	via   [2]string
	// also counts the other races this site stands for (foldSites): the
	// same two statements, accessed the same ways, in the same category,
	// reached through other call paths; or, when an access is inside a
	// library, any races inside it between the same two calls.
	also int
}

// inLibrary reports whether either of the site's accesses is inside a
// library, shown at the program's call.
func (site *raceSite) inLibrary() bool { return site.via[0] != "" || site.via[1] != "" }

// lines reads source lines for ranges: from the open document when there
// is one (its current text), else from the file on disk, through the
// server's cache. Callers hold mu.
type lines struct {
	s *Server
}

func (l *lines) get(path string, line int) string {
	if d := l.s.docs[path]; d != nil {
		return d.line(line)
	}
	ls := l.s.diskLines(path)
	if line >= 0 && line < len(ls) {
		return strings.TrimSuffix(ls[line], "\r")
	}
	return ""
}

// diskFile is a file's lines as last read, with what says whether they
// are still current.
type diskFile struct {
	mod   time.Time
	size  int64
	lines []string
}

// diskLines returns the lines of a file that is not open, reading it
// again only when it changed on disk: every publication needs them, and
// a file's diagnostics are computed each time any of its races changes.
// Caller holds mu.
func (s *Server) diskLines(path string) []string {
	st, err := os.Stat(path)
	if err != nil {
		delete(s.disk, path)
		return nil
	}
	if f, ok := s.disk[path]; ok && f.mod.Equal(st.ModTime()) && f.size == st.Size() {
		return f.lines
	}
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxSource})
	if err != nil {
		return nil
	}
	f := diskFile{mod: st.ModTime(), size: st.Size(), lines: strings.Split(string(data), "\n")}
	s.disk[path] = f
	return f.lines
}

// place converts a 1-based line and byte column of path, in the
// coordinates of the snapshot's build, to the editor's range of the
// expression there. Caller holds mu.
func (l *lines) place(sn *snapshot, path string, line, col int) protocol.Range {
	n, text, start, end := l.span(sn, path, line, col)
	return protocol.Range{Start: protocol.Position{Line: uint32(n), Character: uint32(utf16Col(text, start))},
		End: protocol.Position{Line: uint32(n), Character: uint32(utf16Col(text, end))}}
}

// span maps a 1-based line of the analyzed text to the editor's 0-based
// line n, and finds the byte span of the expression at col in its text.
func (l *lines) span(sn *snapshot, path string, line, col int) (n int, text string, start, end int) {
	n = max(line-1, 0)
	if d := l.s.docs[path]; d != nil && sn != nil {
		n = d.mapLine(n, sn.savedSeq[path])
	}
	text = l.get(path, n)
	start, end = srcexpr.Trimmed(text)
	if col > 0 {
		start, end = srcexpr.Span(text, col)
	}
	return n, text, start, end
}

// lineRange is the whole (non-blank) line.
func (l *lines) lineRange(sn *snapshot, path string, line int) protocol.Range {
	return l.place(sn, path, line, 0)
}

// fromColumn is the range of a line from a 1-based byte column (a
// compiler's or a call's) to the line's end; the whole line when the
// column is unknown.
func (l *lines) fromColumn(sn *snapshot, path string, line, col int) protocol.Range {
	rng := l.lineRange(sn, path, line)
	text := l.get(path, int(rng.Start.Line))
	if col > 0 && col <= len(text) {
		c := uint32(utf16Col(text, col-1))
		rng.Start.Character, rng.End.Character = c, max(c+1, rng.End.Character)
	}
	return rng
}

// racesIn lists the racing accesses in path, by target key then race
// order. Caller holds mu.
func (s *Server) racesIn(path string, l *lines) []raceSite {
	var out []raceSite
	for _, ts := range s.sortedTargets() {
		sn := ts.snap
		if sn == nil || sn.report == nil {
			continue
		}
		for ri := range sn.report.Races {
			r := &sn.report.Races[ri]
			cat := r.Category
			if cat == report.Unclassified && !sn.complete {
				cat = classifying
			}
			// An access inside a library with no frame of the program's on
			// its stack (a static object's destructor run by exit) stays
			// where it happened; the other access still shows.
			var shown [2]report.Access
			var via [2]string
			for i, a := range r.Accesses {
				shown[i], via[i], _ = a.InProgram()
			}
			for i, a := range shown {
				if a.File != path {
					continue
				}
				if i == 1 && sameSite(shown[0], a) {
					continue // a statement racing with itself: one diagnostic
				}
				out = append(out, raceSite{ts: ts, race: r, access: i, rng: l.place(sn, path, a.Line, a.Column),
					category: cat, shown: shown, via: via})
			}
		}
	}
	return out
}

// shownSites are the racing accesses in path as the editor shows them:
// racesIn, folded (foldSites). Caller holds mu.
func (s *Server) shownSites(path string, l *lines) []raceSite {
	return foldSites(s.racesIn(path, l))
}

// foldSites keeps one site of every group of races between the same two
// statements, accessed the same ways, with the same category, that differ
// only in the call paths that reach them: a race is its pair of accesses
// with their call stacks, so a library function that every thread calls
// (SQLite's mutex allocator) makes a race per pair of callers, all on one
// line. The editor (diagnostics, and the Races view made of them; hovers,
// lenses, actions) shows each group once, the first race standing for the
// rest (raceSite.also); the report (augur analyze) keeps every race.
//
// Races inside a library, shown at the program's calls into it, fold
// further: an unguarded std::map insert from two threads races on dozens
// of words of the tree, in every category, and all the developer can do is
// at the two calls. Those fold into one site per pair of calls, the most
// severe race standing for the rest.
func foldSites(sites []raceSite) []raceSite {
	type group struct {
		ts                     *targetState
		rng                    protocol.Range
		category, kind         string
		otherFile, otherKind   string
		otherLine, otherColumn int
	}
	first := map[group]int{}
	var out []raceSite
	for _, site := range sites {
		me, o := site.shown[site.access], site.shown[1-site.access]
		g := group{ts: site.ts, rng: site.rng, category: site.category, kind: me.Kind,
			otherFile: o.File, otherKind: o.Kind, otherLine: o.Line, otherColumn: o.Column}
		if site.inLibrary() {
			g.category, g.kind, g.otherKind = "", "", "" // in a library
		}
		i, ok := first[g]
		switch {
		case !ok:
			first[g] = len(out)
			out = append(out, site)
		case severityOf(site.category) < severityOf(out[i].category):
			site.also = out[i].also + 1
			out[i] = site
		default:
			out[i].also++
		}
	}
	return out
}

func sameSite(a, b report.Access) bool {
	return a.File == b.File && a.Line == b.Line && a.Column == b.Column
}

// sortedTargets returns the targets in key order. Caller holds mu.
func (s *Server) sortedTargets() []*targetState {
	out := make([]*targetState, 0, len(s.targets))
	for _, ts := range s.targets {
		out = append(out, ts)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// name is the target's name for messages.
func (ts *targetState) name() string {
	if ts.target == nil {
		return "this program"
	}
	return ts.target.Name
}

// diagnostics computes path's diagnostics. Caller holds mu.
func (s *Server) diagnostics(path string) []protocol.Diagnostic {
	l := &lines{s: s}
	var out []protocol.Diagnostic
	if cp := s.configProblem; cp != nil && cp.path == path {
		out = append(out, cp.diagnostic(l))
	}
	if s.notInTarget[path] && !s.includedByTarget(path) { // an analysis since may have included it
		msg := "augur: this file belongs to no target, so it is not analyzed: it defines no main function."
		switch {
		case workspace.IsHeader(path):
			msg = "augur: this header belongs to no analyzed program yet: it is analyzed as part of the programs that include it, once one is open or saved."
		case s.ws != nil && s.ws.HasTargets():
			msg = "augur: this file belongs to no target, so it is not analyzed: no [[target]] in augur.toml lists it in its sources."
		}
		out = append(out, protocol.Diagnostic{Range: protocol.Range{}, Severity: protocol.DiagnosticSeverityInformation,
			Source: protocol.NewOptional(sourceAugur), Code: protocol.String("no-target"), Message: protocol.String(msg)})
	}
	for _, site := range s.shownSites(path, l) {
		out = append(out, s.raceDiagnostic(site, l))
	}
	for _, ts := range s.sortedTargets() {
		sn := ts.snap
		if sn == nil {
			continue
		}
		for _, d := range sn.compile {
			if d.File == path {
				out = append(out, compileDiagnostic(d, sn, l))
			}
		}
		if sn.stopped != nil && ts.target != nil && ts.target.Sources[0] == path {
			out = append(out, stoppedDiagnostic(ts.target.Name, sn.stopped))
		}
		if d := earlyExitDiagnostic(ts, sn, path); d != nil {
			out = append(out, *d)
		}
		if sn.err != "" && ts.target != nil && sn.errPath(ts.target) == path {
			d := protocol.Diagnostic{Severity: protocol.DiagnosticSeverityError,
				Source: protocol.NewOptional(sourceAugur), Code: protocol.String("analysis-failed"),
				Message: protocol.String(fmt.Sprintf("augur could not analyze target %s: %s", ts.target.Name, sn.err))}
			if at := sn.errAt; at != nil && at.Line > 0 {
				d.Range = l.fromColumn(sn, at.File, at.Line, 0)
			}
			out = append(out, d)
		}
		if sn.report != nil {
			for _, f := range sn.report.Failures {
				if at, _, _ := failurePlace(&f); at.File == path {
					out = append(out, failureDiagnostic(f, sn, l))
				}
			}
			for _, g := range sn.report.Incomplete {
				switch {
				case g.Kind == report.GapUnsupported && g.File == path:
					out = append(out, gapDiagnostic(g, ts.name(), sn, l))
				case g.Kind == report.GapBudget && g.Schedule != "" && g.File == path:
					out = append(out, budgetDiagnostic(g, sn, l))
				}
			}
			for _, inv := range sn.report.Inversions {
				out = append(out, inversionDiagnostics(inv, path, sn, l)...)
			}
			for _, f := range sn.report.FilesNotGiven {
				if f.File == path {
					out = append(out, s.fileNotGivenDiagnostic(f, ts, sn, l))
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	return out
}

func compileDiagnostic(d build.Diagnostic, sn *snapshot, l *lines) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityError
	if d.Severity == "warning" {
		sev = protocol.DiagnosticSeverityWarning
	}
	rng := l.fromColumn(sn, d.File, d.Line, d.Column)
	return protocol.Diagnostic{Range: rng, Severity: sev, Source: protocol.NewOptional(sourceClang),
		Message: protocol.String(d.Message)}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// stoppedDiagnostic says, on a target's first line, that its analysis
// ran out of a budget and the results shown are partial, and which
// setting gives it more.
func stoppedDiagnostic(target string, st *report.Stopped) protocol.Diagnostic {
	msg := fmt.Sprintf("augur: the analysis of %s is incomplete: %s while %s", target, st.Message, st.Stage)
	if st.Total > 0 {
		noun := "schedules ran"
		if st.Stage == "classifying" {
			noun = "races classified"
		}
		msg += fmt.Sprintf(" (%d of %d %s)", st.Done, st.Total, noun)
	}
	msg += ". The diagnostics shown are what it found until then"
	if st.Budget != "" { // not an internal error, which no setting helps
		msg += "; " + workspace.RaiseHint(st.Budget) + " to let it finish"
	}
	msg += "."
	return protocol.Diagnostic{Severity: protocol.DiagnosticSeverityWarning, Source: protocol.NewOptional(sourceAugur),
		Code: protocol.String("incomplete"), Message: protocol.String(msg)}
}

// earlyExitDiagnostic says, on a target's first line, that its program
// exited with a nonzero status before it created a second thread, on its
// own inputs and every one explored: the analysis found nothing because
// it saw nothing concurrent, which a clean file would not tell. nil
// otherwise, or on another file.
func earlyExitDiagnostic(ts *targetState, sn *snapshot, path string) *protocol.Diagnostic {
	if sn.report == nil || ts.target == nil || ts.target.Sources[0] != path {
		return nil
	}
	x := sn.report.Stats.Exploration
	if !x.ExitedEarly() {
		return nil
	}
	msg := fmt.Sprintf("augur: %s. If it needs arguments, input or files, give them in augur.toml (args, stdin, files).",
		report.EarlyExitText(x))
	return &protocol.Diagnostic{Severity: protocol.DiagnosticSeverityInformation, Source: protocol.NewOptional(sourceAugur),
		Code: protocol.String("exited-early"), Message: protocol.String(msg)}
}

// gapDiagnostic marks a call augur could not follow: the executions that
// reached it stopped there, so the target's results cover only what came
// before. It names the function and says how to go on past it.
func gapDiagnostic(g report.Gap, target string, sn *snapshot, l *lines) protocol.Diagnostic {
	rng := l.fromColumn(sn, g.File, g.Line, g.Column)
	what := g.Message
	switch {
	case g.DefinedIn != "":
		what = fmt.Sprintf("augur cannot follow this call to '%s': it is defined in %s, which augur did not compile in (%s)",
			g.Function, g.DefinedIn, g.NotTaken)
	case g.Function != "":
		what = fmt.Sprintf("augur cannot follow this call to '%s': it is declared but defined nowhere in the program or the files beside it, "+
			"and augur has no model of it", g.Function)
	}
	msg := fmt.Sprintf("%s. The analysis of %s is incomplete: executions stop here, and races after this point are not reported.",
		what, target)
	if g.Function != "" {
		msg += " List the program's sources in an augur.toml [[target]] (sources = [...]), or set augur.undefined to \"havoc\" " +
			"(undefined = \"havoc\" in augur.toml) to let it return unconstrained values."
	}
	return protocol.Diagnostic{Range: rng, Severity: protocol.DiagnosticSeverityWarning, Source: protocol.NewOptional(sourceAugur),
		Code: protocol.String("incomplete"), Message: protocol.String(msg)}
}

// budgetDiagnostic marks where an execution ran out of a budget: the
// program needs more than augur gives it, which is not a bug it has, and
// the analysis is incomplete past that point.
func budgetDiagnostic(g report.Gap, sn *snapshot, l *lines) protocol.Diagnostic {
	msg := fmt.Sprintf("augur stopped the program under schedule %s: %s; what it would have done after is not analyzed. %s to give it more.",
		g.Schedule, g.Message, capitalize(workspace.RaiseHint(g.Budget)))
	return protocol.Diagnostic{Range: l.fromColumn(sn, g.File, g.Line, g.Column), Severity: protocol.DiagnosticSeverityWarning,
		Source: protocol.NewOptional(sourceAugur), Code: protocol.String("budget"), Message: protocol.String(msg)}
}

func failureDiagnostic(f report.Failure, sn *snapshot, l *lines) protocol.Diagnostic {
	msg := fmt.Sprintf("augur: the program fails (%s) under schedule %s: %s", f.Kind, f.Schedule, f.Message)
	sev := protocol.DiagnosticSeverityError
	if len(f.Inputs.Args) > 0 || f.Inputs.Stdin != "" {
		msg += fmt.Sprintf(" (inputs: arguments %q", f.Inputs.Args)
		if f.Inputs.Stdin != "" {
			msg += fmt.Sprintf(", stdin %q", f.Inputs.Stdin)
		}
		msg += ")"
	}
	at, from, own := failurePlace(&f)
	d := protocol.Diagnostic{Range: l.lineRange(sn, at.File, at.Line), Severity: sev,
		Code: protocol.String(f.Kind), Source: protocol.NewOptional(sourceAugur), Message: protocol.String(msg)}
	callers := 0
	for i, fr := range f.Stack {
		// Shown at the program's own code, the failure lists the program's
		// callers; shown in a library, for want of any, every frame.
		if callers == 6 {
			break
		}
		if i <= from || fr.File == "" || own && vm.InLibrary(fr.File) {
			continue
		}
		callers++
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri.File(fr.File), Range: l.lineRange(sn, fr.File, fr.Line)},
			Message:  "called from " + fr.Function})
	}
	ids := make([]string, 0, len(f.Threads))
	for id := range f.Threads {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if st := f.Threads[id]; len(st) > 0 && st[0].File != "" {
			// A hang's looping threads are marked so in their frame (vm's
			// hangTerm); the others wait.
			what, fn := "is blocked", st[0].Function
			if loop, ok := strings.CutSuffix(fn, " (looping)"); ok {
				what, fn = "loops", loop
			}
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: uri.File(st[0].File), Range: l.lineRange(sn, st[0].File, st[0].Line)},
				Message:  fmt.Sprintf("thread %s %s here, in %s", id, what, fn)})
		}
	}
	return d
}

// inversionDiagnostics marks, in path, the second acquisition of each
// side of a lock-order inversion (a potential deadlock).
func inversionDiagnostics(inv report.Inversion, path string, sn *snapshot, l *lines) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	sides := [][]report.Access{inv.First, inv.Second}
	for i, side := range sides {
		if len(side) < 2 || side[1].File != path {
			continue
		}
		other := sides[1-i]
		msg := fmt.Sprintf("augur: potential deadlock: thread %d takes %s while holding %s; thread %d takes them in the other order",
			side[1].Thread, inv.Locks[1-i], inv.Locks[i], other[1].Thread)
		d := protocol.Diagnostic{Range: l.lineRange(sn, path, side[1].Line), Severity: protocol.DiagnosticSeverityWarning,
			Code: protocol.String("lock-order-inversion"), Source: protocol.NewOptional(sourceAugur), Message: protocol.String(msg)}
		if len(other) > 1 && other[1].File != "" {
			d.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
				Location: protocol.Location{URI: uri.File(other[1].File), Range: l.lineRange(sn, other[1].File, other[1].Line)},
				Message:  "the other order"}}
		}
		out = append(out, d)
	}
	return out
}

// publish sends path's diagnostics when they changed since the last time.
func (s *Server) publish(path string) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	diags := s.diagnostics(path)
	var version protocol.Optional[int32]
	if d := s.docs[path]; d != nil {
		version = protocol.NewOptional(d.version)
	}
	data, err := protocol.Marshal(diags)
	if err != nil {
		s.mu.Unlock()
		s.logger.Printf("diagnostics for %s: %v", path, err)
		return
	}
	if s.pulls(path) {
		// The client pulls this document: tell it when to, and push
		// nothing (which clears what was pushed while it was closed).
		s.pulledChanged(path, resultID(data))
		diags = nil
		data = []byte("[]")
	}
	sum := sha256.Sum256(data)
	prev, sent := s.published[path]
	if sent && publishedSet(sum) == prev || !sent && len(diags) == 0 {
		s.mu.Unlock()
		return
	}
	s.published[path] = publishedSet(sum)
	s.pruneEdits()
	s.mu.Unlock()
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	_ = s.client.PublishDiagnostics(s.connCtx, &protocol.PublishDiagnosticsParams{URI: uri.File(path), Version: version,
		Diagnostics: diags})
}

// publishAll republishes every file that has or had diagnostics.
func (s *Server) publishAll() {
	s.mu.Lock()
	var files []string
	for p := range s.published {
		files = append(files, p)
	}
	for _, ts := range s.targets {
		if ts.snap != nil {
			files = append(files, ts.snap.files...)
		}
	}
	for p := range s.notInTarget {
		files = append(files, p)
	}
	s.mu.Unlock()
	sort.Strings(files)
	for _, f := range dedupe(files) {
		s.publish(f)
	}
}

// pruneEdits drops document edits older than every snapshot needs.
// Caller holds mu.
func (s *Server) pruneEdits() {
	for path, d := range s.docs {
		oldest := d.savedSeq
		for _, ts := range s.targets {
			if ts.snap != nil {
				if seq, ok := ts.snap.savedSeq[path]; ok && seq < oldest {
					oldest = seq
				}
			}
		}
		d.prune(oldest)
	}
}

// configProblem is a broken augur.toml, shown as a diagnostic on it.
type configProblem struct {
	path string
	line int // 1-based; 0 when unknown
	msg  string
}

var lineOfError = regexp.MustCompile(`line (\d+): `)

func (c *configProblem) diagnostic(l *lines) protocol.Diagnostic {
	rng := protocol.Range{}
	if c.line > 0 {
		text := l.get(c.path, c.line-1)
		rng = protocol.Range{Start: protocol.Position{Line: uint32(c.line - 1)},
			End: protocol.Position{Line: uint32(c.line - 1), Character: uint32(utf16Col(text, len(text)))}}
	}
	return protocol.Diagnostic{Range: rng, Severity: protocol.DiagnosticSeverityError,
		Source: protocol.NewOptional(sourceAugur), Code: protocol.String("config"),
		Message: protocol.String("augur.toml: " + c.msg + "; no target is analyzed until it is fixed")}
}

// checkConfig shows (or clears) augur.toml's error.
func (s *Server) checkConfig() {
	s.mu.Lock()
	ws := s.ws
	if ws == nil {
		s.mu.Unlock()
		return
	}
	err := ws.ConfigError()
	old := s.configProblem
	s.configProblem = nil
	if err != nil {
		cp := &configProblem{path: ws.ConfigPath(), msg: strings.TrimPrefix(err.Error(), ws.ConfigPath()+": ")}
		if m := lineOfError.FindStringSubmatch(cp.msg); m != nil {
			cp.line, _ = strconv.Atoi(m[1])
		}
		s.configProblem = cp
	}
	// Race diagnostics say they are stale while the file is broken.
	var stale []string
	if (err != nil) != (old != nil) {
		for _, ts := range s.targets {
			if ts.snap != nil {
				stale = append(stale, ts.snap.mentioned()...)
			}
		}
	}
	s.mu.Unlock()
	if err != nil || old != nil {
		s.publish(ws.ConfigPath())
	}
	for _, f := range dedupe(stale) {
		s.publish(f)
	}
}

// configChanged re-reads augur.toml and re-analyzes with it.
func (s *Server) configChanged() {
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if ws == nil {
		return
	}
	err := ws.ReloadConfig()
	s.checkConfig()
	if err != nil {
		s.logf(protocol.MessageTypeError, "augur.toml: %v", err)
		return
	}
	s.reanalyzeAll(0)
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// sourcePath matches a source file's path before a line number, for
// shortPaths.
var sourcePath = regexp.MustCompile(`(?:[^\s(),:]+/)+([^\s/(),:]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)):(\d)`)

// shortPaths writes the files a message names by their base names: in an
// editor the file is a click away, and the message stays short.
func shortPaths(msg string) string { return sourcePath.ReplaceAllString(msg, "$1:$2") }

// sentence ends s with exactly one full stop, so that text which already
// ends a sentence (a consequence, a mismatch) is not given a second.
func sentence(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	if strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}
