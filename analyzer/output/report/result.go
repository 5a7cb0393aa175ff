package report

import (
	"strings"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/srctext"
	"augur/analyzer/judge/classify"
	"augur/analyzer/output/evidence"
	"augur/analyzer/output/fix"
)

// FromResult renders an analysis's result as the report of design.md,
// with paths made relative to base when they lie inside it: detection's
// races and statistics (FromDetection), each race's classification,
// pattern, fixes and ThreadSanitizer warnings, the exploration's
// failures, the evidence written, and what stopped or cut the analysis
// short.
func FromResult(res *analyzer.Result, base string) *Report {
	// An analysis stopped while it explored inputs has not detected yet:
	// its report holds the exploration's failures and why it stopped.
	var det race.Result
	if res.Detection != nil {
		det = *res.Detection
	}
	det.Races = res.Races
	args := res.Options.Run.Args
	rep := FromDetection(&det, args[1:], base)
	rep.byID = make(map[string][]int, len(rep.Races))
	for i, r := range rep.Races {
		rep.byID[r.ID] = append(rep.byID[r.ID], i)
	}
	defer func() { rep.byID = nil }() // the caller may change Races
	for i, r := range res.Races {
		if i < len(res.Verdicts) && res.Verdicts[i] != nil { // a stopped analysis may lack some
			rep.Classify(r.ID, classification(res, i, base))
		}
	}
	if res.Exploration != nil {
		rep.AddExploration(res.Exploration, base)
		rep.Stats.SymbolicInputs = res.SymbolicInputs
	}
	for _, f := range evidence.Failures(res.Detection, res.InputFailures) {
		if path := res.FailureEvidence[evidence.FailureKey(f.Kind, f.Message, f.Loc)]; path != "" {
			rep.SetFailureEvidence(f, path, base)
		}
	}
	for i, p := range res.Patterns {
		if p != nil {
			rep.SetPattern(res.Races[i].ID, &Pattern{Name: p.Name, Evidence: ir.RelText(p.Evidence, base)})
		}
	}
	for i, fs := range res.Fixes {
		if len(fs) > 0 {
			rep.SetFixes(res.Races[i].ID, fixes(res, fs, base))
		}
	}
	for r, ws := range res.TSan {
		rep.SetTSan(r.ID, ws)
	}
	for _, m := range res.TSanMissed {
		rep.TSanUnreproduced = append(rep.TSanUnreproduced, TSanMiss{Warnings: m.Warnings,
			First: ir.RelPath(m.First, base), Second: ir.RelPath(m.Second, base), Reason: m.Reason})
	}
	rep.Stats.Ignored = len(res.Ignored)
	if d := res.Detection; d != nil {
		if t := d.TooLong; t != nil {
			rep.AddCutShort(1, t.Budget.String(), t.Message, t.Loc, "round-robin", base)
		}
		if t := d.FirstCutShort; t != nil {
			rep.AddCutShort(d.CutShort, t.Budget.String(), t.Message, t.Loc, d.CutSchedule, base)
		}
		rep.Stats.LongInputRuns, rep.Stats.LongInputSchedule = d.LongInputs, d.LongInputSchedule
	}
	rep.Stats.LongInputsLeftOut = res.LongInputsLeftOut
	if st := res.Stopped; st != nil {
		rep.SetStopped(&Stopped{Budget: st.Budget.String(), Message: st.Message, Stage: st.Stage, Done: st.Done, Total: st.Total})
	}
	for _, c := range res.Cuts {
		rep.AddCut(c.Budget.String(), c.Stage, c.Message)
	}
	rep.SetSources(res.Options.Resolved, base)
	if d := res.Detection; d != nil {
		rep.SetFilesNotGiven(analyzer.HostFiles(d.Missing, res.Options.Run.Files, base), base)
	}
	rep.MemoryModel = res.Options.MemoryModel
	rep.Demangle()
	if res.Elapsed > 0 {
		rep.Stats.Seconds = res.Elapsed.Seconds()
	}
	return rep
}

