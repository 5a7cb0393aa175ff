// Package workspace decides what the language server analyzes: the
// targets of a workspace (from augur.toml, or one per opened file that
// defines main), their compile flags (from compile_commands.json, found as
// clangd finds it) and the analysis settings (built-in defaults, then the
// client's settings, then augur.toml). It knows nothing of LSP messages.
package workspace

import (
	"fmt"
	"math"
	"strings"
	"time"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/memmodel"
	"augur/analyzer/vm"
	"augur/internal/bytesize"
	"augur/internal/sysmem"
)

// Settings are the analysis options of a target. Their names mirror the
// flags of `augur analyze`.
type Settings struct {
	Mp, Ma          int
	Schedules       int
	Seed            uint64
	MemoryModel     memmodel.Model
	MaxInstructions uint64
	// AutoInstructions makes the budget follow the program
	// (analyzer.Options.AutoInstructions); MaxInstructions is unused then.
	AutoInstructions bool
	Timeout          time.Duration // of the whole analysis of a save, compiling included
	// ExploreTime is how long detection explores schedules after its plan
	// on each save (0: not at all, analyzer.ExploreSetting); the history's
	// seed offset makes every save explore new ones.
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
	// Directed is how many race-directed executions follow the base
	// schedules (0: none); History keeps what earlier saves learned.
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
	// TSanReports are ThreadSanitizer reports (paths or globs, relative
	// to the workspace root) whose races every analysis of the target
	// classifies too.
	TSanReports []string
	// SuggestFixes proposes fixes for harmful races, each verified by
	// analyzing the changed program, after the results are published.
	SuggestFixes bool
}

// Defaults are the built-in settings, those of `augur analyze`.
func Defaults() Settings {
	return Settings{Mp: 5, Ma: 2, Schedules: 5, Directed: 5, History: true, Seed: 1, MemoryModel: memmodel.SC, AutoInstructions: true,
		Timeout: time.Minute, MaxMemory: sysmem.DefaultBudget(), Searcher: "dfs", MaxPaths: 1000, Classifier: "portend", SymInputs: analyzer.SymInputsAuto,
		Debounce: 200 * time.Millisecond, ExploreTime: 100 * time.Millisecond, SuggestFixes: true}
}

// setting is one analysis option: its name in augur.toml (the CLI flag's),
// its name in the client's JSON settings, what it means, and how to set it
// from a decoded value (TOML or JSON).
type setting struct {
	toml, json string
	doc        string
	set        func(s *Settings, v any) error
}

