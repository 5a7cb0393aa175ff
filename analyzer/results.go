package analyzer

import (
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/category"
)

// Relocate returns a copy of the result for a program whose code is the
// same as the analyzed one's and whose locations m maps (ir.MapLocs): a
// save that only moved comments, blank lines or formatting. Every location
// in it moves (ir.Relocate); the evidence of harmful races is written
// again, since it names the sources' new contents. The receiver is left
// unchanged.
func (res *Result) Relocate(m *ir.LocMap) *Result {
	out := ir.Relocate(res, m)
	out.Warnings = append([]string(nil), res.Warnings...)
	out.Evidence = make([]string, len(res.Evidence))
	for i := range out.Verdicts {
		path, err := out.writeEvidence(i)
		if err != nil {
			out.Warnings = append(out.Warnings, "evidence for race "+out.Races[i].ID+": "+err.Error())
		}
		out.Evidence[i] = path
	}
	out.writeFailureEvidence()
	return out
}

// Harmful counts the races classified spec-violated or output-differs.
func (res *Result) Harmful() int {
	n := 0
	for i := range res.Verdicts {
		if res.HarmfulRace(i) {
			n++
		}
	}
	return n
}

// HarmfulRace reports whether race i is classified spec-violated or
// output-differs.
func (res *Result) HarmfulRace(i int) bool {
	return i < len(res.Verdicts) && res.Verdicts[i] != nil && category.Of(res.Verdicts[i].Category).Harmful
}
