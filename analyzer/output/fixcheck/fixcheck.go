package fixcheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load"
	"augur/analyzer/frontend/srctext"
	"augur/analyzer/judge/classify"
	"augur/analyzer/judge/pattern"
	"augur/analyzer/output/evidence"
	"augur/analyzer/output/fix"
)

// Package fixcheck verifies the fixes analyzer/output/fix proposes. For every
// harmful race of an analysis it takes the proposed changes and verifies
// each the only way that means anything: it
// applies the change to a copy of the sources, builds it as the program
// was built, and analyzes it with the same settings. A fix is verified
// when the race is gone, nothing new appears in its place (a race, a
// failure, a deadlock, a lock-order inversion), and the changed program
// prints the same in every schedule tried, an output the original
// printed in one order of the race.

// maxChanges bounds the changed programs one analysis builds and
// analyzes: each costs a whole analysis, and the editor runs them after
// every save that finds harmful races.
const maxChanges = 12

// outputRuns is how many PCT schedules, besides round robin, the changed
// program's output is compared over.
const outputRuns = 20

// Suggest fills res.Fixes: the verified and the rejected fixes of every
// harmful race of res, the analysis of prog. bopts are the options prog
// was built with; the sources are read with Options.ReadFile (nil: from
// disk).
func Suggest(ctx context.Context, res *analyzer.Result, bopts build.Options, prog *ir.Program) {
	s := &suggestion{res}
	read := srctext.Reader(res.Options.ReadFile)
	res.Fixes = make([][]fix.Fix, len(res.Races))
	checked := map[string]*changed{} // one analysis per change, whichever races it is for
	var printed map[string]bool      // what the original prints in the output check's schedules
	frs := make([]fix.Race, len(res.Races))
	for i, r := range res.Races {
		frs[i] = fixRace(r, prog, res.Options.Sources)
	}
	for i, r := range res.Races {
		fr := frs[i]
		var proposed []fix.Fix
		switch spin := pattern.SpinAt(res.Verdicts[i]); {
		case res.Verdicts[i].Harmful():
			for j, o := range res.Races {
				// The same memory, however each race's source names it
				// (`a->balance` in one function, `acct->balance` in another).
				if j != i && o.ObjectKey == r.ObjectKey && o.Offset == r.Offset {
					fr.Others = append(fr.Others, frs[j].A, frs[j].B)
				}
			}
			proposed = fix.Propose(fr, read)
		case spin != "":
			// Ad hoc synchronization: the flag made atomic orders the
			// race as the spin meant to.
			fr.SpinAt = place(spin, res.Options.Sources)
			proposed = fix.FlagFixes(fr, read)
		}
		for _, f := range proposed {
			if ctx.Err() != nil {
				return
			}
			if f.Refused != "" {
				f.Checked = "refused: " + f.Refused
				res.Fixes[i] = append(res.Fixes[i], f)
				continue
			}
			key := fmt.Sprint(f.Edits)
			c := checked[key]
			switch {
			case c != nil:
			case len(checked) >= maxChanges:
				c = &changed{why: fmt.Sprintf("not verified: an analysis checks at most %d changes", maxChanges)}
			default:
				c = s.analyzeChange(ctx, bopts, read, &f)
				checked[key] = c
			}
			if printed == nil {
				cfg := res.Options.Run
				cfg.PreemptAt = s.harmfulAccesses(&fix.Fix{}, nil) // where the original raced
				printed = s.outputs(prog, cfg)
			}
			f.Verified, f.Checked = s.verify(c, i, printed)
			res.Fixes[i] = append(res.Fixes[i], f)
		}
	}
}

// Fixable reports whether res has a race Suggest proposes fixes for: a
// harmful one, or one that ad hoc synchronization orders.
func Fixable(res *analyzer.Result) bool {
	return slices.ContainsFunc(res.Verdicts, func(v *classify.Verdict) bool { return v.Harmful() || pattern.SpinAt(v) != "" })
}

// fixRace is what proposing fixes needs of r.
func fixRace(r *race.Race, prog *ir.Program, sources []string) fix.Race {
	access := func(e race.Endpoint) fix.Access {
		file := e.Loc.File
		// Name the file as the sources do, so that edits of one file
		// from an access and from a declaration agree.
		if k := slices.IndexFunc(sources, func(s string) bool { return sameFile(s, file) }); k >= 0 {
			file = sources[k]
		}
		locks := make([]string, len(e.Locks))
		at := make([]fix.Place, len(e.Locks))
		for i, l := range e.Locks {
			locks[i] = ir.ReadableName(l) // a C++ static mutex's symbol is mangled
			if i < len(e.LockedAt) {
				at[i] = inSources(e.LockedAt[i], sources)
			}
		}
		return fix.Access{File: file, Line: e.Loc.Line, Col: e.Loc.Col, Function: e.Function, Kind: e.KindName(),
			Locks: locks, LockedAt: at}
	}
	g := prog.GlobalByName(r.Object)
	return fix.Race{Object: ir.ReadableName(r.Object), A: access(r.First), B: access(r.Second), Sources: sources,
		Global: g != nil && !g.External && r.Allocated == nil && r.ObjSize == g.Size}
}