// settingsTable lists every option; augur.toml, the client settings and
// docs/configuration.md all follow it.
var settingsTable = []setting{
	{"mp", "mp", "primary paths explored with symbolic inputs when classifying (the paper's Mp)",
		func(s *Settings, v any) error { return setInt(&s.Mp, v, 1) }},
	{"ma", "ma", "post-race schedules tried per primary when classifying (the paper's Ma)",
		func(s *Settings, v any) error { return setInt(&s.Ma, v, 1) }},
	{"schedules", "schedules", "base executions run by detection: round robin, reversals of its acquisitions and wake-ups, then PCT",
		func(s *Settings, v any) error { return setInt(&s.Schedules, v, 1) }},
	{"directed", "directed", "executions after the base ones: on explored inputs, then race-directed at potential races (0: none)",
		func(s *Settings, v any) error { return setInt(&s.Directed, v, 0) }},
	{"history", "history", "build on what earlier saves of a program learned: new schedules each save, known races kept, k added up",
		func(s *Settings, v any) error { return setBool(&s.History, v) }},
	{"seed", "seed", "seed of the random schedules",
		func(s *Settings, v any) error {
			var n int
			err := setInt(&n, v, 0)
			s.Seed = uint64(n)
			return err
		}},
	{"memory-model", "memoryModel", `"sc" (sequential consistency) or "weak"`,
		func(s *Settings, v any) error {
			var name string
			if err := setChoice(&name, v, "sc", "weak"); err != nil {
				return err
			}
			s.MemoryModel, _ = memmodel.Parse(name)
			return nil
		}},
	{"max-instructions", "maxInstructions", `instruction budget of each execution (0: none), or "auto": the first schedule runs until the time budget (a loop that makes no progress ends as a hang), later executions get 10 times what it ran`,
		func(s *Settings, v any) error {
			if v == "auto" {
				s.MaxInstructions, s.AutoInstructions = 0, true
				return nil
			}
			var n int
			err := setInt(&n, v, 0)
			s.MaxInstructions, s.AutoInstructions = uint64(n), false
			return err
		}},
	{"timeout", "timeout", `wall-time budget of the analysis of a save, compiling included, as "60s" or "2m" (0: none); past it the results found so far are shown`,
		func(s *Settings, v any) error { return setDuration(&s.Timeout, v) }},
	{"explore-time", "exploreTime", `how long each save's analysis keeps exploring new schedules after its planned ones, as "100ms" or "5s" (0: no exploration); later saves explore new ones`,
		func(s *Settings, v any) error { return setDuration(&s.ExploreTime, v) }},
	{"explore-instructions", "exploreInstructions", `instructions the exploration's schedules may run in all (0: no limit), or "auto": ten times what the first schedule ran, at least 1000000000; ending by it, exploration ends at the same schedule on any machine`,
		func(s *Settings, v any) error {
			if v == "auto" {
				s.ExploreInstructions = 0
				return nil
			}
			var n int
			if err := setInt(&n, v, 0); err != nil {
				return err
			}
			s.ExploreInstructions = uint64(n)
			if n == 0 {
				s.ExploreInstructions = analyzer.NoExploreLimit
			}
			return nil
		}},
	{"max-memory", "maxMemory", `memory budget of each execution, with what the analysis keeps for it, as "512MiB" or "4GiB" (0: none), or "auto": half the memory available when the server starts`,
		func(s *Settings, v any) error {
			if v == "auto" {
				s.MaxMemory = sysmem.DefaultBudget()
				return nil
			}
			return setSize(&s.MaxMemory, v)
		}},
	{"preempt-accesses", "preemptAccesses", "also switch threads at shared memory accesses (slower, more interleavings)",
		func(s *Settings, v any) error { return setBool(&s.PreemptAccesses, v) }},
	{"undefined", "undefined", `what a call to a function declared but defined nowhere does: "stop" (the analysis is incomplete there) or "havoc" (it returns an unconstrained value)`,
		func(s *Settings, v any) error {
			var name string
			if err := setChoice(&name, v, "stop", "havoc"); err != nil {
				return err
			}
			s.Undefined, _ = vm.ParseUndefined(name)
			return nil
		}},
	{"sym-arg", "symbolicArgs", "sizes of symbolic command-line arguments, one per argument, e.g. [8, 4]",
		func(s *Settings, v any) error { return setInts(&s.SymArgs, v) }},
	{"sym-stdin", "symbolicStdin", "bytes of symbolic standard input (0: none)",
		func(s *Settings, v any) error { return setInt(&s.SymStdin, v, 0) }},
	{"sym-file", "symbolicFiles", `symbolic files of the virtual file system, as ["NAME:SIZE", ...]`,
		func(s *Settings, v any) error { return setSymFiles(&s.SymFiles, v) }},
	{"sym-inputs", "symbolicInputs", `with no sym-* setting: "auto" makes the arguments given (one short argument when none is) and the first bytes of standard input symbolic around their values, so races and harm that need another input are found; "none" explores only the inputs the program marks itself`,
		func(s *Settings, v any) error {
			return setChoice(&s.SymInputs, v, analyzer.SymInputsAuto, analyzer.SymInputsNone)
		}},
	{"searcher", "searcher", "path search with symbolic inputs: dfs, bfs, random-path or coverage",
		func(s *Settings, v any) error {
			return setChoice(&s.Searcher, v, "dfs", "bfs", "random-path", "coverage")
		}},
	{"max-paths", "maxPaths", "paths explored with symbolic inputs before stopping",
		func(s *Settings, v any) error { return setInt(&s.MaxPaths, v, 1) }},
	{"detect-only", "detectOnly", "detect races without classifying them",
		func(s *Settings, v any) error { return setBool(&s.DetectOnly, v) }},
	{"tsan-report", "tsanReport", `ThreadSanitizer reports (their text output, from CI) whose data races every analysis classifies too, as paths or globs relative to the workspace root, e.g. ["ci/tsan-*.log"]`,
		func(s *Settings, v any) error { return setStrings(&s.TSanReports, v) }},
	{"suggest-fixes", "suggestFixes", "propose fixes for harmful races (take the lock the other access holds, make the variable atomic), each offered only once analyzing the changed program showed the race gone and nothing new",
		func(s *Settings, v any) error { return setBool(&s.SuggestFixes, v) }},
	{"classifier", "classifier", `"portend", or "replay-analyzer" (the PLDI 2007 baseline)`,
		func(s *Settings, v any) error { return setChoice(&s.Classifier, v, "portend", "replay-analyzer") }},
	{"include", "include", "include directories (-I), relative to augur.toml's directory",
		func(s *Settings, v any) error { return setStrings(&s.Include, v) }},
	{"define", "define", `macros (-D), as ["NAME", "NAME=VALUE"]`,
		func(s *Settings, v any) error { return setStrings(&s.Define, v) }},
	{"flags", "flags", "other compiler flags that change how the source is parsed (include paths, macros, -std=, warnings, target features), e.g. [\"-std=c11\"]; others are refused",
		func(s *Settings, v any) error { return setFlags(&s.Flags, v) }},
	{"compile-commands-dir", "compileCommandsDir", "directory of compile_commands.json (default: searched like clangd)",
		func(s *Settings, v any) error { return setString(&s.CompileCommandsDir, v) }},
	{"debounce", "debounce", `wait after a save before analyzing, as "200ms"`,
		func(s *Settings, v any) error { return setDuration(&s.Debounce, v) }},
}

