package report

import (
	"fmt"

	"augur/analyzer/frontend/ir"
)

// Gap is something that kept the analysis from seeing the whole program: a
// call augur could not follow (an undefined function, something it does
// not model) or a budget that ran out. A report with gaps is incomplete:
// "no races" in it means "none found in the part augur saw", and the CLI
// exits with ExitIncomplete so CI does not take it for a clean result.
type Gap struct {
	Kind string `json:"kind"` // "unsupported", "budget" or "failed"
	// Function is the function whose call augur could not follow.
	Function string `json:"function,omitempty"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	// Schedule is the schedule under which the execution stopped there.
	Schedule string `json:"schedule,omitempty"`
	// Budget names the budget a "budget" gap ran out of (instructions,
	// time, memory).
	Budget string `json:"budget,omitempty"`
	// DefinedIn is the project's file that defines Function, when augur
	// found one but could not take it into the program, and NotTaken why.
	DefinedIn string `json:"defined_in,omitempty"`
	NotTaken  string `json:"not_taken,omitempty"`
}

// Gap kinds.
const (
	GapUnsupported = "unsupported"
	GapBudget      = "budget"
	// GapFailed is a part of the analysis that failed (a farm that could
	// not classify): what came before it is reported.
	GapFailed = "failed"
)

// ExitIncomplete is the CLI's exit status for an incomplete analysis.
const ExitIncomplete = 4

// addUnsupported records a gap for an execution that ended at something
// augur does not model (function, when it was a call), once per message
// and place.
func (r *Report) addUnsupported(function, message string, loc ir.Loc, schedule, base string) {
	g := Gap{Kind: GapUnsupported, Function: function, Message: message, File: ir.RelPath(loc.File, base),
		Line: loc.Line, Column: loc.Col, Schedule: schedule}
	for _, o := range r.Incomplete {
		if o.Kind == g.Kind && o.Message == g.Message && o.File == g.File && o.Line == g.Line && o.Column == g.Column {
			return
		}
	}
	r.Incomplete = append(r.Incomplete, g)
}

// SetStopped records that a budget, or a failure (Budget empty), cut the
// analysis short.
func (r *Report) SetStopped(st *Stopped) {
	r.Stopped = st
	if st.Budget == "" {
		r.Incomplete = append(r.Incomplete, Gap{Kind: GapFailed, Message: fmt.Sprintf("while %s: %s", st.Stage, st.Message)})
		return
	}
	r.AddCut(st.Budget, st.Stage, st.Message)
}

// AddCut records that the budget named ran out while the analysis was
// doing stage, and left out what message says.
func (r *Report) AddCut(budget, stage, message string) {
	r.Incomplete = append(r.Incomplete, Gap{Kind: GapBudget, Budget: budget,
		Message: fmt.Sprintf("the %s budget ran out while %s: %s", budget, stage, message)})
}

// AddCutShort records that n executions ran out of their budget (named),
// the first at loc under schedule with message: the analysis's limit,
// not the program's failure. What they would have done after is not
// analyzed.
func (r *Report) AddCutShort(n int, budget, message string, loc ir.Loc, schedule, base string) {
	if n > 1 {
		message = fmt.Sprintf("%s (and in %d more executions)", message, n-1)
	}
	r.Incomplete = append(r.Incomplete, Gap{Kind: GapBudget, Schedule: schedule, Budget: budget, Message: message,
		File: ir.RelPath(loc.File, base), Line: loc.Line, Column: loc.Col})
}

// Complete reports whether the analysis saw the whole program.
func (r *Report) Complete() bool { return len(r.Incomplete) == 0 }

// GapSummary says in one sentence why the analysis is incomplete, for the
// text report's last line and the editor's progress.
func (r *Report) GapSummary() string {
	if r.Complete() {
		return ""
	}
	g := r.Incomplete[0]
	s := g.Message
	if g.Kind == GapUnsupported && g.Function != "" {
		s = fmt.Sprintf("augur could not follow the call to '%s'", g.Function)
		if g.File != "" {
			s += fmt.Sprintf(" at %s:%d", g.File, g.Line)
		}
	}
	if n := len(r.Incomplete) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// unsupportedHint is the advice given with an unsupported gap.
func unsupportedHint(g Gap) string {
	if g.Function == "" {
		return ""
	}
	if g.DefinedIn != "" {
		return fmt.Sprintf("'%s' is defined in %s, which augur did not compile in (%s); "+
			"list the program's sources in an augur.toml [[target]], or pass --undefined=havoc to let its calls return unconstrained values",
			g.Function, g.DefinedIn, g.NotTaken)
	}
	return fmt.Sprintf("'%s' is declared but defined nowhere in the program and augur has no model of it; "+
		"compile its definition in, or pass --undefined=havoc to let its calls return unconstrained values", g.Function)
}