// place reads a location written "file:line:col", naming the file as
// the sources do.
func place(loc string, sources []string) fix.Place {
	parts := strings.Split(loc, ":")
	if len(parts) < 3 {
		return fix.Place{}
	}
	line, err1 := strconv.Atoi(parts[len(parts)-2])
	col, err2 := strconv.Atoi(parts[len(parts)-1])
	if err1 != nil || err2 != nil {
		return fix.Place{}
	}
	file := strings.Join(parts[:len(parts)-2], ":")
	if k := slices.IndexFunc(sources, func(s string) bool { return sameFile(s, file) }); k >= 0 {
		file = sources[k]
	}
	return fix.Place{File: file, Line: line, Col: col}
}

// inSources is the innermost frame of stack that is in one of the
// program's sources, named as the sources name it: where the program's
// own code took a lock (std::mutex::lock is in a library header).
func inSources(stack []vm.StackFrame, sources []string) fix.Place {
	for _, f := range stack {
		if k := slices.IndexFunc(sources, func(s string) bool { return sameFile(s, f.Loc.File) }); k >= 0 {
			return fix.Place{File: sources[k], Line: f.Loc.Line, Col: f.Loc.Col}
		}
	}
	return fix.Place{}
}

// suggestion is the analysis whose races fixes are suggested for.
type suggestion struct{ *analyzer.Result }

// changed is a fixed copy of the program and its analysis, or why there
// is none.
type changed struct {
	prog  *ir.Program
	after *analyzer.Result
	run   vm.Config
	why   string // "rejected: ..." or "not verified: ..." when there is no analysis
	// copies names each changed copy's original, to name it so in what
	// the verification says.
	copies map[string]string
}

// analyzeChange applies f to a copy of the sources, builds it with the
// original's options, and analyzes it with the original's settings.
func (res *suggestion) analyzeChange(ctx context.Context, bopts build.Options, read func(string) ([]byte, error), f *fix.Fix) *changed {
	dir, err := os.MkdirTemp("", "augur-fix-")
	if err != nil {
		return &changed{why: fmt.Sprintf("not verified: %v", err)}
	}
	defer os.RemoveAll(dir)
	opts := *res.Options
	sources := slices.Clone(opts.Sources)
	bopts.FileFlags = copyFlags(bopts.FileFlags)
	copies := map[string]string{}
	for _, file := range f.Files() {
		src, err := read(file)
		if err != nil {
			return &changed{why: fmt.Sprintf("not verified: %v", err)}
		}
		text, err := f.Apply(file, src)
		if err != nil {
			return &changed{why: fmt.Sprintf("not verified: %v", err)}
		}
		k := slices.IndexFunc(sources, func(s string) bool { return sameFile(s, file) })
		if k < 0 {
			return &changed{why: fmt.Sprintf("not verified: %s is not one of the program's sources", file)}
		}
		cp := filepath.Join(dir, filepath.Base(file))
		if err := os.WriteFile(cp, text, 0o644); err != nil {
			return &changed{why: fmt.Sprintf("not verified: %v", err)}
		}
		orig, _ := filepath.Abs(file)
		// The copy includes its neighbours' headers as the original does.
		bopts.FileFlags[cp] = append(slices.Clone(bopts.FileFlags[orig]), "-I"+filepath.Dir(orig))
		sources[k] = cp
		copies[cp] = file
	}
	fixed, err := load.Program(sources, bopts)
	if err != nil {
		return &changed{why: "rejected: the changed program does not compile: " + firstLine(err.Error())}
	}
	opts.Sources, opts.EvidenceDir, opts.History, opts.TSan, opts.Farm = sources, "", "", nil, ""
	focus := res.harmfulAccesses(f, copies)
	opts.Focus = focus
	opts.Deadline = time.Time{} // the changed program gets the whole time budget again
	after, err := analyzer.Analyze(ctx, fixed, opts, analyzer.Observer{})
	if err != nil {
		return &changed{why: "not verified: " + err.Error()}
	}
	if after.Stopped != nil {
		return &changed{why: "not verified: the analysis of the changed program stopped early: " + after.Stopped.Message}
	}
	run := opts.Run
	run.PreemptAt = focus // the output check switches threads where the original raced
	return &changed{prog: fixed, after: after, run: run, copies: copies}
}

