package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"augur/analyzer"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load"
	"augur/analyzer/output/carry"
	"augur/analyzer/output/fixcheck"
	"augur/analyzer/output/report"
	"augur/lsp/workspace"
)

// targetState is what the server knows of one target: the analysis it
// shows and the one it is running. Fields are guarded by Server.mu.
type targetState struct {
	key    string
	target *workspace.Target
	// gen counts scheduled analyses; only the newest may change the
	// snapshot, so a late result of a canceled run is dropped.
	gen    uint64
	timer  *time.Timer
	cancel context.CancelFunc
	snap   *snapshot
	// last is the last complete analysis, kept to reuse its results when
	// a save leaves the code unchanged.
	last *finished
}

// snapshot is the published state of a target's analysis.
type snapshot struct {
	report   *report.Report // races and failures; nil until detection is over
	complete bool           // every race has its category
	compile  []build.Diagnostic
	err      string // why the analysis failed, when not a compile error
	// errAt is where err is shown (file and 1-based line) when not on the
	// target's first source: a source augur.toml lists that does not
	// exist is shown on that augur.toml line.
	errAt *build.Diagnostic
	// stopped says how a budget cut the analysis short (the report's, or
	// the build's when compiling ran out of time).
	stopped *report.Stopped
	files   []string // files the program was built from
	// savedSeq is each open document's savedSeq when the build read it:
	// the snapshot's line numbers are in that text's coordinates.
	savedSeq map[string]uint64
	reused   bool // carried over from the previous analysis (code unchanged)
	// prog and opts are the program and options of the analysis the
	// report is of: its evidence replays on them while the analysis still
	// runs (a race's evidence is written when it is classified).
	prog *ir.Program
	opts *analyzer.Options
}

// errPath is the file that shows the snapshot's err: where errAt says,
// or the target's first source.
func (sn *snapshot) errPath(t *workspace.Target) string {
	if sn.errAt != nil {
		return sn.errAt.File
	}
	return t.Sources[0]
}

// mentioned lists the files the snapshot has diagnostics in.
func (sn *snapshot) mentioned() []string {
	out := diagFiles(sn.compile)
	if sn.errAt != nil {
		out = append(out, sn.errAt.File)
	}
	if rep := sn.report; rep != nil {
		for _, r := range rep.Races {
			for _, a := range r.Accesses {
				out = append(out, a.File)
			}
		}
		for _, f := range rep.Failures {
			out = append(out, f.File)
		}
		for _, inv := range rep.Inversions {
			for _, a := range append(inv.First[:len(inv.First):len(inv.First)], inv.Second...) {
				out = append(out, a.File)
			}
		}
	}
	return out
}

// finished is a complete analysis and the program it ran on.
type finished struct {
	prog    *ir.Program
	hash    string
	planKey string
	result  *analyzer.Result
}

// halt stops ts's pending analysis and cancels its running one. Caller
// holds mu.
func (s *Server) halt(ts *targetState) {
	ts.gen++ // whatever still runs may no longer publish
	if ts.timer != nil && ts.timer.Stop() {
		s.analyses.Done() // the stopped run will never start
	}
	if ts.cancel != nil {
		ts.cancel()
		ts.cancel = nil
	}
}

// targetKey identifies a target across saves.
func targetKey(t *workspace.Target) string {
	if t.Implicit {
		return "file:" + t.Sources[0]
	}
	return "target:" + t.Name
}

// trigger is why a file's targets are looked at.
type trigger int

const (
	onOpen   trigger = iota // analyze targets not analyzed yet
	onSave                  // re-analyze after the debounce delay
	onDemand                // "Analyze now": re-analyze at once
)

// fileSaved reacts to an open, a save or an "Analyze now" of path.
func (s *Server) fileSaved(path string, text []byte, why trigger) {
	opened := why == onOpen
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if ws == nil {
		return
	}
	if path == ws.ConfigPath() {
		s.configChanged()
		return
	}
	targets := ws.TargetsOf(path, text)
	s.mu.Lock()
	seen := map[string]bool{}
	var run []*targetState
	for _, t := range targets {
		ts := s.targetFor(t)
		seen[ts.key] = true
		// Opening another file of a target already analyzed shows what
		// is known; a save always re-analyzes.
		if !opened || ts.snap == nil {
			run = append(run, ts)
		}
	}
	if !opened {
		for _, ts := range s.targets { // targets that include the file as a header
			if !seen[ts.key] && ts.snap != nil && slices.Contains(ts.snap.files, path) {
				run = append(run, ts)
			}
		}
	}
	wasOut := s.notInTarget[path]
	out := len(targets) == 0 && (build.IsSource(path) || workspace.IsHeader(path)) && s.docs[path] != nil &&
		!s.includedByTarget(path) && ws.ConfigError() == nil
	if out {
		s.notInTarget[path] = true
	} else {
		delete(s.notInTarget, path)
	}
	delay := ws.ClientSettings().Debounce
	if why == onDemand {
		delay = 0
	}
	for _, ts := range run {
		s.schedule(ts, delay)
	}
	s.mu.Unlock()
	if out || wasOut || len(run) == 0 {
		s.publish(path)
	}
}