// budgetSettings are the settings (augur.toml names) that raise each
// budget a report names: "instructions", "time", "memory".
var budgetSettings = map[string]string{"instructions": "max-instructions", "time": "timeout", "memory": "max-memory"}

// RaiseHint tells an editor user how to raise a budget: the client
// setting and the augur.toml key, never a command-line flag.
func RaiseHint(budget string) string {
	st := lookup(budgetSettings[budget], false)
	if st == nil {
		return "raise the budget in the settings"
	}
	return fmt.Sprintf("raise augur.%s in the editor's settings (%s in augur.toml)", st.json, st.toml)
}

// lookup finds a setting by its TOML or JSON name.
func lookup(name string, json bool) *setting {
	for i := range settingsTable {
		s := &settingsTable[i]
		if (!json && s.toml == name) || (json && s.json == name) {
			return s
		}
	}
	return nil
}

// ApplyJSON sets the options a client sent (initializationOptions or the
// "augur" section of workspace/didChangeConfiguration), decoded from JSON
// into a map. Unknown keys are returned as warnings, not errors: a newer
// extension may send settings an older server does not know.
func (s *Settings) ApplyJSON(m map[string]any) (warnings []string, err error) {
	if inner, ok := m["augur"].(map[string]any); ok {
		m = inner
	}
	for k, v := range m {
		st := lookup(k, true)
		if st == nil {
			if !clientOnly[k] {
				warnings = append(warnings, fmt.Sprintf("unknown setting augur.%s ignored", k))
			}
			continue
		}
		if v == nil {
			continue
		}
		if err := st.set(s, v); err != nil {
			return warnings, fmt.Errorf("setting augur.%s: %w", k, err)
		}
	}
	return warnings, nil
}