// harmfulAccesses are the access locations (file:line:col) of every
// harmful race, where they are once f is applied and the changed files
// are the copies (copies maps a copy's path to the original it changes;
// an empty f and nil copies give the original's): the changed program is
// searched at the places the original went wrong.
func (res *suggestion) harmfulAccesses(f *fix.Fix, copies map[string]string) []string {
	copyOf := map[string]string{}
	for cp, file := range copies {
		copyOf[file] = cp
	}
	seen := map[string]bool{}
	var out []string
	for i, r := range res.Races {
		if !res.Verdicts[i].Harmful() {
			continue
		}
		for _, e := range []race.Endpoint{r.First, r.Second} {
			l := e.Loc
			if seen[l.String()] || l.File == "" {
				continue
			}
			seen[l.String()] = true
			for file, cp := range copyOf {
				if sameFile(file, l.File) {
					l = ir.Loc{File: cp, Line: f.MapLine(file, l.Line), Col: l.Col}
				}
			}
			out = append(out, l.String())
		}
	}
	return out
}

// originals names the changed copies in msg by their originals' names.
func (c *changed) originals(msg string) string {
	for cp, orig := range c.copies {
		msg = strings.ReplaceAll(msg, cp, orig)
	}
	return msg
}

// verify says whether the change c fixes race i, and what was checked;
// printed is what the original printed in the output check's schedules.
func (res *suggestion) verify(c *changed, i int, printed map[string]bool) (bool, string) {
	if c.why != "" {
		return false, c.why
	}
	if why := res.compare(c.after, i); why != "" {
		return false, "rejected: " + c.originals(why)
	}
	why := res.samePrinted(c.after, i, printed)
	n := 0
	if why == "" {
		n, why = res.sameOutput(c.prog, c.run, i, printed)
	}
	if why != "" {
		return false, "rejected: " + c.originals(why)
	}
	return true, fmt.Sprintf("verified: no race on %s, and no new race, failure, deadlock or lock-order inversion in %d schedules; the same output in %d runs switching threads where the original raced, one the original printed",
		res.Races[i].Object, c.after.Detection.Schedules, n)
}

// compare checks the analysis after a fix of race i against res: the
// race is gone and nothing took its place. It says what went wrong, or "".
func (res *suggestion) compare(after *analyzer.Result, i int) string {
	target := raceSig(res.Races[i])
	known := map[string]bool{}
	for _, r := range res.Races {
		known[raceSig(r)] = true
	}
	for _, r := range after.Races {
		switch sig := raceSig(r); {
		case sig == target:
			return fmt.Sprintf("the race on %s is still there", r.Object)
		case !known[sig]:
			return fmt.Sprintf("a new race on %s between %s and %s", r.Object, r.First.Function, r.Second.Function)
		}
	}
	// The harm the race did must be gone: the failure its harmful order
	// reached, though detection may have met it too, must not happen in
	// the changed program (an _Atomic index still checked and used in two
	// reads still goes out of bounds).
	if v := res.Verdicts[i]; v.Failure != nil {
		harm := failSig(&race.Failure{Kind: v.Failure.Kind, Stack: v.Failure.Stack})
		for _, f := range evidence.Failures(after.Detection, after.InputFailures) {
			if failSig(f) == harm {
				return fmt.Sprintf("the failure the race caused still happens: %s", firstLine(f.Message))
			}
		}
	}
	failed := map[string]bool{}
	for _, f := range evidence.Failures(res.Detection, res.InputFailures) {
		failed[failSig(f)] = true
	}
	for _, f := range evidence.Failures(after.Detection, after.InputFailures) {
		if !failed[failSig(f)] {
			if f.Kind == vm.TermDeadlock {
				return fmt.Sprintf("a deadlock (%s)", firstLine(f.Message))
			}
			return fmt.Sprintf("a new failure: %s", firstLine(f.Message))
		}
	}
	inverted := map[[2]string]bool{}
	for _, v := range res.Detection.Inversions {
		inverted[[2]string{v.LockA, v.LockB}] = true
	}
	for _, v := range after.Detection.Inversions {
		if !inverted[[2]string{v.LockA, v.LockB}] {
			return fmt.Sprintf("a new lock-order inversion of %s and %s (a possible deadlock)", v.LockA, v.LockB)
		}
	}
	return ""
}

