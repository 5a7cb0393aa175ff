// Package evidence writes and replays the evidence of a harmful race, or of
// a failure some schedule reached: the inputs and the complete schedule of
// the execution that shows the harm, with the outcome it must reproduce.
// Replay is deterministic and refuses evidence for a program that has
// changed.
package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"augur/internal/safefile"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
	"augur/analyzer/judge/category"
	"augur/analyzer/judge/classify"
	"augur/analyzer/version"
)

// Evidence is one race's reproducible harm, or one failure's.
type Evidence struct {
	Version int `json:"version"`
	// Kind is KindFailure for the evidence of a failure (an execution
	// that crashed, failed an assert, deadlocked or hung), with no race
	// to name: Race, Category, Order and Points are then empty. Absent:
	// a race's.
	Kind    string  `json:"kind,omitempty"`
	Program Program `json:"program"`
	Inputs  Inputs  `json:"inputs"`
	Race    Race    `json:"race"`
	// Category is spec-violated or output-differs; Order the order that
	// shows it ("primary" or "alternate").
	Category string       `json:"category,omitempty"`
	Order    string       `json:"order,omitempty"`
	Reason   string       `json:"reason"`
	Schedule *sched.Trace `json:"schedule"`
	// Actions are the scheduling changes the execution made at given
	// points (a forced switch, access preemption starting); replay repeats
	// them.
	Actions []classify.Action `json:"actions,omitempty"`
	// Points are the two racing accesses, in the order they happen.
	Points   [2]vm.StopPoint `json:"points"`
	Expected Expected        `json:"expected"`
	// MemoryModel is "weak" when the execution ran under the weak memory
	// model; WeakReads are then its reads that returned an older value
	// than the latest store, which a replay makes again.
	MemoryModel memmodel.Model  `json:"memory_model,omitempty"`
	WeakReads   []vm.WeakChoice `json:"weak_reads,omitempty"`
}

// Program identifies the analyzed program.
type Program struct {
	Files []string `json:"files"`
	Hash  string   `json:"hash"` // of the files' contents and augur's version
	// Named are the files as the analysis named them, relative to Dir,
	// when that is not Files: the paths the compiler saw are in the
	// program's __FILE__ and assert messages, so a replay loads the
	// program by the same names to print the same output.
	Named []string `json:"named,omitempty"`
	Dir   string   `json:"dir,omitempty"`
	// Flags and FileFlags are the compile flags the analysis built the
	// program with (-I, -D, -std, ... for every file, and per file by
	// absolute path), so that a replay builds the same program; relative
	// paths in them are relative to Dir. A replay checks them against the
	// allow-list of compile flags, as it does augur.toml's.
	Flags     []string            `json:"flags,omitempty"`
	FileFlags map[string][]string `json:"file_flags,omitempty"`
	// Clients are the files of each client program built with the
	// program (build.Options.Clients), as the analysis named them,
	// relative ones relative to Dir.
	Clients [][]string `json:"clients,omitempty"`
}

// SetClients records the files of the client programs the program was
// built with, and makes Hash cover them too.
func (p *Program) SetClients(clients [][]string) error {
	if len(clients) == 0 {
		return nil
	}
	for _, c := range clients {
		for _, f := range c {
			if !filepath.IsAbs(f) && p.Dir == "" {
				dir, err := os.Getwd()
				if err != nil {
					return err
				}
				p.Dir = dir
			}
		}
	}
	p.Clients = clients
	hash, err := Hash(p.hashed())
	p.Hash = hash
	return err
}

// hashed are the files Hash covers: the program's and its clients',
// absolute.
func (p *Program) hashed() []string {
	all := slices.Clone(p.Files)
	for _, c := range p.Clients {
		for _, f := range c {
			if !filepath.IsAbs(f) {
				f = filepath.Join(p.Dir, f)
			}
			all = append(all, f)
		}
	}
	return all
}

