// Package carry carries an analysis's result over to a save that changed
// no code: the language server shows the result again instead of
// analyzing the program anew, with its locations moved to where the text
// put them (Relocate) and the `augur:ignore` comments as they are now
// (Reignore).
package carry

import (
	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/srctext"
	"augur/analyzer/output/evidence"
)

// Relocate returns a copy of res for a program whose code is the same as
// the analyzed one's and whose locations m maps (ir.MapLocs): a save that
// only moved comments, blank lines or formatting. Every location in it
// moves (ir.Relocate); the evidence of harmful races and failures is
// written again, since it names the sources' new contents. res is left
// unchanged.
func Relocate(res *analyzer.Result, m *ir.LocMap) *analyzer.Result {
	out := ir.Relocate(res, m)
	out.Warnings = append([]string(nil), res.Warnings...)
	out.Evidence = make([]string, len(res.Evidence))
	store := out.Options.EvidenceStore()
	for i := range out.Verdicts {
		path, err := store.Race(out.Races[i], out.Verdicts[i])
		if err != nil {
			out.Warnings = append(out.Warnings, "evidence for race "+out.Races[i].ID+": "+err.Error())
		}
		out.Evidence[i] = path
	}
	paths, warnings := store.Failures(evidence.Failures(out.Detection, out.InputFailures))
	out.FailureEvidence, out.Warnings = paths, append(out.Warnings, warnings...)
	return out
}

// Reignore applies the `augur:ignore` comments as they are now (read
// through read, nil for the disk) to a result carried over to an
// unchanged program: races newly silenced leave it. ok is false when a
// race silenced before no longer is: it was never classified, so the
// result cannot stand in for a new analysis.
func Reignore(res *analyzer.Result, read func(string) ([]byte, error)) (out *analyzer.Result, ok bool) {
	text := srctext.New(read)
	for _, r := range res.Ignored {
		if !text.Silenced(r.MarkerSites()...) {
			return nil, false
		}
	}
	c := *res
	c.Races, c.Verdicts, c.Evidence = nil, nil, nil
	c.Ignored = append([]*race.Race(nil), res.Ignored...)
	for i, r := range res.Races {
		if text.Silenced(r.MarkerSites()...) {
			c.Ignored = append(c.Ignored, r)
			continue
		}
		c.Races = append(c.Races, r)
		c.Verdicts = append(c.Verdicts, res.Verdicts[i])
		c.Evidence = append(c.Evidence, res.Evidence[i])
	}
	return &c, true
}
