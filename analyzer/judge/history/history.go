// Package history keeps what the analyses of one program learned, so the
// next analysis of the same program builds on it instead of starting over
// (after AtexRace's history across executions, shared/papers/002_*): the
// language server analyzes a program on every save, and each save should
// try schedules the earlier ones did not, keep the races they found, and
// let a harmless verdict's k grow with every analysis that agrees.
//
// A history belongs to one program (a target of the workspace, or the file
// the command line names), across edits. What it holds is kept as long as
// it still means the same thing:
//
//   - the seeds used so far and the schedules explored, always: the next
//     analysis starts past them, so its exploration goes on where the last
//     one stopped;
//   - a known race, while the functions of its two accesses are the same
//     code (ir.Program.FuncHash): its id is stable across edits elsewhere,
//     so its verdict merges with the next one's. In the very same program
//     (ir.Program.Key) its schedule replays, a race this analysis did
//     not find is added back (Recall), and its two accesses are
//     preemption points of PCT from the first schedule on; after an edit
//     elsewhere, its two statements, found again relative to their
//     functions, are the first pair race-directed scheduling aims at;
//   - the potential races tried and confirmed, in the very same program
//     only: they name source locations.
package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"augur/internal/cachefile"
	"augur/internal/safefile"

	"augur/analyzer/detect/race"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// version is the file format's version; a file of another is ignored.
// Version 2: the enumeration switches after reads at the focus too, so a
// version 1 file's Enumerated and AllSchedules are of fewer points, and
// an analysis that trusted them would skip schedules it never ran.
const version = 2

// maxTried bounds the candidate ids a history keeps as tried.
const maxTried = 4096

// record is the file's content.
type record struct {
	Version int    `json:"version"`
	Program string `json:"program"` // ir.Program.Key
	// Settings fingerprints what else the verdicts depend on (the memory
	// model, the inputs, the classifier): a history made under other
	// settings is not used.
	Settings string `json:"settings"`
	// Analyses counts the analyses that contributed.
	Analyses int `json:"analyses"`
	// Offset is where the next analysis's random schedules start: past
	// every seed an earlier one used.
	Offset uint64 `json:"offset"`
	// Explored counts the schedules the explorations after each plan
	// ran, all analyses together: the next exploration starts past them.
	Explored uint64 `json:"explored,omitempty"`
	// Enumerated is set once an analysis of the program (Program) ran the
	// bounded enumeration, which the next analyses of it skip.
	Enumerated bool `json:"enumerated,omitempty"`
	// AllSchedules is the focus at which that enumeration ran every
	// schedule (race.ExploreStats.AllFocus), when it did.
	AllSchedules []string `json:"all_schedules,omitempty"`
	// Shared are the allocation sites the last analysis shadowed from
	// birth (race.Prior.Shared), kept across edits: they change only
	// what detection costs.
	Shared    []string          `json:"shared,omitempty"`
	Confirmed []*race.Candidate `json:"confirmed,omitempty"`
	Tried     []string          `json:"tried,omitempty"`
	Races     []*known          `json:"races,omitempty"`
}

// known is a race an earlier analysis found, with its latest verdict.
type known struct {
	Race    *race.Race        `json:"race"`
	Verdict *classify.Verdict `json:"verdict,omitempty"`
	// Analyses counts the analyses whose verdicts make up Verdict.
	Analyses int `json:"analyses"`
	// Funcs fingerprints the code of the functions of the two accesses
	// (ir.Program.FuncHash): the race is known while they stay the same.
	Funcs [2]string `json:"funcs"`
}

// History is the history of one program during one analysis. A nil
// *History is valid and remembers nothing.
type History struct {
	path string
	prog *ir.Program
	rec  record
	step uint64 // how far Offset moves per analysis
	same bool   // the history was made by this very program
	det  *race.Result
}

// Open reads the history at path for prog analyzed under settings (a
// fingerprint of everything else verdicts depend on), or starts an empty
// one when there is none, it is of another format or was made under other
// settings. schedules is the analysis's number of base schedules (how far
// the seeds move). It returns what detection should know (nil when
// nothing). path "" turns history off (nil, nil, nil).
func Open(path string, prog *ir.Program, schedules int, settings string) (*race.Prior, *History, error) {
	if path == "" {
		return nil, nil, nil
	}
	h := &History{path: path, prog: prog, rec: record{Version: version, Settings: settings}, step: uint64(max(schedules, 1))}
	defer func() { h.rec.Program = prog.Key() }()
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxConfig})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, h, nil
	}
	if err != nil {
		return nil, h, fmt.Errorf("read history %s: %w", path, err)
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil || rec.Version != version || rec.Settings != settings {
		return nil, h, nil // an older format, a damaged file or other settings: start over
	}
	h.same = rec.Program == prog.Key()
	if !h.same {
		rec.Confirmed, rec.Tried, rec.Enumerated, rec.AllSchedules = nil, nil, false, nil
	}
	var kept []*known
	for _, k := range rec.Races {
		if k.Race != nil && k.Funcs == h.funcs(k.Race) {
			kept = append(kept, k)
		}
	}
	rec.Races = kept
	h.rec = rec
	prior := &race.Prior{Confirmed: rec.Confirmed, Tried: map[string]bool{}, Explored: rec.Explored, Shared: rec.Shared}
	for _, id := range rec.Tried {
		prior.Tried[id] = true
	}
	if h.same {
		prior.Enumerated, prior.AllSchedules = rec.Enumerated, rec.AllSchedules
		for _, k := range kept {
			prior.Focus = append(prior.Focus, k.Race.First.Loc.String(), k.Race.Second.Loc.String())
		}
	} else {
		for _, k := range kept {
			if c := target(k.Race, prog); c != nil {
				prior.Confirmed = append(prior.Confirmed, c)
			}
		}
	}
	return prior, h, nil
}

