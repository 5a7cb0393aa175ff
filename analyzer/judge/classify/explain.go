package classify

import (
	"fmt"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Consequence is one sentence a developer can act on, about race r.
func (v *Verdict) Consequence(r *race.Race, base string) string {
	where := func(e race.Endpoint) string {
		return fmt.Sprintf("%s (%s:%d)", e.Function, ir.RelPath(e.Loc.File, base), e.Loc.Line)
	}
	needs := v.weakNote(base)
	switch v.Category {
	case SpecViolated:
		first, second := where(r.First), where(r.Second)
		if v.Order == "alternate" {
			first, second = second, first
		}
		msg := ir.RelText(v.Failure.Message, base)
		at := ir.RelPath(v.Failure.Loc.File, base) + fmt.Sprintf(":%d", v.Failure.Loc.Line)
		if !mentions(msg, at) {
			msg += " at " + at
		}
		return fmt.Sprintf("When %s runs before %s, the program fails: %s%s.%s", first, second, msg, v.onInput(), needs)
	case OutputDiffers:
		what := "prints"
		if v.PrintedSame() {
			what = "writes to " + FileNames(v.Outputs[0].Files)
		}
		return fmt.Sprintf("The order of %s and %s on %s changes what the program %s%s.%s", where(r.First), where(r.Second), r.Object, what, v.onInput(), needs)
	case Harmless:
		return fmt.Sprintf("Both orders of the accesses to %s gave the same result in %d tries; likely harmless.", r.Object, v.K)
	case SingleOrdering:
		return fmt.Sprintf("Only one order of the accesses to %s is possible: %s.", r.Object, ir.RelText(v.Reason, base))
	}
	return "Not classified: " + ir.RelText(v.Reason, base)
}

// Interleaving describes, in one line, the order of the racing accesses
// in the execution that showed the verdict: the harmful order for
// spec-violated and output-differs, both orders otherwise. r is the race.
func (v *Verdict) Interleaving(r *race.Race, base string) string {
	step := func(e race.Endpoint) string {
		return fmt.Sprintf("thread %d %s %s in %s (%s:%d)", e.Thread, verb(e), r.Object, e.Function,
			ir.RelPath(e.Loc.File, base), e.Loc.Line)
	}
	first, second := step(r.First), step(r.Second)
	switch v.Category {
	case SpecViolated, OutputDiffers:
		if v.Order == "alternate" {
			first, second = second, first
		}
		line := first + ", then " + second
		if v.Trace != nil {
			line += fmt.Sprintf("; the rest follows a recorded schedule of %d decisions", v.Trace.Len())
			if then := v.Trace.Then; then != nil {
				line += fmt.Sprintf(", then a %s schedule drawn from seed %d", then.Policy, then.Seed)
			}
		}
		return line
	case Harmless:
		return fmt.Sprintf("%s, and the other way round; both orders compared %d times", first, v.K)
	}
	return first + "; " + second
}

// verb names an access as a verb before the memory's name: the call that
// made it, for a synchronization call's ("calls pthread_cond_destroy
// on"), or its kind ("writes").
func verb(e race.Endpoint) string {
	if e.Call != "" {
		return "calls " + e.Call + " on"
	}
	return vm.Verb(e.KindName())
}

// weakNote says, for a consequence found under the weak memory model
// with reads that returned older values, which store had to become
// visible late: " It needs the weak memory model: only if the store to x
// at a.c:4 becomes visible after the store to y at a.c:5." Empty when the
// consequence needs no such read.
func (v *Verdict) weakNote(base string) string {
	if len(v.WeakChoices) == 0 {
		return ""
	}
	c := v.WeakChoices[0]
	at := func(s string) string {
		if s == "" {
			return "its initialization"
		}
		return ir.RelPath(s, base)
	}
	for i := len(c.Missed) - 1; i >= 0; i-- {
		m := c.Missed[i]
		for _, o := range v.WeakObserved {
			if o.Object != c.Object && o.Thread == m.Thread && o.Seq > m.Seq {
				return fmt.Sprintf(" It needs the weak memory model: only if the store to %s at %s becomes visible after "+
					"the store to %s at %s.", c.Object, at(m.At), o.Object, at(o.At))
			}
		}
	}
	m := c.Missed[len(c.Missed)-1]
	read := "its initial value"
	if c.Read.Thread >= 0 {
		read = "the value stored at " + at(c.Read.At)
	}
	return fmt.Sprintf(" It needs the weak memory model: only if thread %d's read of %s at %s misses the store of %d at %s "+
		"and returns %d (%s).", c.Thread, c.Object, at(c.ReadAt), m.Value, at(m.At), c.Value, read)
}

// mentions reports whether msg names the place file:line already (as
// file:line or file:line:col), so a sentence does not say it twice.
func mentions(msg, at string) bool {
	for i := strings.Index(msg, at); i >= 0; {
		end := i + len(at)
		if end == len(msg) || msg[end] < '0' || msg[end] > '9' {
			return true
		}
		j := strings.Index(msg[end:], at)
		if j < 0 {
			break
		}
		i = end + j
	}
	return false
}

// onInput names the input of the harmful execution, when it is not the
// analysis's own: ", with arguments ["-v"]".
func (v *Verdict) onInput() string {
	in := v.Inputs
	if in == nil {
		return ""
	}
	var parts []string
	if len(in.Args) > 0 {
		parts = append(parts, fmt.Sprintf("arguments %q", in.Args))
	}
	if in.Stdin != "" {
		s := in.Stdin
		if len(s) > 40 {
			s = s[:40] + "..."
		}
		parts = append(parts, fmt.Sprintf("standard input %q", s))
	}
	if len(parts) == 0 {
		for _, name := range in.SortedVars() {
			parts = append(parts, fmt.Sprintf("%s=%d", name, int64(in.Vars[name])))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ", with " + strings.Join(parts, " and ")
}
