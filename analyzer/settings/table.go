package settings

import "augur/analyzer"

// Table is every analysis setting, in the order docs/configuration.md
// lists them. Doc is Markdown (the command line's help is its plain
// text); Type says what a value is, as the docs say it.
var Table = []Setting{
	{
		Key: "mp", Client: "mp", Type: `integer ≥ 1`, Fronts: Both, kind: kindInt,
		Default: int64(5),
		Doc:     `primary paths explored with symbolic inputs when classifying (the paper's Mp)`,
		set:     func(v *Values, x any) error { return setInt(&v.Mp, x, 1) },
	},
	{
		Key: "ma", Client: "ma", Type: `integer ≥ 1`, Fronts: Both, kind: kindInt,
		Default: int64(2),
		Doc:     `post-race schedules tried per primary (the paper's Ma)`,
		set:     func(v *Values, x any) error { return setInt(&v.Ma, x, 1) },
	},
	{
		Key: "schedules", Client: "schedules", Type: `integer ≥ 1`, Fronts: Both, kind: kindInt,
		Default: int64(5),
		Doc:     `base executions run by detection: round robin, reversals of its acquisitions and wake-ups, then PCT ([detection.md](detection.md))`,
		set:     func(v *Values, x any) error { return setInt(&v.Schedules, x, 1) },
	},
	{
		Key: "directed", Client: "directed", Type: `integer ≥ 0`, Fronts: Both, kind: kindInt,
		Default: int64(5),
		Doc:     `race-directed executions after the base plans, at potential races the detector saw ordered only by chance, for the analysis's own inputs and each explored input the plans ran on in full (one that ran out of its budget or kept one thread adds none); 0: none`,
		set:     func(v *Values, x any) error { return setInt(&v.Directed, x, 0) },
	},
	{
		Key: "history", Client: "history", Type: `boolean`, Fronts: Editor, kind: kindBool,
		Default: true,
		Doc:     `build on what earlier saves of the program learned: each save tries new schedules, races found before stay known (and are aimed at first after an edit elsewhere) until a function that holds them changes, and a harmless verdict's k adds up across saves ([detection.md](detection.md))`,
		set:     func(v *Values, x any) error { return setBool(&v.History, x) },
	},
	{
		Key: "seed", Client: "seed", Type: `integer`, Fronts: Both, kind: kindInt,
		Default: int64(1),
		Doc:     `seed of the random schedules; the same seed gives the same results`,
		set:     func(v *Values, x any) error { return setUint(&v.Seed, x) },
	},
	{
		Key: "memory-model", Client: "memoryModel", Type: "`\"sc\"` or `\"weak\"`", Fronts: Both, kind: kindChoice,
		Default: "sc",
		Doc:     `memory model of the classification: sequential consistency, or Portend+'s weak ordering ([weak-memory.md](weak-memory.md))`,
		set:     func(v *Values, x any) error { return setMemoryModel(v, x) },
	},
	{
		Key: "max-instructions", Client: "maxInstructions", Type: "integer or `\"auto\"`", Fronts: Both, kind: kindCount,
		Default: "auto",
		Doc:     "instruction budget of each execution (0: none); `\"auto\"`: the first schedule runs until the time budget, later executions get 10 times what it ran. Running out leaves the analysis incomplete, with a warning where it stopped; a hang is reported only for a loop proven endless ([budgets.md](budgets.md))",
		set:     func(v *Values, x any) error { return setMaxInstructions(v, x) },
	},
	{
		Key: "timeout", Client: "timeout", Type: `duration`, Fronts: Both, kind: kindDuration,
		Default: "10m", EditorDefault: "1m",
		Doc: "wall-time budget of the command (in the editor, of the analysis of a save), compiling included (`\"0\"`: none); when it runs out the results found so far stay, and the analysis says it is incomplete (in the editor, with a warning on the target's first line)",
		set: func(v *Values, x any) error { return setDuration(&v.Timeout, x) },
	},
	{
		Key: "explore-time", Client: "exploreTime", Type: "duration or `\"auto\"`", Fronts: Both, kind: kindDuration,
		Default: "auto", EditorDefault: "100ms",
		Doc: "how long each analysis keeps exploring new thread schedules after its planned ones: PCT schedules that switch threads at the accesses of the races found, stopping sooner once they find nothing new (`\"0\"`: none); `\"auto\"`: no time of its own, so `explore-instructions` and the schedule counts end it at the same schedule on any machine, within `timeout`; a time ends it wherever the machine got to. In the editor every save explores new ones",
		set: setExploreTime,
	},
	{
		Key: "explore-instructions", Client: "exploreInstructions", Type: "integer or `\"auto\"`", Fronts: Both, kind: kindCount,
		Default: "auto",
		Doc:     "instructions each stage of detection after the plan may run in all, each execution counted from the program's start (0: no limit): the plans on explored inputs and the race-directed runs (on executions that find no new race or failure), and the exploration of schedules; `\"auto\"`: each has as many as the first schedule ran, and at least 250,000,000 when that was 1,000,000 or fewer, a floor that falls to one run at 50,000,000 (a long program, which has none). A stage that reaches it ends at the same execution on any machine; whichever of it and `explore-time` comes first ends the exploration",
		set:     func(v *Values, x any) error { return setExploreInstructions(v, x) },
	},
	{
		Key: "max-memory", Client: "maxMemory", Type: "size or `\"auto\"`", Fronts: Both, kind: kindSize,
		Default: "auto",
		Doc:     "memory budget of each execution, with what the analysis keeps for it (schedule trace, race detector shadow, weak-memory histories), and of clang; written `\"512MiB\"`, `\"4GiB\"` or as a number of bytes (0: none); `\"auto\"`: half the memory available when augur starts (MemAvailable, or the cgroup's limit less its usage), between 512 MiB and 8 GiB. A program that exhausts it is stopped, with a warning at the allocation, and the analysis is incomplete",
		set:     func(v *Values, x any) error { return setMaxMemory(v, x) },
	},
	{
		Key: "preempt-accesses", Client: "preemptAccesses", Type: `boolean`, Fronts: Both, kind: kindBool,
		Default: false,
		Doc:     `also switch threads at shared memory accesses (slower, more interleavings)`,
		set:     func(v *Values, x any) error { return setBool(&v.PreemptAccesses, x) },
	},
	{
		Key: "undefined", Client: "undefined", Type: "`\"stop\"` or `\"havoc\"`", Fronts: Both, kind: kindChoice,
		Default: "stop",
		Doc:     "what a call to a function the program declares but defines nowhere (and augur does not model) does: `\"stop\"` ends that execution there, with a warning at the call saying the analysis is incomplete; `\"havoc\"` lets the call return an unconstrained value (symbolic when inputs are explored, 0 or its recorded value otherwise; a pointer result points to fresh zeroed memory) and leaves the memory of its pointer arguments unchanged. The report lists the functions treated so (`havoc`)",
		set:     func(v *Values, x any) error { return setUndefined(v, x) },
	},
	{
		Key: "sym-arg", Client: "symbolicArgs", Type: `array of integers`, Fronts: Both, kind: kindInts,
		Default: []any{},
		Doc:     "one symbolic argument per entry, of up to that many bytes; `args` seed them",
		set:     func(v *Values, x any) error { return setInts(&v.SymArgs, x) },
	},
	{
		Key: "sym-stdin", Client: "symbolicStdin", Type: `integer`, Fronts: Both, kind: kindInt,
		Default: int64(0),
		Doc:     `bytes of symbolic standard input`,
		set:     func(v *Values, x any) error { return setInt(&v.SymStdin, x, 0) },
	},
	{
		Key: "sym-file", Client: "symbolicFiles", Type: "array of `\"NAME:SIZE\"`", Fronts: Both, kind: kindStrings,
		Default: []any{},
		Doc:     `symbolic files of the virtual file system, each NAME:SIZE`,
		set:     func(v *Values, x any) error { return setSymFiles(&v.SymFiles, x) },
	},
	{
		Key: "sym-inputs", Client: "symbolicInputs", Type: "`\"auto\"` or `\"none\"`", Fronts: Both, kind: kindChoice,
		Default: "auto",
		Doc:     "what is symbolic when no `sym-*` setting names an input: `\"auto\"` makes the first 8 bytes of each argument given and of standard input symbolic around their values (the rest of a longer input stays as given), one 2-byte argument for a program given none whose `main` takes `argc`, and 8 bytes of standard input for a program given none that reads it to its end; every path of that exploration is run under the detector, and each race is classified on the input paths it has ([detection.md](detection.md), [categories.md](categories.md)); `\"none\"` explores only what the program marks itself (`augur_make_symbolic`, `__VERIFIER_nondet_*`)",
		set: func(v *Values, x any) error {
			return setChoice(&v.SymInputs, x, analyzer.SymInputsAuto, analyzer.SymInputsNone)
		},
	},
	{
		Key: "searcher", Client: "searcher", Type: `string`, Fronts: Both, kind: kindChoice,
		Default: "dfs",
		Doc:     "path search with symbolic inputs: `dfs`, `bfs`, `random-path` or `coverage`",
		set: func(v *Values, x any) error {
			return setChoice(&v.Searcher, x, "dfs", "bfs", "random-path", "coverage")
		},
	},
	{
		Key: "max-paths", Client: "maxPaths", Type: `integer ≥ 1`, Fronts: Both, kind: kindInt,
		Default: int64(1000),
		Doc:     "paths explored with symbolic inputs before stopping (with `sym-inputs` `\"auto\"` and no `sym-*` setting, at most 32 from each root)",
		set:     func(v *Values, x any) error { return setInt(&v.MaxPaths, x, 1) },
	},
	{
		Key: "detect-only", Client: "detectOnly", Type: `boolean`, Fronts: Both, kind: kindBool,
		Default: false,
		Doc:     `report races without classifying them`,
		set:     func(v *Values, x any) error { return setBool(&v.DetectOnly, x) },
	},
	{
		Key: "suggest-fixes", Client: "suggestFixes", Type: `boolean`, Fronts: Both, kind: kindBool,
		Default: false, EditorDefault: true,
		Doc: "after each analysis, propose fixes for harmful races (hold the mutex the other access holds; make a global scalar `_Atomic`) and verify each by analyzing the changed program with the same settings: a fix is offered as a quick fix only when its race is gone, no new race, failure, deadlock or lock-order inversion appears, and the program prints the same in every schedule tried ([fixes.md](fixes.md)). Costs one analysis per proposed fix",
		set: func(v *Values, x any) error { return setBool(&v.SuggestFixes, x) },
	},
	{
		Key: "tsan-report", Client: "tsanReport", Type: `array of paths or globs`, Fronts: Both, kind: kindStrings,
		Default: []any{},
		Doc:     "ThreadSanitizer reports (their text output, from a CI run of the same sources) whose data races every analysis of the target classifies too, relative to the workspace root (`augur.toml`'s directory; on the command line, paths, `-` for standard input), e.g. `[\"ci/tsan-*.log\"]`; the hover of such a race names the warning, and a warning not reproduced is listed in the JSON report with why ([detection.md](detection.md)). A pattern that matches nothing is no error; a file that is no ThreadSanitizer report is",
		set:     func(v *Values, x any) error { return setStrings(&v.TSanReports, x) },
	},
	{
		Key: "classifier", Client: "classifier", Type: `string`, Fronts: Both, kind: kindChoice,
		Default: "portend",
		Doc:     "`portend`, or `replay-analyzer` (the PLDI 2007 baseline)",
		set:     func(v *Values, x any) error { return setChoice(&v.Classifier, x, "portend", "replay-analyzer") },
	},
	{
		Key: "include", Client: "include", Type: `array of paths`, Fronts: Editor, kind: kindStrings,
		Default: []any{},
		Doc:     "include directories (`-I`), relative to `augur.toml`",
		set:     func(v *Values, x any) error { return setStrings(&v.Include, x) },
	},
	{
		Key: "define", Client: "define", Type: `array of strings`, Fronts: Editor, kind: kindStrings,
		Default: []any{},
		Doc:     "macros (`-D`), as `NAME` or `NAME=VALUE`",
		set:     func(v *Values, x any) error { return setStrings(&v.Define, x) },
	},
	{
		Key: "flags", Client: "flags", Type: `array of strings`, Fronts: Editor, kind: kindStrings,
		Default: []any{},
		Doc:     "other compiler flags, such as `-std=c11`",
		set:     func(v *Values, x any) error { return setFlags(&v.Flags, x) },
	},
	{
		Key: "compile-commands-dir", Client: "compileCommandsDir", Type: `path`, Fronts: Editor, kind: kindString,
		Default: "",
		Doc:     "directory holding `compile_commands.json` (`\"\"`: searched for as clangd searches, from each source's directory up)",
		set:     func(v *Values, x any) error { return setString(&v.CompileCommandsDir, x) },
	},
	{
		Key: "debounce", Client: "debounce", Type: `duration`, Fronts: Editor, kind: kindDuration,
		Default: "200ms",
		Doc:     `how long the server waits after a save for another before it analyzes`,
		set:     func(v *Values, x any) error { return setDuration(&v.Debounce, x) },
	},
}