// SetBuild records the compile flags the program was built with (see
// Program.Flags), and the directory they were given in.
func (p *Program) SetBuild(flags []string, fileFlags map[string][]string) error {
	p.Flags = flags
	p.FileFlags = nil
	for f, fl := range fileFlags {
		if len(fl) > 0 {
			if p.FileFlags == nil {
				p.FileFlags = map[string][]string{}
			}
			p.FileFlags[f] = fl
		}
	}
	if (len(p.Flags) > 0 || p.FileFlags != nil) && p.Dir == "" {
		dir, err := os.Getwd()
		if err != nil {
			return err
		}
		p.Dir = dir
	}
	return nil
}

// Inputs are the program's inputs.
type Inputs struct {
	Argv            []string          `json:"argv"`              // argv[0] included
	Clients         [][]string        `json:"clients,omitempty"` // each client program's argv (vm.Config.Clients)
	Env             []string          `json:"env,omitempty"`     // the program's environment (absent: augur's default)
	Stdin           string            `json:"stdin,omitempty"`
	Files           map[string]string `json:"files,omitempty"`
	Vars            map[string]uint64 `json:"vars,omitempty"` // values of named inputs (multipath witnesses)
	MaxInstructions uint64            `json:"max_instructions"`
	// Undefined is "havoc" when calls to undefined functions returned
	// unconstrained values (their values are in Vars); absent: stop.
	Undefined vm.UndefinedPolicy `json:"undefined,omitempty"`
	// PreemptAccesses is set when threads switched at shared accesses
	// from the start (the schedule has those points).
	PreemptAccesses bool `json:"preempt_accesses,omitempty"`
}

// Race names the race.
type Race struct {
	ID     string      `json:"id"`
	Object string      `json:"object"`
	First  AccessPlace `json:"first"`
	Second AccessPlace `json:"second"`
}

// AccessPlace is one racing access.
type AccessPlace struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Thread   int    `json:"thread"`
	Kind     string `json:"kind"`
}

// Expected is the outcome a replay must reproduce.
type Expected struct {
	Termination string `json:"termination"` // exit, crash, assert, deadlock, budget...
	Message     string `json:"message,omitempty"`
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
	Stdout      string `json:"stdout"`
	Stderr      string `json:"stderr"`
	// OtherStdout is what the other order printed (output-differs).
	OtherStdout string `json:"other_stdout,omitempty"`
	// Files are the files the two orders of an output-differs race left
	// differently, as this order left them, which a replay must leave so
	// too; OtherFiles are the same files as the other order left them.
	Files      []classify.File `json:"files,omitempty"`
	OtherFiles []classify.File `json:"other_files,omitempty"`
}

// ProgramKey names a program by where its sources are, not by what they
// hold: the same for every version of the program (its evidence files
// replace their older selves), different for another program (whose
// evidence must not replace this one's).
func ProgramKey(files []string) string {
	abs := make([]string, len(files))
	for i, f := range files {
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		abs[i] = f
	}
	sort.Strings(abs)
	h := sha256.Sum256([]byte(strings.Join(abs, "\x00")))
	return hex.EncodeToString(h[:4])
}

// Hash fingerprints the program's sources and the augur that ran them.
func Hash(files []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "augur %s\x00", version.Version)
	sorted := append([]string(nil), files...)
	sort.Strings(sorted)
	for _, f := range sorted {
		data, err := safefile.Read(f, safefile.Rules{Max: safefile.MaxSource})
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", f, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(f), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// KindFailure is Evidence.Kind for the evidence of a failure.
const KindFailure = "failure"

// programOf names the program files by absolute path, with their hash.
func programOf(files []string) (Program, error) {
	abs := make([]string, len(files))
	for i, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return Program{}, err
		}
		abs[i] = a
	}
	hash, err := Hash(abs)
	if err != nil {
		return Program{}, err
	}
	p := Program{Files: abs, Hash: hash}
	if !slices.Equal(files, abs) {
		dir, err := os.Getwd()
		if err != nil {
			return Program{}, err
		}
		p.Named, p.Dir = files, dir
	}
	return p, nil
}

// inputsOf are the inputs of executions run with cfg.
func inputsOf(cfg vm.Config) Inputs {
	in := Inputs{Argv: cfg.Args, Clients: cfg.Clients, Env: cfg.Env, Stdin: string(cfg.Stdin), MaxInstructions: cfg.MaxInstructions,
		Undefined: cfg.Undefined, PreemptAccesses: cfg.PreemptAccesses, Vars: cfg.Inputs}
	if len(cfg.Files) > 0 {
		in.Files = map[string]string{}
		for n, d := range cfg.Files {
			in.Files[n] = string(d)
		}
	}
	return in
}

