package report

import (
	"encoding/json"
	"fmt"
	"io"

	"augur/analyzer/judge/category"
	"augur/analyzer/version"
)

// SARIF 2.1.0, the subset code scanning reads: rules, results with a
// primary location, related locations and, for races, a code flow whose two
// thread flows are the two racing accesses.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	// Properties carry "incomplete": true when the analysis did not see
	// the whole program (Report.Incomplete).
	Properties map[string]any `json:"properties,omitempty"`
}

// sarifInvocation says how the run went; its notifications are the gaps
// that left the analysis incomplete.
type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations,omitempty"`
	Descriptor sarifReference  `json:"descriptor"`
}

type sarifReference struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name    string      `json:"name"`
	Version string      `json:"version"`
	Rules   []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	DefaultConfig    sarifConfig  `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	CodeFlows           []sarifCodeFlow   `json:"codeFlows,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	// Properties say which ThreadSanitizer warnings reported a race.
	Properties map[string]any `json:"properties,omitempty"`
	// Fixes are a race's verified fixes (--suggest-fixes).
	Fixes []sarifFix `json:"fixes,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifSpan     `json:"deletedRegion"`
	InsertedContent *sarifContent `json:"insertedContent,omitempty"`
}

// sarifSpan is a region from a start to an end (exclusive) position.
type sarifSpan struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifContent struct {
	Text string `json:"text"`
}

// sarifFixes are the verified fixes in SARIF's terms: each edit deletes
// whole lines (from the start of the first to the start of the line
// after the last) and inserts its own.
func sarifFixes(fixes []Fix) []sarifFix {
	var out []sarifFix
	for _, f := range fixes {
		if !f.Verified {
			continue
		}
		sf := sarifFix{Description: sarifMessage{f.Title + ". " + capitalize(f.Checked) + "."}}
		for _, e := range f.Edits {
			r := sarifReplacement{DeletedRegion: sarifSpan{StartLine: e.Line, StartColumn: 1, EndLine: e.Line + len(e.Old), EndColumn: 1},
				InsertedContent: &sarifContent{e.Insert}}
			n := len(sf.ArtifactChanges)
			if n > 0 && sf.ArtifactChanges[n-1].ArtifactLocation.URI == e.File {
				sf.ArtifactChanges[n-1].Replacements = append(sf.ArtifactChanges[n-1].Replacements, r)
				continue
			}
			sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifact{URI: e.File},
				Replacements: []sarifReplacement{r}})
		}
		out = append(out, sf)
	}
	return out
}

// tsanProperties are a race result's properties: the ThreadSanitizer
// warnings that reported it, if any.
func tsanProperties(ws []int) map[string]any {
	if len(ws) == 0 {
		return nil
	}
	return map[string]any{"tsan": ws}
}

type sarifLocation struct {
	ID               int                   `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifCodeFlow struct {
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	ID        string                    `json:"id"`
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifThreadFlowLocation struct {
	Location sarifLocation `json:"location"`
}

func loc(file string, line, col int, msg string) sarifLocation {
	l := sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifact{URI: file},
		Region: sarifRegion{StartLine: max(line, 1), StartColumn: col}}}
	if msg != "" {
		l.Message = &sarifMessage{Text: msg}
	}
	return l
}

func accessLoc(a Access) sarifLocation {
	return loc(a.File, a.Line, a.Column, fmt.Sprintf("%s by %s in %s", a.Noun(), a.ThreadName(), a.Function))
}