// funcs fingerprints the functions of r's two accesses in the program.
func (h *History) funcs(r *race.Race) [2]string {
	return [2]string{h.prog.FuncHash(r.First.Function), h.prog.FuncHash(r.Second.Function)}
}

// target is the pair of statements of a known race in prog, found again
// relative to the start of their functions, for race-directed scheduling;
// nil when a function is gone.
func target(r *race.Race, prog *ir.Program) *race.Candidate {
	var locs [2]ir.Loc
	for i, e := range []race.Endpoint{r.First, r.Second} {
		fn := prog.Func(e.Function)
		if fn == nil || e.FuncLine == 0 {
			return nil
		}
		locs[i] = ir.Loc{File: e.Loc.File, Line: fn.Loc.Line + e.Loc.Line - e.FuncLine, Col: e.Loc.Col}
	}
	return &race.Candidate{ID: race.CandidateID(locs[0], locs[1], r.ObjectKey), Object: r.Object,
		A: locs[0].String(), B: locs[1].String(), AKind: r.First.Kind, BKind: r.Second.Kind, Inputs: r.Inputs}
}

// Recall adds to det the races earlier analyses found that this one did
// not (race.ByHistory): the program is the same, so their schedules
// replay, and a race once found stays known.
func (h *History) Recall(det *race.Result) {
	if h == nil {
		return
	}
	h.det = det
	if !h.same {
		return // the schedules would not replay; race-directed runs aimed at them
	}
	found := map[string]bool{}
	for _, r := range det.Races {
		found[r.ID] = true
		found[race.RaceCandidateID(r)] = true
	}
	for _, k := range h.rec.Races {
		if found[k.Race.ID] || found[race.RaceCandidateID(k.Race)] {
			continue
		}
		r := *k.Race
		r.Technique = race.ByHistory
		det.Races = append(det.Races, &r)
		det.Found[race.ByHistory]++
	}
}

// Merge returns the verdict of r to report, given this analysis's v: the
// earlier verdicts' k added to a harmless one's (k grows with each
// analysis that agrees), and a harmful verdict an earlier analysis proved
// kept when this one's post-race schedules did not show the harm again.
func (h *History) Merge(r *race.Race, v *classify.Verdict) *classify.Verdict {
	if h == nil || v == nil {
		return v
	}
	k := h.find(r.ID)
	if k == nil || k.Verdict == nil {
		return v
	}
	old := k.Verdict
	switch {
	case old.Harmful() && !v.Harmful():
		kept := *old
		kept.RaceID, kept.Seconds = v.RaceID, v.Seconds
		return &kept
	case old.Category == classify.Harmless && v.Category == classify.Harmless:
		merged := *v
		merged.K = v.K + old.K
		merged.Reason = fmt.Sprintf("%s; with the %d of %d earlier analyses of this program, k is %d",
			v.Reason, old.K, k.Analyses, merged.K)
		return &merged
	case v.Category == classify.Unclassified && old.Category != classify.Unclassified:
		kept := *old
		kept.RaceID, kept.Seconds = v.RaceID, v.Seconds
		return &kept
	}
	return v
}

func (h *History) find(id string) *known {
	for _, k := range h.rec.Races {
		if k.Race.ID == id {
			return k
		}
	}
	return nil
}

// Save records this analysis: its races with their verdicts (as Merge
// returned them), the pairs race-directed scheduling tried and confirmed,
// and the seeds it used. It writes the file atomically.
func (h *History) Save(races []*race.Race, verdicts []*classify.Verdict) error {
	if h == nil {
		return nil
	}
	rec := &h.rec
	rec.Analyses++
	rec.Offset += h.step
	if det := h.det; det != nil {
		rec.Explored += uint64(det.Explore.Schedules)
		rec.Enumerated = rec.Enumerated || det.Explore.Enumerated > 0
		if det.Explore.AllSchedules {
			rec.AllSchedules = det.Explore.AllFocus
		}
		rec.Shared = det.Shared
		rec.Tried = appendNew(rec.Tried, det.Directed...)
		if len(rec.Tried) > maxTried {
			rec.Tried = rec.Tried[len(rec.Tried)-maxTried:]
		}
		for _, c := range det.Confirmed {
			if !hasCandidate(rec.Confirmed, c.ID) {
				rec.Confirmed = append(rec.Confirmed, c)
			}
		}
	}
	for i, r := range races {
		if i >= len(verdicts) || verdicts[i] == nil || r.Trace == nil {
			continue
		}
		if k := h.find(r.ID); k != nil {
			k.Race, k.Verdict, k.Funcs = r, verdicts[i], h.funcs(r)
			k.Analyses++
			continue
		}
		rec.Races = append(rec.Races, &known{Race: r, Verdict: verdicts[i], Analyses: 1, Funcs: h.funcs(r)})
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("save history: %w", err)
	}
	if err := cachefile.WriteAtomic(h.path, data); err != nil {
		return fmt.Errorf("save history: %w", err)
	}
	return nil
}

// Offset is how far this analysis's seeds move past the earlier ones':
// added to the seed, it makes the random schedules of detection and of
// classification ones no earlier analysis ran.
func (h *History) Offset() uint64 {
	if h == nil {
		return 0
	}
	return h.rec.Offset
}

// Analyses is how many analyses the history holds (before this one).
func (h *History) Analyses() int {
	if h == nil {
		return 0
	}
	return h.rec.Analyses
}

func appendNew(list []string, add ...string) []string {
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		seen[s] = true
	}
	for _, s := range add {
		if !seen[s] {
			seen[s] = true
			list = append(list, s)
		}
	}
	return list
}

func hasCandidate(cs []*race.Candidate, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}