// FromFailure builds the evidence of a failure detection found, for the
// program files run with cfg: the failing execution's inputs, schedule
// and output.
func FromFailure(f *race.Failure, files []string, cfg vm.Config) (*Evidence, error) {
	if f.Trace == nil {
		return nil, fmt.Errorf("the %s at %s has no schedule to replay", f.Kind, f.Loc)
	}
	prog, err := programOf(files)
	if err != nil {
		return nil, err
	}
	cfg = f.Inputs.Apply(cfg)
	cfg.PreemptAccesses = cfg.PreemptAccesses || f.PreemptAccesses
	ev := &Evidence{Version: 1, Kind: KindFailure, Program: prog, Inputs: inputsOf(cfg),
		Reason: fmt.Sprintf("%s under the schedule %s", f.Kind, f.Schedule), Schedule: f.Trace,
		Expected: Expected{Termination: f.Kind.String(), Message: f.Message, File: f.Loc.File, Line: f.Loc.Line,
			Stdout: f.Stdout, Stderr: f.Stderr}}
	return ev, nil
}

// FromVerdict builds the evidence of race r's spec-violated or
// output-differs verdict for the program files, run with cfg.
func FromVerdict(r *race.Race, v *classify.Verdict, files []string, cfg vm.Config) (*Evidence, error) {
	if v.Trace == nil {
		return nil, fmt.Errorf("verdict %s has no schedule to replay", v.Category)
	}
	prog, err := programOf(files)
	if err != nil {
		return nil, err
	}
	cfg.Inputs = nil // the recorded or witness inputs below say which
	ev := &Evidence{Version: 1, Program: prog, Inputs: inputsOf(cfg),
		Category: string(v.Category), Order: v.Order, Reason: v.Reason, Schedule: v.Trace,
		Actions: v.Actions, Points: v.Points}
	ev.Inputs.PreemptAccesses = ev.Inputs.PreemptAccesses || v.PreemptAccesses
	if v.MemoryModel == memmodel.Weak {
		ev.MemoryModel, ev.WeakReads = memmodel.Weak, v.WeakChoices
	}
	if in := v.Inputs; in != nil { // multipath: the witness input, not the recorded one
		ev.Inputs.Argv = append([]string{cfg.Args[0]}, in.Args...)
		ev.Inputs.Vars = in.Vars
		if cfg.SymStdin > 0 {
			ev.Inputs.Stdin = in.Stdin
		}
		for n, d := range in.Files {
			if ev.Inputs.Files == nil {
				ev.Inputs.Files = map[string]string{}
			}
			ev.Inputs.Files[n] = d
		}
	}
	place := func(e interface{ KindName() string }, fn, file string, line, thread int) AccessPlace {
		return AccessPlace{Function: fn, File: file, Line: line, Thread: thread, Kind: e.KindName()}
	}
	ev.Race = Race{ID: r.ID, Object: r.Object,
		First:  place(r.First, r.First.Function, r.First.Loc.File, r.First.Loc.Line, r.First.Thread),
		Second: place(r.Second, r.Second.Function, r.Second.Loc.File, r.Second.Loc.Line, r.Second.Thread)}
	harmful, other := v.Outputs[1], v.Outputs[0]
	if v.Order == "primary" {
		harmful, other = other, harmful
	}
	ev.Expected = Expected{Termination: "exit", Stdout: harmful.Stdout, Stderr: harmful.Stderr}
	if v.Failure != nil {
		ev.Expected.Termination = v.Failure.Kind.String()
		ev.Expected.Message = v.Failure.Message
		ev.Expected.File, ev.Expected.Line = v.Failure.Loc.File, v.Failure.Loc.Line
	}
	if v.Category == classify.OutputDiffers {
		ev.Expected.OtherStdout = other.Stdout
		ev.Expected.Files, ev.Expected.OtherFiles = harmful.Files, other.Files
	}
	return ev, nil
}

func streams(evs []vm.OutputEvent) (string, string) {
	o, e := vm.Streams(evs)
	return string(o), string(e)
}