// WriteSARIF writes the report as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, r *Report) error {
	rules := []sarifRule{
		{ID: "data-race", Name: "DataRace", ShortDescription: sarifMessage{"Data race"},
			FullDescription: sarifMessage{"Two threads access the same memory without synchronization and at least one writes."},
			DefaultConfig:   sarifConfig{"warning"}},
		{ID: "lock-order-inversion", Name: "LockOrderInversion", ShortDescription: sarifMessage{"Potential deadlock"},
			FullDescription: sarifMessage{"Two threads take the same locks in opposite orders."}, DefaultConfig: sarifConfig{"warning"}},
		{ID: "failure", Name: "ExecutionFailure", ShortDescription: sarifMessage{"Crash, assertion failure, deadlock or hang"},
			FullDescription: sarifMessage{"An execution of the program under some schedule did not end normally."},
			DefaultConfig:   sarifConfig{"error"}},
		{ID: "incomplete", Name: "AnalysisIncomplete", ShortDescription: sarifMessage{"Analysis incomplete"},
			FullDescription: sarifMessage{"augur could not follow the program past this point (a call to a function it cannot see or model, or a budget ran out): races beyond it are not reported."},
			DefaultConfig:   sarifConfig{"warning"}},
	}
	results := []sarifResult{}
	for _, x := range r.Races {
		first, second := x.Accesses[0], x.Accesses[1]
		results = append(results, sarifResult{
			RuleID: "data-race", Level: category.Named(x.Category).SARIF,
			Message:          sarifMessage{fmt.Sprintf("Data race on %s (%s): %s", x.Object, x.Category, x.Consequence)},
			Locations:        []sarifLocation{accessLoc(second)},
			RelatedLocations: []sarifLocation{withID(accessLoc(first), 1)},
			CodeFlows: []sarifCodeFlow{{ThreadFlows: []sarifThreadFlow{
				{ID: fmt.Sprintf("thread %d", first.Thread), Locations: []sarifThreadFlowLocation{{accessLoc(first)}}},
				{ID: fmt.Sprintf("thread %d", second.Thread), Locations: []sarifThreadFlowLocation{{accessLoc(second)}}},
			}}},
			PartialFingerprints: map[string]string{"augurRaceId/v1": x.ID},
			Properties:          tsanProperties(x.TSanWarnings()),
			Fixes:               sarifFixes(x.Fixes),
		})
	}
	for _, inv := range r.Inversions {
		results = append(results, sarifResult{
			RuleID: "lock-order-inversion", Level: "warning",
			Message:             sarifMessage{fmt.Sprintf("Locks %s and %s are taken in opposite orders by threads %d and %d", inv.Locks[0], inv.Locks[1], inv.First[0].Thread, inv.Second[0].Thread)},
			Locations:           []sarifLocation{accessLoc(inv.First[1])},
			RelatedLocations:    []sarifLocation{withID(accessLoc(inv.Second[1]), 1)},
			PartialFingerprints: map[string]string{"augurInversionId/v1": inv.ID},
		})
	}
	for _, f := range r.Failures {
		results = append(results, sarifResult{RuleID: "failure", Level: "error",
			Message:   sarifMessage{fmt.Sprintf("%s: %s (schedule %s)", f.Kind, f.Message, f.Schedule)},
			Locations: []sarifLocation{loc(f.File, f.Line, 0, "")}})
	}
	inv := sarifInvocation{ExecutionSuccessful: r.Error == nil}
	if e := r.Error; e != nil {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error",
			Message: sarifMessage{e.Message}, Descriptor: sarifReference{e.Stage}})
		for _, d := range e.Diagnostics {
			level := d.Severity // SARIF's levels: error, warning, note
			if level != "warning" && level != "note" {
				level = "error"
			}
			inv.Notifications = append(inv.Notifications, sarifNotification{Level: level,
				Message: sarifMessage{d.Message}, Locations: []sarifLocation{loc(d.File, d.Line, d.Column, "")},
				Descriptor: sarifReference{e.Stage}})
		}
	}
	for _, g := range r.Incomplete {
		n := sarifNotification{Level: "warning", Message: sarifMessage{g.Message}, Descriptor: sarifReference{"incomplete"}}
		if g.File != "" {
			n.Locations = []sarifLocation{loc(g.File, g.Line, g.Column, "")}
			msg := "Analysis incomplete: " + g.Message
			if h := unsupportedHint(g); h != "" {
				msg += "; " + h
			}
			results = append(results, sarifResult{RuleID: "incomplete", Level: "warning",
				Message: sarifMessage{msg + "."}, Locations: n.Locations})
		}
		inv.Notifications = append(inv.Notifications, n)
	}
	for _, m := range r.TSanUnreproduced {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note",
			Message:    sarifMessage{fmt.Sprintf("ThreadSanitizer %s (%s / %s) not reproduced: %s", tsanList(m.Warnings), m.First, m.Second, m.Reason)},
			Descriptor: sarifReference{"tsan"}})
	}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "augur", Version: version.Version, Rules: rules}},
		Invocations: []sarifInvocation{inv}, Results: results}
	if !r.Complete() {
		run.Properties = map[string]any{"incomplete": true}
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

func withID(l sarifLocation, id int) sarifLocation {
	l.ID = id
	return l
}

// WriteJSON writes the version 1 JSON report.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
