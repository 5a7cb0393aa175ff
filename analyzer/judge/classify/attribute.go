package classify

import "fmt"

// Attribute gives the failures of one-order verdicts to the races that
// explain them, once every race of an analysis has its verdict.
//
// A race whose other order cannot be enforced is judged in its one order
// alone (primaryAlone): a failure after its second access makes it
// spec-violated. Its order is the recorded one, the only possible one, so
// the failure comes from what the post-race schedule did next, and that
// may be another race's doing: a reader that waits for a ready flag and
// then asserts on a mode a third thread sets with no ordering fails
// after the flag's race in the runs where the mode's write came first
// (testdata/accuracy/layout_switch.c). When another race of the same
// analysis was decided spec-violated with both of its orders run, and
// its failure is the same one (the same way at the same place,
// sameTermination), the failure is that race's consequence: the one-order
// verdict becomes single-ordering, and its reason names the race.
//
// A one-order failure no such race explains stays the race's own: a pool
// freed between the last worker's decrement and its unlock
// (testdata/accuracy/destroy_spin.c) has no other race to give it to.
//
// A race classified on several input paths or occurrences then gets
// what the others showed (Verdict.Otherwise: both orders agreeing on
// another path makes it k-witness-harmless), with a reason that says
// where its one-order failure went.
//
// verdicts are the analysis's, in its races' order; nil ones (not
// decided) are skipped. name names race i in a reason (nil: "race" and
// its id). The verdicts it changes are replaced, not modified, and it
// returns their indices, in order. The result is the same for the same
// verdicts in any order of arrival: the explaining race is the first in
// the races' order.
func Attribute(verdicts []*Verdict, name func(i int) string) []int {
	if name == nil {
		name = func(i int) string { return "race " + verdicts[i].RaceID }
	}
	var changed []int
	for i, v := range verdicts {
		if v == nil || v.Category != SpecViolated || v.Alone == "" || v.Failure == nil {
			continue
		}
		cause := explaining(verdicts, v)
		if cause < 0 {
			continue
		}
		given := fmt.Sprintf("%s (%s), but that is the consequence of %s, whose two orders ran and only one failed so",
			v.Failure.Kind, v.Failure.Message, name(cause))
		var w Verdict
		switch {
		case v.Otherwise != nil && v.Otherwise.Category == SingleOrdering:
			w = *v.Otherwise
			w.Reason += "; on another input path or occurrence, runs of this one order can still end in " + given
		case v.Otherwise != nil:
			w = *v.Otherwise
			w.Reason += fmt.Sprintf("; on another input path or occurrence only one order was possible (%s), and runs of it can still end in %s",
				v.Alone, given)
		default:
			w = *v
			w.Category, w.Alone, w.Stage = SingleOrdering, "", "attribution"
			w.Failure, w.Order, w.Trace, w.Actions, w.Inputs = nil, "", nil, nil, nil
			w.Reason = v.Alone + "; runs of this one order can still end in " + given
		}
		w.RaceID, w.Seconds, w.Otherwise = v.RaceID, v.Seconds, nil
		verdicts[i] = &w
		changed = append(changed, i)
	}
	return changed
}

// explaining returns the index of the first verdict among verdicts that
// was decided spec-violated with both orders run and fails as v does; -1
// when none does.
func explaining(verdicts []*Verdict, v *Verdict) int {
	for j, u := range verdicts {
		if u == nil || u == v || u.RaceID == v.RaceID || u.Category != SpecViolated || u.Alone != "" || u.Failure == nil {
			continue
		}
		if sameTermination(u.Failure, v.Failure) {
			return j
		}
	}
	return -1
}