// clientOnly are settings of the VS Code extension itself, sent along with
// the rest, that the server has no use for.
var clientOnly = map[string]bool{"path": true, "arguments": true, "trace": true}

func setInt(dst *int, v any, lo int) error {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) {
			return fmt.Errorf("want an integer, got %v", x)
		}
		n = int64(x)
	default:
		return fmt.Errorf("want an integer, got %v", describe(v))
	}
	if n < int64(lo) {
		return fmt.Errorf("want at least %d, got %d", lo, n)
	}
	*dst = int(n)
	return nil
}

func setBool(dst *bool, v any) error {
	b, ok := v.(bool)
	if !ok {
		return fmt.Errorf("want true or false, got %v", describe(v))
	}
	*dst = b
	return nil
}

func setString(dst *string, v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("want a string, got %v", describe(v))
	}
	*dst = s
	return nil
}

func setChoice(dst *string, v any, choices ...string) error {
	var s string
	if err := setString(&s, v); err != nil {
		return err
	}
	for _, c := range choices {
		if s == c {
			*dst = s
			return nil
		}
	}
	return fmt.Errorf("want one of %s, got %q", strings.Join(choices, ", "), s)
}

func setDuration(dst *time.Duration, v any) error {
	switch x := v.(type) {
	case string:
		d, err := time.ParseDuration(x)
		if err != nil {
			return fmt.Errorf("want a duration such as \"30s\", got %q", x)
		}
		*dst = d
		return nil
	case int64:
		if x == 0 {
			*dst = 0
			return nil
		}
	case float64:
		if x == 0 {
			*dst = 0
			return nil
		}
	}
	return fmt.Errorf("want a duration such as \"30s\", got %v", describe(v))
}

func setSize(dst *uint64, v any) error {
	switch x := v.(type) {
	case string:
		n, err := bytesize.Parse(x)
		if err != nil {
			return err
		}
		*dst = n
		return nil
	case int64, float64:
		var n int
		if err := setInt(&n, v, 0); err != nil {
			return err
		}
		*dst = uint64(n)
		return nil
	}
	return fmt.Errorf("want a size such as \"4GiB\", got %v", describe(v))
}

// setFlags sets compiler flags, refusing any that does more than change
// how the source is parsed (see build.CheckFlags): a workspace must not be
// able to make clang load a plugin or write a file.
func setFlags(dst *[]string, v any) error {
	var flags []string
	if err := setStrings(&flags, v); err != nil {
		return err
	}
	if err := build.CheckFlags(flags); err != nil {
		return fmt.Errorf("flag %d refused: %w", err.(*build.FlagError).Index+1, err)
	}
	*dst = flags
	return nil
}

func setStrings(dst *[]string, v any) error {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("want an array of strings, got %v", describe(v))
	}
	out := make([]string, len(arr))
	for i, x := range arr {
		if err := setString(&out[i], x); err != nil {
			return fmt.Errorf("element %d: %w", i+1, err)
		}
	}
	*dst = out
	return nil
}

func setInts(dst *[]int, v any) error {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("want an array of integers, got %v", describe(v))
	}
	out := make([]int, len(arr))
	for i, x := range arr {
		if err := setInt(&out[i], x, 1); err != nil {
			return fmt.Errorf("element %d: %w", i+1, err)
		}
	}
	*dst = out
	return nil
}

func setSymFiles(dst *map[string]int, v any) error {
	var specs []string
	if err := setStrings(&specs, v); err != nil {
		return err
	}
	out := map[string]int{}
	for _, spec := range specs {
		name, size, ok := strings.Cut(spec, ":")
		var n int
		if _, err := fmt.Sscanf(size, "%d", &n); !ok || err != nil || n <= 0 || name == "" {
			return fmt.Errorf("want \"NAME:SIZE\", got %q", spec)
		}
		out[name] = n
	}
	*dst = out
	return nil
}

// describe names a decoded value's type for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}