// lineNumbers are the line numbers in an object's description: a fix
// that adds lines moves the allocations below it.
var lineNumbers = regexp.MustCompile(`:\d+`)

// raceSig identifies a race across a fix: its memory and its two
// functions and kinds, without line numbers.
func raceSig(r *race.Race) string {
	a := r.First.Function + "/" + r.First.KindName()
	b := r.Second.Function + "/" + r.Second.KindName()
	if a > b {
		a, b = b, a
	}
	return lineNumbers.ReplaceAllString(r.Object, "") + "|" + a + "|" + b
}

func failSig(f *race.Failure) string {
	fn := ""
	if len(f.Stack) > 0 {
		fn = f.Stack[0].Function
	}
	return f.Kind.String() + "|" + fn
}

// outputs is what prog prints in the output check's schedules (round
// robin and outputRuns PCT schedules), as a set.
func (res *suggestion) outputs(prog *ir.Program, cfg vm.Config) map[string]bool {
	out := map[string]bool{}
	steps := 0
	for run := 0; run <= outputRuns; run++ {
		if o, n, budget, err := res.runOnce(prog, cfg, run, steps); err == nil && budget == "" {
			out[o] = true
			if run == 0 {
				steps = n
			}
		}
	}
	return out
}

// samePrinted checks what the schedules of the changed program's
// analysis printed: one output, and one the original printed (when the
// original's analysis kept all it printed). It says what went wrong, or
// "".
func (res *suggestion) samePrinted(after *analyzer.Result, i int, printed map[string]bool) string {
	if after.Detection == nil {
		return ""
	}
	outs := after.Detection.Outputs
	if len(outs) > 1 {
		return fmt.Sprintf("the changed program still prints different output in different schedules (%q and %q)",
			clip(outs[0]), clip(outs[1]))
	}
	orig := res.Detection
	if len(outs) == 1 && orig != nil && orig.MoreOutputs == 0 && !res.printedBy(i, printed, outs[0]) {
		return fmt.Sprintf("the changed program prints %q, which the original never printed", clip(outs[0]))
	}
	return ""
}

// printedBy reports whether the original printed o: in one order of
// race i, in the output check's schedules (printed), or in a schedule of
// its analysis.
func (res *suggestion) printedBy(i int, printed map[string]bool, o string) bool {
	v := res.Verdicts[i]
	return printed[o] || o == v.Outputs[0].Stdout || o == v.Outputs[1].Stdout || slices.Contains(v.AllOutputs, o) ||
		res.Detection != nil && slices.Contains(res.Detection.Outputs, o)
}

// sameOutput runs the changed program in the output check's schedules:
// every run must print the same, and something the original printed, in
// one order of race i or in one of the same schedules (printed). It
// returns the runs, or why not.
func (res *suggestion) sameOutput(fixed *ir.Program, cfg vm.Config, i int, printed map[string]bool) (int, string) {
	first, steps := "", 0
	for run := 0; run <= outputRuns; run++ {
		out, n, budget, err := res.runOnce(fixed, cfg, run, steps)
		if run == 0 {
			steps = n
		}
		switch {
		case err != nil:
			return run, err.Error()
		case budget != "":
			return run, "a run of the changed program ran out of its budget: " + budget
		case run == 0 && !res.printedBy(i, printed, out):
			return run, fmt.Sprintf("the changed program prints %q, which the original never printed", clip(out))
		case run == 0:
			first = out
		case out != first:
			return run, fmt.Sprintf("the changed program still prints different output in different schedules (%q and %q)",
				clip(first), clip(out))
		}
	}
	return outputRuns + 1, ""
}

// runOnce runs prog under schedule run (0: round robin, then PCT seeds
// whose priority changes fall among steps scheduling decisions, what the
// round-robin run made) and returns what it printed and the decisions it
// made, or the budget it ran out of.
func (res *suggestion) runOnce(prog *ir.Program, cfg vm.Config, run, steps int) (string, int, string, error) {
	cfg.Monitor, cfg.ScheduleForks = nil, nil
	cfg.Policy = sched.RoundRobin{}
	if run > 0 {
		cfg.Policy = sched.NewPCT(res.Options.Seed+uint64(run), 3, max(steps, 1))
	}
	cfg.Models = libc.Models()
	m, err := vm.New(prog, cfg)
	if err != nil {
		return "", 0, "", err
	}
	r := m.Run()
	if r.Term.Kind == vm.TermBudget {
		return "", 0, r.Term.Message, nil
	}
	out, _ := vm.Streams(r.Output)
	return string(out), r.Trace.Len(), "", nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

func copyFlags(m map[string][]string) map[string][]string {
	c := make(map[string][]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}