// Write saves evidence as JSON.
func (ev *Evidence) Write(path string) error {
	data, err := json.MarshalIndent(ev, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Read loads evidence and checks that the program it names is unchanged.
func Read(path string) (*Evidence, error) {
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxConfig})
	if err != nil {
		return nil, fmt.Errorf("read evidence: %w", err)
	}
	ev, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("read evidence %s: %w", path, err)
	}
	hash, err := Hash(ev.Program.hashed())
	if err != nil {
		return nil, fmt.Errorf("evidence %s: the program it was made for is gone: %w", path, err)
	}
	if hash != ev.Program.Hash {
		return nil, fmt.Errorf("evidence %s was made for another version of %v (or of augur); analyze the program again", path, ev.Program.Files)
	}
	return ev, nil
}

// Decode reads evidence from its JSON form and checks that it is whole:
// every field a replay relies on is there and holds a value augur knows.
// It does not look at the program (Read does).
func Decode(data []byte) (*Evidence, error) {
	var ev Evidence
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, err
	}
	if err := ev.check(); err != nil {
		return nil, err
	}
	return &ev, nil
}

// check validates decoded evidence.
func (ev *Evidence) check() error {
	switch {
	case ev.Version != 1:
		return fmt.Errorf("not augur race evidence (version %d, want 1)", ev.Version)
	case ev.Schedule == nil:
		return fmt.Errorf("no schedule")
	case len(ev.Program.Files) == 0:
		return fmt.Errorf("no program files")
	case len(ev.Inputs.Argv) == 0:
		return fmt.Errorf("no argv (the program's name at least)")
	case ev.Kind != "" && ev.Kind != KindFailure:
		return fmt.Errorf("kind %q: want %q or none (a race's)", ev.Kind, KindFailure)
	case ev.Kind == KindFailure:
		return ev.checkFailure()
	case !category.Named(ev.Category).Harmful:
		return fmt.Errorf("category %q: evidence is for spec-violated and output-differs races", ev.Category)
	case ev.Order != "primary" && ev.Order != "alternate":
		return fmt.Errorf("order %q: want primary or alternate", ev.Order)
	case !sched.KnownPolicy(ev.Schedule.Policy):
		return fmt.Errorf("schedule policy %q is not one augur records", ev.Schedule.Policy)
	case !vm.KnownTermination(ev.Expected.Termination):
		return fmt.Errorf("expected termination %q is not one augur knows", ev.Expected.Termination)
	}
	return ev.checkActions()
}

// checkFailure validates the evidence of a failure: no race, and an
// ending that is a failure.
func (ev *Evidence) checkFailure() error {
	switch {
	case !sched.KnownPolicy(ev.Schedule.Policy):
		return fmt.Errorf("schedule policy %q is not one augur records", ev.Schedule.Policy)
	case !vm.KnownTermination(ev.Expected.Termination) || ev.Expected.Termination == vm.TermExit.String():
		return fmt.Errorf("expected termination %q is not a failure augur knows", ev.Expected.Termination)
	case ev.Category != "" || ev.Order != "" || ev.Race.ID != "":
		return fmt.Errorf("the evidence of a failure names a race (category %q, order %q)", ev.Category, ev.Order)
	case len(ev.Actions) > 0:
		return fmt.Errorf("the evidence of a failure has actions")
	}
	return nil
}

// checkActions validates the actions and racing points of race evidence.
func (ev *Evidence) checkActions() error {
	for i, a := range ev.Actions {
		switch a.Do {
		case "yield", "preempt-accesses", "steady-clock", "grant":
		case "preempt-at":
			if len(a.Locs) == 0 {
				return fmt.Errorf("action %d: preempt-at names no locations", i+1)
			}
		default:
			return fmt.Errorf("action %d: %q: want yield, preempt-accesses, preempt-at, steady-clock or grant", i+1, a.Do)
		}
		if a.At.Thread < 0 {
			return fmt.Errorf("action %d: thread %d", i+1, a.At.Thread)
		}
	}
	for i, p := range ev.Points {
		if p.Thread < 0 {
			return fmt.Errorf("racing access %d: thread %d", i+1, p.Thread)
		}
	}
	return nil
}
