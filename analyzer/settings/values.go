// Package settings is the one table of augur's analysis settings
// (table.go): each setting's name (the augur.toml key, which is also the
// `augur analyze` flag), its client setting name, its type, its defaults,
// its documentation and how a value is checked and set. The command line's
// flags (flags.go), augur.toml's keys and the language server's client
// settings (lsp/workspace) and the settings table of docs/configuration.md
// (markdown.go) are all made from it, and Values give analyzer.Options in
// one place (Options), so no front end maps a setting on its own.
package settings

import (
	"time"

	"augur/analyzer"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
)

// Values are the settings of one analysis, one field per setting of the
// table.
type Values struct {
	Mp, Ma          int
	Schedules       int
	Seed            uint64
	MemoryModel     memmodel.Model
	MaxInstructions uint64
	// AutoInstructions makes the budget follow the program
	// (analyzer.Options.AutoInstructions); MaxInstructions is unused then.
	AutoInstructions bool
	// Timeout is the wall-time budget of the whole analysis, compiling
	// included.
	Timeout time.Duration
	// ExploreTime is how long detection explores schedules after its plan
	// (0: not at all; analyzer.ExploreAuto: no time of its own).
	ExploreTime time.Duration
	// ExploreInstructions bounds what the exploration's schedules run in
	// all (analyzer.Options.ExploreInstructions: 0 follows the program).
	ExploreInstructions uint64
	MaxMemory           uint64 // of each execution, with what the analysis keeps for it
	PreemptAccesses     bool
	Undefined           vm.UndefinedPolicy // calls to declared but undefined functions
	SymArgs             []int
	SymStdin            int
	SymFiles            map[string]int
	// SymInputs is what is symbolic when no sym-* setting names an input
	// (analyzer.Options.SymInputs): "auto" or "none".
	SymInputs  string
	Searcher   string
	MaxPaths   int
	DetectOnly bool
	// Directed is how many executions follow the base schedules (0:
	// none); History keeps what earlier saves learned (the editor's).
	Directed   int
	History    bool
	Classifier string
	Include    []string // -I directories
	Define     []string // -D macros
	Flags      []string // any other compiler flags
	// CompileCommandsDir is where compile_commands.json is; empty: search
	// from each source's directory upwards, as clangd does.
	CompileCommandsDir string
	// Debounce is how long the server waits after a save for another
	// before it starts the analysis.
	Debounce time.Duration
	// TSanReports are ThreadSanitizer reports (paths, or globs in the
	// editor) whose races every analysis classifies too.
	TSanReports []string
	// SuggestFixes proposes fixes for harmful races, each verified by
	// analyzing the changed program.
	SuggestFixes bool
}

// Defaults are the built-in settings of a front end: every setting's
// default there (Setting.Default, or EditorDefault in the editor).
func Defaults(f Front) Values {
	var v Values
	for i := range Table {
		s := &Table[i]
		if err := s.set(&v, s.defaultFor(f)); err != nil {
			panic("settings: the default of " + s.Key + " is refused: " + err.Error())
		}
	}
	return v
}

// Run sets what an execution takes from the settings in cfg: the seed,
// the instruction and memory budgets, preemption at accesses and what an
// undefined call does.
func (v Values) Run(cfg *vm.Config) {
	cfg.Seed = v.Seed
	cfg.MaxInstructions = v.MaxInstructions
	if v.AutoInstructions {
		cfg.MaxInstructions = analyzer.AutoExploreInstructions
	}
	cfg.Limits.MaxMemory = v.MaxMemory
	cfg.PreemptAccesses = v.PreemptAccesses
	cfg.Undefined = v.Undefined
}

// Options are the analysis options of the settings, for a program run as
// run says (Run is applied to it): the caller adds what the settings do
// not hold (sources, build, evidence directory, history file, farm).
func (v Values) Options(run vm.Config) analyzer.Options {
	v.Run(&run)
	o := analyzer.Options{Run: run, AutoInstructions: v.AutoInstructions, Schedules: v.Schedules, Seed: v.Seed,
		DetectOnly: v.DetectOnly, Classifier: v.Classifier, MemoryModel: v.MemoryModel, Ma: v.Ma, Mp: v.Mp,
		SymArgs: v.SymArgs, SymStdin: v.SymStdin, SymFiles: v.SymFiles, SymInputs: v.SymInputs,
		Searcher: v.Searcher, MaxPaths: v.MaxPaths, Timeout: v.Timeout, Directed: v.Directed,
		ExploreTime: analyzer.ExploreSetting(v.ExploreTime), ExploreInstructions: v.ExploreInstructions}
	if v.Directed == 0 {
		o.Directed = -1 // the setting's 0 is none; the analyzer's is its default
	}
	if len(o.SymFiles) == 0 {
		o.SymFiles = nil
	}
	return o
}