// classification is race i's verdict in the report's terms.
func classification(res *analyzer.Result, i int, base string) Classification {
	v := res.Verdicts[i]
	c := Classification{Category: string(v.Category), K: v.K, Stage: v.Stage, Reason: ir.RelText(v.Reason, base),
		Consequence: v.Consequence(res.Races[i], base), Evidence: res.Evidence[i], Seconds: v.Seconds}
	if v.Category == classify.Unclassified {
		return c
	}
	c.Schedule = v.Interleaving(res.Races[i], base)
	if v.Category == classify.Harmless {
		r := res.Races[i]
		c.Consequence += DestroyNote(r.First.Call, r.Second.Call)
	}
	if v.Harmful() {
		c.Inputs = inputsOf(res, v)
		c.Failure = RaceFailureOf(v.Failure, base)
		c.HarmfulOrder = []int{0, 1}
		if v.Order == "alternate" {
			c.HarmfulOrder = []int{1, 0}
		}
	}
	c.Outputs = v.AllOutputs
	if v.Category == classify.OutputDiffers {
		c.FilesDiffer, c.PrintedSame = filesDiffer(v), v.PrintedSame()
	}
	for _, ch := range v.WeakChoices {
		wr := WeakRead{Thread: ch.Thread, Object: ch.Object, At: ir.RelPath(ch.ReadAt, base), Value: ch.Value,
			WrittenAt: ir.RelPath(ch.Read.At, base)}
		for _, m := range ch.Missed {
			wr.Missed = append(wr.Missed, ir.RelPath(m.At, base))
		}
		c.WeakReads = append(c.WeakReads, wr)
	}
	return c
}

// filesDiffer are the files an output-differs verdict's two orders left
// differently, the harmful order's version first.
func filesDiffer(v *classify.Verdict) []FileDifference {
	harmful, other := v.Outputs[1], v.Outputs[0]
	if v.Order == "primary" {
		harmful, other = other, harmful
	}
	version := func(f classify.File) FileVersion {
		return FileVersion{Untouched: f.Untouched, Removed: f.Removed, Size: f.Size, Contents: f.Contents}
	}
	var out []FileDifference
	for i, f := range harmful.Files {
		if i < len(other.Files) {
			out = append(out, FileDifference{Name: f.Name(), Harmful: version(f), Other: version(other.Files[i])})
		}
	}
	return out
}

// inputsOf are the inputs of a verdict's harmful execution: the witness
// of multipath, or the recorded inputs.
func inputsOf(res *analyzer.Result, v *classify.Verdict) *Inputs {
	if in := v.Inputs; in != nil {
		return &Inputs{Args: in.Args, Stdin: in.Stdin, Files: in.Files, Vars: in.Vars}
	}
	run := res.Options.Run
	return &Inputs{Args: run.Args[1:], Stdin: string(run.Stdin)}
}

// fixes renders a race's fixes for the report, with paths relative to
// base.
func fixes(res *analyzer.Result, fs []fix.Fix, base string) []Fix {
	read := srctext.Reader(res.Options.ReadFile)
	var out []Fix
	for _, f := range fs {
		rf := Fix{Kind: string(f.Kind), Title: f.Title, Verified: f.Verified, Checked: f.Checked, Edits: []FixEdit{}}
		if d, err := f.Diff(base, read); err == nil {
			rf.Diff = d
		}
		for _, e := range f.Edits {
			rf.Edits = append(rf.Edits, FixEdit{File: ir.RelPath(e.File, base), Line: e.Line, Old: e.Old,
				Insert: strings.Join(e.New, "\n") + "\n"})
		}
		out = append(out, rf)
	}
	return out
}

// SetFilesNotGiven records the files the program looked for in vain that
// exist on the host, with paths relative to base when inside it.
func (r *Report) SetFilesNotGiven(fs []analyzer.HostFile, base string) {
	r.FilesNotGiven = FilesNotGiven(fs, base)
}

// FilesNotGiven is the report's account of analyzer.HostFiles, with paths
// relative to base when inside it.
func FilesNotGiven(fs []analyzer.HostFile, base string) []FileNotGiven {
	var out []FileNotGiven
	for _, f := range fs {
		out = append(out, FileNotGiven{Name: f.Name, Host: ir.RelPath(f.Host, base),
			File: ir.RelPath(f.At.File, base), Line: f.At.Line})
	}
	return out
}