// includedByTarget reports whether some target's program was built from
// path (a header, or a source of a target in progress). Caller holds mu.
func (s *Server) includedByTarget(path string) bool {
	for _, ts := range s.targets {
		if ts.snap != nil && slices.Contains(ts.snap.files, path) {
			return true
		}
	}
	return false
}

// targetFor returns the state of target t, creating it, and updates its
// definition (settings may have changed). Caller holds mu.
func (s *Server) targetFor(t *workspace.Target) *targetState {
	key := targetKey(t)
	ts := s.targets[key]
	if ts == nil {
		ts = &targetState{key: key}
		s.targets[key] = ts
	}
	ts.target = t
	return ts
}

// schedule (re)starts the analysis of ts after delay, canceling the one
// running: rapid saves cost one analysis. Caller holds mu.
func (s *Server) schedule(ts *targetState, delay time.Duration) {
	if s.ctx.Err() != nil {
		return
	}
	s.halt(ts)
	gen := ts.gen
	s.analyses.Add(1)
	ts.timer = time.AfterFunc(delay, func() {
		defer s.analyses.Done()
		s.mu.Lock()
		if ts.gen != gen || s.ctx.Err() != nil {
			s.mu.Unlock()
			return
		}
		ctx, cancel := context.WithCancel(s.ctx)
		ts.cancel = cancel
		target := ts.target
		s.mu.Unlock()
		defer cancel()
		s.analyze(ctx, ts, gen, target)
	})
}

// reanalyzeAll schedules every known target again (new settings, a new
// augur.toml, "Analyze now" without a file).
func (s *Server) reanalyzeAll(delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ws == nil {
		return
	}
	// Configured targets may have changed: rebuild their definitions.
	fresh := map[string]*workspace.Target{}
	for _, t := range s.ws.Targets() {
		fresh[targetKey(t)] = t
	}
	base := s.ws.ImplicitSettings()
	for key, ts := range s.targets {
		switch {
		case ts.target.Implicit && len(fresh) == 0:
			ts.target = workspace.ImplicitTarget(ts.target.Sources[0], base, s.ws.TopFiles())
		case fresh[key] != nil:
			ts.target = fresh[key]
			delete(fresh, key)
		default: // no longer a target
			s.halt(ts)
			delete(s.targets, key)
			go s.publishAll()
			continue
		}
		s.schedule(ts, delay)
	}
	// New configured targets with an open file start now.
	for _, t := range fresh {
		for _, src := range t.Sources {
			if s.docs[src] != nil {
				s.schedule(s.targetFor(t), delay)
				break
			}
		}
	}
}

// update changes ts's snapshot if gen is still the newest analysis and
// publishes the files concerned. It reports whether it did.
func (s *Server) update(ts *targetState, gen uint64, change func(*snapshot)) bool {
	return s.updateThen(ts, gen, change, false)
}

// updatePaced is update for a snapshot of an analysis in progress: its
// files are published by the pacer (pacer.go), not at once, and the
// client is asked for code lenses again with them (publishRound).
func (s *Server) updatePaced(ts *targetState, gen uint64, change func(*snapshot)) bool {
	return s.updateThen(ts, gen, change, true)
}

func (s *Server) updateThen(ts *targetState, gen uint64, change func(*snapshot), paced bool) bool {
	s.mu.Lock()
	if ts.gen != gen {
		s.mu.Unlock()
		return false
	}
	// The files whose diagnostics may change: those the old and the new
	// snapshot have diagnostics in, and the sources (where a failed
	// analysis is reported). Not every header the program includes.
	files := append([]string(nil), ts.target.Sources...)
	next := &snapshot{}
	if ts.snap != nil {
		*next = *ts.snap
		files = append(files, ts.snap.mentioned()...)
	}
	change(next)
	ts.snap = next
	files = append(files, next.mentioned()...)
	if paced {
		s.mu.Unlock()
		s.paced.mark(files)
		return true
	}
	s.lensesChanged()
	if next.complete {
		s.settle()
	}
	s.mu.Unlock()
	files = append(files, s.paced.flush()...)
	for _, f := range dedupe(files) {
		s.publish(f)
	}
	return true
}

// publishRound publishes the files of a paced round and asks the client
// for the code lenses again, which follow the same snapshots.
func (s *Server) publishRound(files []string) {
	for _, f := range files {
		s.publish(f)
	}
	s.mu.Lock()
	s.lensesChanged()
	s.mu.Unlock()
}

// analyze builds and analyzes one target; it is run generation gen.
func (s *Server) analyze(ctx context.Context, ts *targetState, gen uint64, t *workspace.Target) {
	p := s.beginProgress(t.Name)
	end := "canceled"
	defer func() { p.end(end) }()
	defer func() {
		if r := recover(); r != nil { // the analyzer recovers its own; this guards the server's code
			s.logf(protocol.MessageTypeError, "internal error analyzing %s: %v", t.Name, r)
			s.update(ts, gen, func(sn *snapshot) { sn.err = fmt.Sprintf("internal error: %v", r); sn.complete = true })
			end = "failed"
		}
	}()
	if hook := s.opts.BeforeAnalysis; hook != nil {
		hook(t.Name)
	}
	p.report("building", -1)
	if missing := missingSource(t); missing != "" {
		at := &build.Diagnostic{File: s.ws.ConfigPath(), Line: t.SourcesLine}
		msg := fmt.Sprintf("its source %s does not exist", ir.RelPath(missing, s.ws.Root))
		s.update(ts, gen, func(sn *snapshot) {
			*sn = snapshot{err: msg, errAt: at, complete: true}
		})
		end = "failed: " + msg
		return
	}
	plan, err := s.ws.Plan(t, s.opts.CacheDir)
	if err != nil {
		s.update(ts, gen, func(sn *snapshot) {
			*sn = snapshot{err: err.Error(), files: t.Sources, complete: true}
		})
		end = "failed: " + err.Error()
		return
	}
	for _, db := range plan.CompDBs {
		s.logger.Printf("%s: compile flags from %s", t.Name, db)
	}
	seqs := s.savedSeqs()
	// The time budget counts from here: compiling is part of it.
	opts := plan.Analyze
	buildCtx := ctx
	if opts.Timeout > 0 {
		opts.Deadline = time.Now().Add(opts.Timeout)
		var cancel context.CancelFunc
		buildCtx, cancel = context.WithDeadline(ctx, opts.Deadline)
		defer cancel()
	}
	bopts := plan.Build
	if len(t.Sources) > 1 { // a target of many sources shows how far compiling is
		bopts.Progress = func(done, total int) { p.report(fmt.Sprintf("compiling %d/%d", done, total), -1) }
	}
	loaded, err := load.Sources(buildCtx, t.Sources, bopts, plan.Candidates, libc.Modeled)
	if ctx.Err() != nil {
		return
	}
	if buildCtx.Err() != nil {
		msg := fmt.Sprintf("the time budget of %s ran out", opts.Timeout)
		s.update(ts, gen, func(sn *snapshot) {
			*sn = snapshot{stopped: &report.Stopped{Budget: "time", Message: msg, Stage: "compiling"}, files: t.Sources,
				savedSeq: seqs, complete: true}
		})
		end = "stopped: " + msg
		return
	}
	if err != nil {
		diags, other := compileDiagnostics(err)
		s.update(ts, gen, func(sn *snapshot) {
			*sn = snapshot{compile: diags, err: other, files: dedupe(append(t.Sources, diagFiles(diags)...)),
				savedSeq: seqs, complete: true}
		})
		end = "does not compile"
		return
	}
	prog, inputs := loaded.Prog, loaded.Inputs
	opts.Sources, opts.Resolved = loaded.Sources, loaded.Resolved
	hash, key := prog.CodeHash(), plan.Key()
	if rep := s.reuse(ts, gen, prog, hash, key, inputs, seqs); rep != nil {
		end = outcome(rep) + " (code unchanged: results reused)"
		return
	}
	opts.Workers = s.opts.Workers
	setMemoryLimit(opts.Run.MaxMemory)
	opts.EvidenceDir = filepath.Join(s.opts.CacheDir, "evidence", shortHash(ts.key))
	if plan.History {
		opts.History = filepath.Join(s.opts.CacheDir, "history", shortHash(ts.key)+".json")
	}
	publishing := func(r *analyzer.Result, complete bool) *report.Report {
		rep := absolutize(report.FromResult(r, s.ws.Root), s.ws.Root)
		update := s.update
		if !complete {
			update = s.updatePaced
		}
		update(ts, gen, func(sn *snapshot) {
			*sn = snapshot{report: rep, complete: complete, files: inputs, savedSeq: seqs, stopped: rep.Stopped,
				prog: prog, opts: r.Options}
		})
		return rep
	}
	res, err := analyzer.Analyze(ctx, prog, opts, analyzer.Observer{
		Progress:   func(stage string, done, total int) { p.stage(stage, done, total) },
		Detected:   func(r *analyzer.Result) { publishing(r, false) },
		Classified: func(r *analyzer.Result, i int) { publishing(r, false) },
	})
	if errors.Is(err, analyzer.ErrCanceled) || ctx.Err() != nil {
		return
	}
	if err != nil {
		s.logf(protocol.MessageTypeError, "analysis of %s failed: %v", t.Name, err)
		s.update(ts, gen, func(sn *snapshot) {
			*sn = snapshot{err: firstLine(err.Error()), files: inputs, savedSeq: seqs, complete: true}
		})
		end = "failed"
		return
	}
	for _, w := range res.Warnings {
		s.logf(protocol.MessageTypeWarning, "%s: %s", t.Name, w)
	}
	rep := publishing(res, true)
	if plan.SuggestFixes && fixcheck.Fixable(res) {
		// After the verdicts are out: each fix is a whole analysis of the
		// changed program. A new save cancels it like the analysis.
		p.report("verifying fixes", -1)
		fixcheck.Suggest(ctx, res, plan.Build, prog)
		if ctx.Err() != nil {
			return
		}
		rep = publishing(res, true)
	}
	s.mu.Lock()
	if ts.gen == gen {
		ts.last = &finished{prog: prog, hash: hash, planKey: key, result: res}
	}
	s.mu.Unlock()
	end = outcome(rep)
}

// outcome is what an analysis ended with, as its progress's last message
// says it: the races by category, after "incomplete (...)" when the
// analysis could not follow the whole program (the status bar shows a
// warning then, not a check mark).
func outcome(rep *report.Report) string {
	end := summary(rep)
	switch {
	case rep.Stopped != nil:
		end = fmt.Sprintf("incomplete (%s budget): %s", rep.Stopped.Budget, end)
	case !rep.Complete():
		end = fmt.Sprintf("incomplete (%s): %s found in the part augur could follow", rep.GapSummary(), end)
	}
	return end + sourcesTaken(rep)
}

// sourcesTaken says which files augur took from the workspace to
// complete the program, and why, for the analysis's last line (the log,
// the status bar's tooltip); "" when it took none.
func sourcesTaken(rep *report.Report) string {
	if len(rep.SourcesTaken) == 0 {
		return ""
	}
	taken := make([]string, len(rep.SourcesTaken))
	for i, t := range rep.SourcesTaken {
		taken[i] = fmt.Sprintf("%s (defines %s, used by %s)", filepath.Base(t.File), t.Symbol, filepath.Base(t.NeededBy))
	}
	return "; with " + strings.Join(taken, ", ")
}

// reuse carries the last complete analysis over to prog when the code and
// the plan are unchanged (a save that moved comments or formatting): its
// locations move, nothing is re-run. It returns the report published, or
// nil when nothing could be reused.
func (s *Server) reuse(ts *targetState, gen uint64, prog *ir.Program, hash, key string, inputs []string,
	seqs map[string]uint64) *report.Report {
	s.mu.Lock()
	last := ts.last
	s.mu.Unlock()
	if last == nil || last.hash != hash || last.planKey != key {
		return nil
	}
	m := ir.MapLocs(last.prog, prog)
	if m == nil {
		return nil
	}
	res, ok := carry.Reignore(carry.Relocate(last.result, m), nil)
	if !ok {
		return nil // a race is no longer ignored: it needs classifying
	}
	rep := absolutize(report.FromResult(res, s.ws.Root), s.ws.Root)
	ok = s.update(ts, gen, func(sn *snapshot) {
		*sn = snapshot{report: rep, complete: true, files: inputs, savedSeq: seqs, reused: true, prog: prog, opts: res.Options}
	})
	if ok {
		s.mu.Lock()
		if ts.gen == gen {
			ts.last = &finished{prog: prog, hash: hash, planKey: key, result: res}
		}
		s.mu.Unlock()
	}
	if !ok {
		return nil
	}
	return rep
}

// savedSeqs records every open document's savedSeq.
func (s *Server) savedSeqs() map[string]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]uint64, len(s.docs))
	for p, d := range s.docs {
		out[p] = d.savedSeq
	}
	return out
}

// compileDiagnostics splits a build error into clang's positioned
// diagnostics and a message for anything else.
func compileDiagnostics(err error) ([]build.Diagnostic, string) {
	var diags []build.Diagnostic
	var other []string
	build.Split(err, func(ce *build.CompileError) {
		n := 0
		for _, d := range ce.Diagnostics {
			if d.Severity != "note" {
				if abs, err := filepath.Abs(d.File); err == nil {
					d.File = abs
				}
				diags = append(diags, d)
				n++
			}
		}
		if n == 0 {
			other = append(other, firstLine(ce.Output))
		}
	}, func(e error) { other = append(other, e.Error()) })
	return diags, strings.Join(other, "; ")
}

func diagFiles(ds []build.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.File)
	}
	return out
}

// summary says what an analysis found, for the end of its progress.
func summary(rep *report.Report) string {
	if len(rep.Races) == 0 {
		return "no races"
	}
	counts := map[string]int{}
	var order []string
	for _, r := range rep.Races {
		if counts[r.Category] == 0 {
			order = append(order, r.Category)
		}
		counts[r.Category]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[c], c)
	}
	noun := "races"
	if len(rep.Races) == 1 {
		noun = "race"
	}
	return fmt.Sprintf("%d %s: %s", len(rep.Races), noun, strings.Join(parts, ", "))
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, x := range list {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// absolutize makes the report's paths absolute again: it is rendered
// relative to the workspace root, so its sentences read well, but the
// server matches its locations against absolute document paths.
func absolutize(rep *report.Report, root string) *report.Report {
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	accesses := func(as []report.Access) {
		for i := range as {
			as[i].File = abs(as[i].File)
			for j := range as[i].Stack {
				as[i].Stack[j].File = abs(as[i].Stack[j].File)
			}
		}
	}
	frames := func(fs []report.Frame) {
		for i := range fs {
			fs[i].File = abs(fs[i].File)
		}
	}
	frame := func(f *report.Frame) {
		if f != nil {
			f.File = abs(f.File)
		}
	}
	for i := range rep.Races {
		r := &rep.Races[i]
		accesses(r.Accesses)
		frame(r.Allocated)
		if f := r.Failure; f != nil {
			f.File = abs(f.File)
			frames(f.Stack)
			frame(f.Freed)
		}
		for _, f := range r.Fixes {
			for j := range f.Edits {
				f.Edits[j].File = abs(f.Edits[j].File)
			}
		}
	}
	for i := range rep.Failures {
		f := &rep.Failures[i]
		f.File = abs(f.File)
		frames(f.Stack)
		for _, st := range f.Threads {
			frames(st)
		}
	}
	for i := range rep.Incomplete {
		rep.Incomplete[i].File = abs(rep.Incomplete[i].File)
	}
	for i := range rep.FilesNotGiven {
		f := &rep.FilesNotGiven[i]
		f.File, f.Host = abs(f.File), abs(f.Host)
	}
	for i := range rep.Inversions {
		accesses(rep.Inversions[i].First)
		accesses(rep.Inversions[i].Second)
	}
	return rep
}

// missingSource returns the first source an augur.toml target lists that
// does not exist, or "".
func missingSource(t *workspace.Target) string {
	if t.SourcesLine == 0 {
		return ""
	}
	for _, src := range t.Sources {
		if _, err := os.Stat(src); err != nil {
			return src
		}
	}
	return ""
}

// serverKeeps is what the server holds beside an analysis's execution:
// the programs, reports and histories of the open targets.
const serverKeeps = 128 << 20

// setMemoryLimit sets the Go memory limit from the memory budget of the
// analysis about to start, as the CLI does from --max-memory: the
// collector then works harder as the heap nears the budget, so the
// garbage of earlier schedules and saves does not pile up past it. No
// budget, no limit.
func setMemoryLimit(budget uint64) {
	if budget == 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(int64(budget) + vm.GCMargin + serverKeeps)
}
