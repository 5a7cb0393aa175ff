// Package report renders analysis results: a sanitizer-like text report,
// the JSON report of design.md (version 1), and SARIF 2.1.0 for code
// scanning. It depends on the analysis packages, never the other way round.
package report

import (
	"fmt"
	"sort"
	"strings"

	"augur/analyzer/frontend/build"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/resolve"
	"augur/analyzer/judge/category"
)

// Report is the JSON report, version 1.
type Report struct {
	Version int `json:"version"`
	// MemoryModel is the model races were classified under: "sc" or "weak".
	MemoryModel memmodel.Model `json:"memory_model"`
	Races       []Race         `json:"races"`
	Failures    []Failure      `json:"failures"`
	Inversions  []Inversion    `json:"lock_order_inversions"`
	Stats       Stats          `json:"stats"`
	// Stopped is set when the analysis ran out of its time budget before
	// it was done: everything above is what it found until then.
	Stopped *Stopped `json:"stopped,omitempty"`
	// Incomplete lists what kept the analysis from seeing the whole
	// program (see Gap); absent when it saw all of it.
	Incomplete []Gap `json:"incomplete,omitempty"`
	// Havoc lists the undefined functions whose calls returned
	// unconstrained values (--undefined=havoc).
	Havoc []string `json:"havoc,omitempty"`
	// FilesNotGiven are files the program looked for and ran without,
	// which exist on the host where augur ran (analyzer.HostFiles).
	FilesNotGiven []FileNotGiven `json:"files_not_given,omitempty"`
	// Error is set when there is no analysis at all: the program did not
	// compile, or could not be loaded. The lists above are then empty.
	Error *Error `json:"error,omitempty"`
	// TSanUnreproduced are the ThreadSanitizer warnings (--tsan-report)
	// no race of the report stands for, with why.
	TSanUnreproduced []TSanMiss `json:"tsan_unreproduced,omitempty"`
	// SourcesTaken are the project's files augur compiled in beside the
	// ones given because they define what those use (analyzer/frontend/resolve);
	// SourcesNotTaken those that define something the program needs but
	// could not be taken, with why.
	SourcesTaken    []resolve.Taken   `json:"sources_taken,omitempty"`
	SourcesNotTaken []resolve.Skipped `json:"sources_not_taken,omitempty"`

	// byID indexes Races by id while FromResult fills them in (each), so
	// building a report is linear in its races: the language server
	// builds one after every verdict. nil otherwise.
	byID map[string][]int
}

// FileNotGiven is a file the program looked for that augur was not given
// (--file, augur.toml's files) and that exists on the host: Name is what
// to give, Host the file found, File and Line where the program first
// looked for it.
type FileNotGiven struct {
	Name string `json:"name"`
	Host string `json:"host"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// SetSources records how the program was completed from its project's
// files: what was taken, and what defines a name the program needs but
// was left out, which an unsupported call to that name then names.
func (r *Report) SetSources(res *resolve.Result, base string) {
	if res == nil {
		return
	}
	for _, t := range res.Taken {
		r.SourcesTaken = append(r.SourcesTaken, resolve.Taken{File: ir.RelPath(t.File, base), Symbol: t.Symbol,
			NeededBy: ir.RelPath(t.NeededBy, base)})
	}
	for _, s := range res.Skipped {
		s.File = ir.RelPath(s.File, base)
		r.SourcesNotTaken = append(r.SourcesNotTaken, s)
	}
	for i, g := range r.Incomplete {
		if s, ok := res.SkippedFor(g.Function); ok && g.Kind == GapUnsupported {
			r.Incomplete[i].DefinedIn, r.Incomplete[i].NotTaken = ir.RelPath(s.File, base), s.Why
		}
	}
}

// Error says why a program was not analyzed.
type Error struct {
	// Stage is "compile" (the compiler refused a source; Diagnostics
	// holds its messages) or "load" (anything else before the analysis:
	// a missing or special file, a budget spent while compiling).
	Stage       string             `json:"stage"`
	Message     string             `json:"message"`
	Diagnostics []build.Diagnostic `json:"diagnostics,omitempty"`
}

// Failed is the report of an analysis that could not start: no races,
// failures or inversions, and the error.
func Failed(e *Error) *Report {
	return &Report{Version: 1, Races: []Race{}, Failures: []Failure{}, Inversions: []Inversion{}, Error: e}
}

// Stopped says how a budget cut the analysis short.
type Stopped struct {
	Budget  string `json:"budget"` // "time" (or "memory"); empty when a failure stopped it
	Message string `json:"message"`
	// Stage is what the analysis was doing: detecting, classifying or
	// exploring; Done of Total schedules ran, or races were classified.
	Stage string `json:"stage"`
	Done  int    `json:"done,omitempty"`
	Total int    `json:"total,omitempty"`
}

// Race is one distinct race.
type Race struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	K        int    `json:"k"`
	// Object names the racing memory as the source does at an access
	// (`pool->queue.len`), or describes it where no source text names
	// it; Memory, when it says more, describes it as the machine saw it:
	// an allocated object's site and size and the offset in it.
	Object      string   `json:"object"`
	Memory      string   `json:"memory,omitempty"`
	Instances   int      `json:"instances"`
	Consequence string   `json:"consequence"`
	Accesses    []Access `json:"accesses"`
	Evidence    string   `json:"evidence,omitempty"`
	Stage       string   `json:"stage,omitempty"`  // which classification stage decided
	Reason      string   `json:"reason,omitempty"` // how the verdict was reached
	// Schedule is the interleaving that showed the verdict, in one line;
	// Inputs are the inputs of that execution (harmful races).
	Schedule string  `json:"schedule,omitempty"`
	Inputs   *Inputs `json:"inputs,omitempty"`
	// Outputs are the distinct standard outputs the executions explored
	// while classifying printed (at most MaxOutputs), sorted.
	Outputs []string `json:"outputs,omitempty"`
	// FilesDiffer are the files the two orders of an output-differs race
	// left differently, each as both orders left it: a race whose
	// consequence is in what the program wrote rather than printed.
	FilesDiffer []FileDifference `json:"files_differ,omitempty"`
	// PrintedSame is set when the two orders of an output-differs race
	// printed the same: they differ only in FilesDiffer.
	PrintedSame bool `json:"printed_same,omitempty"`
	// WeakReads are the reads of the harmful execution that returned an
	// older value than the latest store (weak memory model only).
	WeakReads []WeakRead `json:"weak_reads,omitempty"`
	// FoundBy is the detection technique that found the race first
	// (round-robin, sync-reversal, pct, inputs, race-directed, history).
	FoundBy string `json:"found_by,omitempty"`
	// Allocated is where the racing heap or stack object was allocated.
	Allocated *Frame `json:"allocated,omitempty"`
	// HarmfulOrder lists the accesses (indices into Accesses) in the order
	// that showed the harm: the order that fails for spec-violated, the
	// order of the evidence for output-differs.
	HarmfulOrder []int `json:"harmful_order,omitempty"`
	// Failure is where the harmful order of a spec-violated race failed,
	// with the stack, and for a use after free or a double free where the
	// memory was freed.
	Failure *RaceFailure `json:"failure,omitempty"`
	// TSan is the 1-based index of the ThreadSanitizer warning that
	// reported the race (--tsan-report), or a list of them when several
	// did: an int or a []int.
	TSan any `json:"tsan,omitempty"`
	// Pattern is the benign pattern a harmless or single-ordering race
	// follows, with the evidence for it (none when nothing shows one).
	Pattern *Pattern `json:"pattern,omitempty"`
	// Fixes are the fixes augur proposed and checked by analyzing the
	// changed program (--suggest-fixes): verified ones first.
	Fixes []Fix `json:"fixes,omitempty"`
	// ClassifySeconds is how long classifying this race took (wall time
	// of its job, where it ran); absent when it was not classified.
	ClassifySeconds float64 `json:"classify_seconds,omitempty"`
}

// Pattern names a benign race pattern: redundant-write, disjoint-bits,
// statistics-counter, double-checked-initialization or
// ad-hoc-synchronization.
type Pattern struct {
	Name     string `json:"name"`
	Evidence string `json:"evidence"`
}

// Fix is a proposed change to the sources that removes a race.
type Fix struct {
	Kind  string `json:"kind"` // lock or atomic
	Title string `json:"title"`
	// Verified is set when the changed program was analyzed with the
	// same settings and the race was gone, nothing new appeared and its
	// output stayed one the original printed; Checked says what ran.
	Verified bool   `json:"verified"`
	Checked  string `json:"checked"`
	// Diff is the change as a unified diff that patch -p0 applies in the
	// directory augur ran in; Edits are the same change as line
	// replacements, for editors.
	Diff  string    `json:"diff"`
	Edits []FixEdit `json:"edits"`
}

// FixEdit replaces the lines Old of File, from Line (1-based), with
// Insert (whole lines, each ending in a newline). An editor applies it
// only where the lines are still Old.
type FixEdit struct {
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Old    []string `json:"old"`
	Insert string   `json:"insert"`
}

// TSanMiss is a ThreadSanitizer warning augur did not reproduce, with
// why; Warnings lists the warnings of the same pair of statements.
type TSanMiss struct {
	Warnings []int  `json:"tsan"`
	First    string `json:"first"`
	Second   string `json:"second"`
	Reason   string `json:"reason"`
}

// SetTSan records the ThreadSanitizer warnings that reported race id.
func (r *Report) SetTSan(id string, warnings []int) {
	if len(warnings) == 0 {
		return
	}
	r.each(id, func(x *Race) {
		if len(warnings) == 1 {
			x.TSan = warnings[0]
		} else {
			x.TSan = warnings
		}
	})
}

// each calls f with every race of the report with this id.
func (r *Report) each(id string, f func(*Race)) {
	if r.byID != nil {
		for _, i := range r.byID[id] {
			f(&r.Races[i])
		}
		return
	}
	for i := range r.Races {
		if r.Races[i].ID == id {
			f(&r.Races[i])
		}
	}
}

// TSanWarnings returns the warnings of a race's TSan field.
func (x *Race) TSanWarnings() []int {
	switch v := x.TSan.(type) {
	case int:
		return []int{v}
	case []int:
		return v
	}
	return nil
}

// RaceFailure is where a spec-violated race's failing execution ended.
type RaceFailure struct {
	Kind    string  `json:"kind"`
	Message string  `json:"message"`
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Column  int     `json:"column,omitempty"`
	Thread  int     `json:"thread"`
	Stack   []Frame `json:"stack,omitempty"`
	Freed   *Frame  `json:"freed,omitempty"`
}

// FileDifference is a file the two orders of a race left differently.
// Harmful is the file as the order of the evidence (HarmfulOrder) left
// it, Other as the other order did.
type FileDifference struct {
	Name    string      `json:"name"`
	Harmful FileVersion `json:"harmful"`
	Other   FileVersion `json:"other"`
}

// FileVersion is a file as one order left it: its size and its first
// 16 KiB, or that the order removed it or left it as given (or did not
// make it).
type FileVersion struct {
	Untouched bool   `json:"untouched,omitempty"`
	Removed   bool   `json:"removed,omitempty"`
	Size      uint64 `json:"size"`
	Contents  string `json:"contents,omitempty"`
}

// describe says a file version in a few words: its size and first line,
// or what the order did instead.
func (v FileVersion) describe() string {
	switch {
	case v.Untouched:
		return "as given (or not made)"
	case v.Removed:
		return "removed"
	}
	line, rest, _ := strings.Cut(v.Contents, "\n")
	if rest != "" || uint64(len(v.Contents)) < v.Size {
		line += "…"
	}
	return fmt.Sprintf("%d bytes, %q", v.Size, line)
}

// MaxOutputs bounds the outputs a race lists.
const MaxOutputs = 32

// WeakRead is a read that returned an older value than the latest store.
type WeakRead struct {
	Thread int    `json:"thread"`
	Object string `json:"object"`
	At     string `json:"at"`
	Value  uint64 `json:"value"`
	// WrittenAt is where the value read was stored ("" for the initial
	// value); Missed where the newer stores it did not see were.
	WrittenAt string   `json:"written_at,omitempty"`
	Missed    []string `json:"missed"`
}

// Access is one endpoint of a race.
type Access struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Kind   string `json:"kind"`
	Size   uint64 `json:"size,omitempty"`
	Thread int    `json:"thread"`
	// ThreadStart names the thread: the function it was started in (main
	// for the main thread), the outermost of the program's own on the
	// access's stack (a std::thread's lambda or function, not libstdc++'s
	// code that calls it).
	ThreadStart string  `json:"thread_start,omitempty"`
	Function    string  `json:"function"`
	Stack       []Frame `json:"stack"`
	// Call is the synchronization call whose access this is, for a use or
	// a destroy of a synchronization object (race.Endpoint.Call): Kind
	// is then what the detector counted it as.
	Call string `json:"call,omitempty"`
}

// Noun names what the access did: its call, for a synchronization
// call's ("pthread_cond_destroy"), else its kind ("write").
func (a Access) Noun() string {
	if a.Call != "" {
		return a.Call
	}
	return a.Kind
}

// Verb names what the access did as a verb: "calls pthread_cond_destroy"
// or "writes".
func (a Access) Verb() string {
	if a.Call != "" {
		return "calls " + a.Call
	}
	return vm.Verb(a.Kind)
}

// DestroyNote is what a harmless verdict leaves unsaid when one of a
// race's accesses is a synchronization object's destroy (calls are the
// accesses' Call): the two orders behaved alike with glibc's destroy, as
// augur models it (libc.md), but POSIX leaves a use of an object that may
// already be destroyed undefined, and another C library's destroy may
// not be as forgiving. "" for other races. It begins with a space, to
// follow a sentence.
func DestroyNote(calls ...string) string {
	for _, c := range calls {
		if strings.HasSuffix(c, "_destroy") {
			return fmt.Sprintf(" Still, POSIX leaves a use of the object after %s undefined:"+
				" both orders behaved alike with glibc, but another C library need not.", c)
		}
	}
	return ""
}

// ThreadName is "thread 2 (worker)", or "thread 2" when the thread's start
// is not known.
func (a Access) ThreadName() string {
	if a.ThreadStart == "" {
		return fmt.Sprintf("thread %d", a.Thread)
	}
	return fmt.Sprintf("thread %d (%s)", a.Thread, a.ThreadStart)
}

// Frame is one stack frame.
type Frame struct {
	Function string `json:"function,omitempty"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column,omitempty"`
}

// Failure is an execution that did not end normally.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Budget is the budget an execution ran out of: "instructions" (kind
	// hang: the program may loop forever) or "memory" (kind budget).
	Budget   string             `json:"budget,omitempty"`
	File     string             `json:"file"`
	Line     int                `json:"line"`
	Thread   int                `json:"thread"`
	Stack    []Frame            `json:"stack,omitempty"`
	Threads  map[string][]Frame `json:"threads,omitempty"`
	Schedule string             `json:"schedule"`
	Inputs   Inputs             `json:"inputs"`
	Evidence string             `json:"evidence,omitempty"`
}

// Inputs are the program inputs of a failure: its arguments and, for
// failures found with symbolic inputs, the value of every input variable
// (augur run --inputs replays them).
type Inputs struct {
	Args  []string          `json:"args"`
	Stdin string            `json:"stdin,omitempty"`
	Files map[string]string `json:"files,omitempty"`
	Vars  map[string]uint64 `json:"vars,omitempty"`
}

// Inversion is a potential deadlock from opposite lock orders.
type Inversion struct {
	ID     string   `json:"id"`
	Locks  []string `json:"locks"`
	First  []Access `json:"first"`
	Second []Access `json:"second"`
}

// Stats describe the work done.
type Stats struct {
	Instructions uint64 `json:"instructions"`
	// FirstInstructions is what the first schedule ran, and
	// InstructionBudget the budget every later execution had, when the
	// budget followed the program (--max-instructions auto).
	FirstInstructions uint64  `json:"first_instructions,omitempty"`
	InstructionBudget uint64  `json:"instruction_budget,omitempty"`
	Paths             int     `json:"paths"`
	Schedules         int     `json:"schedules"`
	Seconds           float64 `json:"seconds"`
	// Exploration with symbolic inputs.
	SolverQueries    int    `json:"solver_queries,omitempty"`
	FloatConcretized int    `json:"floats_concretized,omitempty"` // floating-point values made concrete
	StoppedBy        string `json:"stopped_by,omitempty"`         // the budget that ended exploration early
	// PointerTargetsGivenUp counts symbolic pointers that could point into
	// more objects than exploration followed (8 per pointer).
	PointerTargetsGivenUp int `json:"pointer_targets_given_up,omitempty"`
	// ForksRefused counts paths not explored because of the state budget.
	ForksRefused int `json:"forks_refused,omitempty"`
	// PinnedPaths counts paths that went on along one solution of their
	// constraint, without forking, past the solver budget.
	PinnedPaths int `json:"pinned_paths,omitempty"`
	// LongInputRuns counts executions on explored inputs that ran out of
	// their instruction or memory budget (inputs that make the program
	// run longer than the budget allows), and LongInputSchedule names the
	// first: a limit of the exploration, not a gap in the analysis of
	// the program's own inputs.
	LongInputRuns     int    `json:"long_input_runs,omitempty"`
	LongInputSchedule string `json:"long_input_schedule,omitempty"`
	// PathBudget is the instruction budget of the explored paths after
	// the given inputs' own, set from what that one ran (0: the budget of
	// every execution).
	PathBudget uint64 `json:"path_instruction_budget,omitempty"`
	// PathsBudget is what those paths could run in all, set from the
	// same count (0: no such budget).
	PathsBudget uint64 `json:"paths_instruction_budget,omitempty"`
	// LongInputsLeftOut counts explored inputs detection did not run on:
	// the exploration's own run of each went past its instruction budget,
	// and detection ran two such inputs at most.
	LongInputsLeftOut int `json:"long_inputs_left_out,omitempty"`
	// SymbolicInputs are the inputs the exploration made symbolic, as
	// "argv[1] (2 bytes)" or "stdin (first 8 of 120 bytes)".
	SymbolicInputs []string `json:"symbolic_inputs,omitempty"`
	// Ignored counts races silenced by `augur:ignore` comments.
	Ignored int `json:"ignored,omitempty"`
	// Techniques says, for each detection technique that ran, how many
	// executions it ran and how many races it found first.
	Techniques map[string]Technique `json:"techniques,omitempty"`
	// Candidates counts the potential races no execution confirmed;
	// Directed, the potential races race-directed scheduling tried.
	Candidates int `json:"candidates,omitempty"`
	Directed   int `json:"directed,omitempty"`
	// Exploration says how the schedule exploration after the plan went
	// (absent when it did not run).
	Exploration *Exploration `json:"exploration,omitempty"`
	// InputsShare and DirectedShare say what the plans on explored inputs
	// and the race-directed runs could run and ran (absent when no
	// execution of theirs counted: none ran, or each found something new).
	InputsShare   *Share `json:"inputs_share,omitempty"`
	DirectedShare *Share `json:"directed_share,omitempty"`
}

// Share is what a stage of detection after the plan could run in all on
// executions that found no new race or failure (InstructionBudget: what
// the first schedule ran, at least a floor that falls from 250,000,000
// to none as the program grows (race.FollowProgram), or the
// explore-instructions setting), what such executions ran
// (Instructions), and how many executions it had planned and left out
// once they had run that (LeftOut).
type Share struct {
	InstructionBudget uint64 `json:"instruction_budget"`
	Instructions      uint64 `json:"instructions"`
	LeftOut           int    `json:"left_out"`
}

// share is the report of a stage's share, nil when no execution of it
// counted against it.
func share(s race.Share) *Share {
	if s.Spent == 0 {
		return nil
	}
	return &Share{InstructionBudget: s.Budget, Instructions: s.Spent, LeftOut: s.LeftOut}
}

// Exploration is what detection's exploration of schedules did: how many
// PCT schedules it ran over how many preemption points (accesses of races
// and potential races, besides the synchronization operations), how many
// distinct switches between two points they covered, the deepest of
// their PCT depths (which grow as the schedules go on), and why it ended:
// "saturated" (a long run of schedules found and covered nothing new),
// "explore-time" (its time ran out first: more may find more),
// "instructions" (its executions interpreted the instructions it had:
// Instructions of InstructionBudget), "limit" (it ran its most
// schedules) or "budget" (the analysis's time ran out).
//
// Bounded counts the schedules of the bounded enumeration that ran first,
// in rounds: every schedule with at most two preemptions at those points,
// then, while its budget lasts, those with one more, and so on;
// PreemptionBound is the bound of its last round, and CompleteBound the
// largest bound whose round ran all its schedules (0: none). Exhaustive
// says the last ran all its schedules too, so no bug that needs that few
// preemptions there is left; AllSchedules that no schedule needed more,
// so it ran every schedule at those points and PCT ran none there (ended
// "complete" when there was no other input to explore). Reduced says it ran one schedule of each
// class that differ only in the order of steps touching nothing in
// common (partial-order reduction): all of a class behave the same.
//
// Beside counts the PCT schedules that ran beside the enumeration's
// batches (a long program's first ones, so that a wave of schedules
// keeps two cores busy).
//
// Resumed counts the schedules (of both) that started from a snapshot of
// an execution paused where they branch off it, rather than from the
// program's start, Snapshots the snapshots made, and
// SkippedInstructions the instructions that saved interpreting again.
type Exploration struct {
	Schedules           int    `json:"schedules"`
	Beside              int    `json:"pct_beside_enumeration,omitempty"`
	Focus               int    `json:"focus"`
	Switches            int    `json:"switches"`
	Depth               int    `json:"depth,omitempty"`
	Ended               string `json:"ended"`
	OutputOrder         bool   `json:"output_order,omitempty"`
	Bounded             int    `json:"bounded"`
	Exhaustive          bool   `json:"exhaustive"`
	AllSchedules        bool   `json:"all_schedules"`
	PreemptionBound     int    `json:"preemption_bound"`
	CompleteBound       int    `json:"complete_bound,omitempty"`
	Reduced             bool   `json:"reduced"`
	Snapshots           int    `json:"snapshots"`
	Resumed             int    `json:"resumed"`
	SkippedInstructions uint64 `json:"skipped_instructions"`
	Instructions        uint64 `json:"instructions"`
	InstructionBudget   uint64 `json:"instruction_budget"`
	// ExitStatus and ExitMessage are set when no execution created a
	// second thread (Ended one-thread) and the program, on its own
	// inputs, exited with a nonzero status: the status, and the last line
	// it wrote to standard error.
	ExitStatus  int    `json:"exit_status,omitempty"`
	ExitMessage string `json:"exit_message,omitempty"`
}

// Technique is what one detection technique did.
type Technique struct {
	Runs  int `json:"runs"`
	Races int `json:"races"`
}

// memoryDetail is a race's description of its memory when its name does
// not already say it: an allocated object named by the source.
func memoryDetail(x *race.Race) string {
	if x.Memory == x.Object || x.Allocated == nil {
		return ""
	}
	return x.Memory
}

// Unclassified is the category of races detection has not classified.
const Unclassified = string(category.Unclassified)

// FromDetection builds a report from detection results. Paths are made
// relative to base when they are inside it.
func FromDetection(res *race.Result, args []string, base string) *Report {
	r := &Report{Version: 1, MemoryModel: memmodel.SC, Races: []Race{}, Failures: []Failure{}, Inversions: []Inversion{}}
	for _, x := range res.Races {
		r.Races = append(r.Races, Race{
			ID: x.ID, Category: Unclassified, Object: x.Object, Memory: memoryDetail(x), Instances: x.Instances,
			Consequence: detectionConsequence(x, base),
			Accesses:    []Access{access(x.First, 0, base), access(x.Second, x.Size, base)},
			FoundBy:     string(x.Technique),
			Allocated:   place(x.Allocated, base),
		})
	}
	r.Havoc = res.Havoc
	for _, f := range res.Failures {
		if f.Kind == vm.TermUnsupported {
			r.addUnsupported(f.Function, f.Message, f.Loc, f.Schedule, base)
			continue
		}
		fl := Failure{Kind: failureKind(f), Message: ir.RelText(f.Message, base), Budget: f.Budget.String(), File: ir.RelPath(f.Loc.File, base), Line: f.Loc.Line,
			Thread: f.Thread, Stack: frames(f.Stack, base), Schedule: f.Schedule, Inputs: Inputs{Args: args}}
		if in := f.Inputs; in != nil { // found on an explored input
			fl.Inputs = Inputs(*in)
		}
		if len(f.Threads) > 0 {
			fl.Threads = map[string][]Frame{}
			for id, st := range f.Threads {
				fl.Threads[fmt.Sprint(id)] = frames(st, base)
			}
		}
		r.Failures = append(r.Failures, fl)
	}
	for _, inv := range res.Inversions {
		r.Inversions = append(r.Inversions, Inversion{ID: inv.ID, Locks: []string{inv.LockA, inv.LockB},
			First:  []Access{access(inv.First[0], 0, base), access(inv.First[1], 0, base)},
			Second: []Access{access(inv.Second[0], 0, base), access(inv.Second[1], 0, base)}})
	}
	r.Stats = Stats{Instructions: res.Instructions, Paths: 1, Schedules: res.Schedules, Seconds: res.Elapsed.Seconds(),
		Candidates: len(res.Candidates), Directed: len(res.Directed), FirstInstructions: res.FirstInstructions,
		InstructionBudget: res.InstructionBudget, InputsShare: share(res.InputsShare), DirectedShare: share(res.DirectedShare)}
	if x := res.Explore; x.Schedules > 0 || x.Enumerated > 0 || x.Ended == race.EndedOneThread || x.Ended == race.EndedForkJoin {
		r.Stats.Exploration = &Exploration{Schedules: x.Schedules, Beside: x.Beside, Focus: x.Focus, Switches: x.Switches, Depth: x.Depth, Ended: x.Ended, OutputOrder: x.OutputOrder,
			Bounded: x.Enumerated, Exhaustive: x.Exhaustive, AllSchedules: x.AllSchedules, PreemptionBound: max(x.Bound, race.EnumerationBound), CompleteBound: x.CompleteBound, Reduced: x.Reduced,
			Snapshots: x.Snapshots, Resumed: x.Resumed, SkippedInstructions: x.Skipped,
			Instructions: x.Instructions, InstructionBudget: x.Budget}
		if e := res.Exit; e != nil && x.Ended == race.EndedOneThread {
			r.Stats.Exploration.ExitStatus, r.Stats.Exploration.ExitMessage = e.Status, ir.RelText(e.Stderr, base)
		}
	}
	for _, t := range race.Techniques {
		if res.Runs[t] > 0 || res.Found[t] > 0 {
			if r.Stats.Techniques == nil {
				r.Stats.Techniques = map[string]Technique{}
			}
			r.Stats.Techniques[string(t)] = Technique{Runs: res.Runs[t], Races: res.Found[t]}
		}
	}
	return r
}

// Classification is what the classifier decided for a race, in the
// report's terms (the report does not depend on the classifier).
type Classification struct {
	Category    string
	K           int
	Stage       string
	Reason      string
	Consequence string
	Evidence    string
	Schedule    string
	Inputs      *Inputs
	Outputs     []string
	FilesDiffer []FileDifference
	PrintedSame bool
	WeakReads   []WeakRead
	Failure     *RaceFailure
	// HarmfulOrder is Race.HarmfulOrder.
	HarmfulOrder []int
	// Seconds is Race.ClassifySeconds.
	Seconds float64
}

// Classify sets the category of the race with the given id.
func (r *Report) Classify(id string, c Classification) {
	r.each(id, func(x *Race) {
		x.Category, x.K, x.Stage, x.Reason, x.Evidence = c.Category, c.K, c.Stage, c.Reason, c.Evidence
		x.Schedule, x.Inputs = c.Schedule, c.Inputs
		x.Outputs, x.WeakReads, x.Failure, x.HarmfulOrder = c.Outputs, c.WeakReads, c.Failure, c.HarmfulOrder
		x.FilesDiffer, x.PrintedSame = c.FilesDiffer, c.PrintedSame
		x.ClassifySeconds = c.Seconds
		if len(x.Outputs) > MaxOutputs {
			x.Outputs = x.Outputs[:MaxOutputs]
		}
		if c.Consequence != "" {
			x.Consequence = c.Consequence
		}
	})
}

// AddExploration adds the failing paths of a symbolic exploration, with the
// inputs that reproduce them, and its counts to the stats.
// A failure reached by several paths is listed once (race.MessageID), with
// the inputs of the first path that reached it.
func (r *Report) AddExploration(res *symex.Result, base string) {
	seen := map[string]bool{}
	id := func(kind, message, file string, line int) string {
		return fmt.Sprintf("%s|%s|%s:%d", kind, race.MessageID(message), file, line)
	}
	for _, f := range r.Failures { // detection found it already, on the same explored input
		seen[id(f.Kind, f.Message, f.File, f.Line)] = true
	}
	for _, p := range res.Failures {
		t := p.Term
		kind := failureKind(&race.Failure{Kind: t.Kind, Message: t.Message, Budget: t.Budget})
		key := id(kind, t.Message, ir.RelPath(t.Loc.File, base), t.Loc.Line)
		if seen[key] {
			continue
		}
		seen[key] = true
		if t.Kind == vm.TermUnsupported {
			r.addUnsupported(t.Function, t.Message, t.Loc, "round-robin, symbolic inputs", base)
			continue
		}
		r.Failures = append(r.Failures, Failure{Kind: kind,
			Message: t.Message, Budget: t.Budget.String(), File: ir.RelPath(t.Loc.File, base), Line: t.Loc.Line, Thread: t.Thread,
			Stack: frames(t.Stack, base), Schedule: "round-robin, symbolic inputs",
			Inputs: Inputs(p.Inputs)})
	}
	r.Stats.Paths = res.Stats.Paths
	r.Stats.Instructions += res.Stats.Instructions
	r.Stats.Seconds += res.Stats.Elapsed.Seconds()
	r.Stats.SolverQueries = res.Stats.Queries
	r.Stats.FloatConcretized = res.Stats.FloatConcretized
	r.Stats.StoppedBy = res.Stats.StoppedBy
	r.Stats.PointerTargetsGivenUp = res.Stats.PointerTargetsGivenUp
	r.Stats.ForksRefused = res.Stats.ForksRefused
	r.Stats.PinnedPaths = res.Stats.Pinned
	r.Stats.PathBudget = res.Stats.PathBudget
	r.Stats.PathsBudget = res.Stats.PathsBudget
}

func detectionConsequence(x *race.Race, base string) string {
	a, b := access(x.Second, 0, base), access(x.First, 0, base)
	return fmt.Sprintf("The %s of %s in %s (%s) by %s is not ordered with the %s in %s (%s) by %s; "+
		"classification will say whether either order is harmful.",
		x.Second.KindName(), x.Object, x.Second.Function, shortLoc(x.Second, base), a.ThreadName(),
		x.First.KindName(), x.First.Function, shortLoc(x.First, base), b.ThreadName())
}

// shortLoc is an access's file and line, with its call when it is a
// synchronization call's ("a.c:37, pthread_cond_destroy").
func shortLoc(e race.Endpoint, base string) string {
	at := fmt.Sprintf("%s:%d", ir.RelPath(e.Loc.File, base), e.Loc.Line)
	if e.Call != "" {
		at += ", " + e.Call
	}
	return at
}

func access(e race.Endpoint, size uint64, base string) Access {
	start, _ := vm.StartFunction(e.Stack)
	return Access{File: ir.RelPath(e.Loc.File, base), Line: e.Loc.Line, Column: e.Loc.Col, Kind: e.KindName(), Size: size,
		Thread: e.Thread, ThreadStart: start, Function: e.Function, Stack: frames(e.Stack, base), Call: e.Call}
}

// place is a location as a frame without a function, nil when unknown.
func place(l *ir.Loc, base string) *Frame {
	if l == nil || l.File == "" {
		return nil
	}
	return &Frame{File: ir.RelPath(l.File, base), Line: l.Line, Column: l.Col}
}

// SetFailureEvidence records path as the evidence of the failure f
// (FromDetection or AddExploration listed it).
func (r *Report) SetFailureEvidence(f *race.Failure, path, base string) {
	kind, file, msg := failureKind(f), ir.RelPath(f.Loc.File, base), ir.RelText(f.Message, base)
	for i := range r.Failures {
		x := &r.Failures[i]
		if x.Kind == kind && x.File == file && x.Line == f.Loc.Line && x.Message == msg {
			x.Evidence = path
		}
	}
}

// RaceFailureOf is a failing termination in the report's terms.
func RaceFailureOf(t *vm.Termination, base string) *RaceFailure {
	if t == nil || t.Loc.File == "" {
		return nil
	}
	f := failureKind(&race.Failure{Kind: t.Kind, Message: t.Message, Budget: t.Budget})
	return &RaceFailure{Kind: f, Message: t.Message, File: ir.RelPath(t.Loc.File, base), Line: t.Loc.Line,
		Column: t.Loc.Col, Thread: t.Thread, Stack: frames(t.Stack, base), Freed: place(t.Freed, base)}
}

// A stack in the report keeps its keptInner innermost and keptOuter
// outermost frames. A stack overflow's 20,000 frames would otherwise make
// megabytes of report per failure, for every client to read and for the
// editor to demangle again after each verdict; the failing code and the
// thread's start, with the program's calls into a library, are at the
// two ends.
const keptInner, keptOuter = 32, 32

// frames converts a stack for the report, leaving out the runtime's entry
// frame, which every main-thread stack ends in. The middle of a deep stack
// is one frame with no file whose function says how many frames it
// stands for ("... 19936 frames ...").
func frames(st []vm.StackFrame, base string) []Frame {
	out := make([]Frame, 0, min(len(st), keptInner+1+keptOuter))
	if len(st) > 0 && strings.HasPrefix(st[len(st)-1].Function, "__augur_") {
		st = st[:len(st)-1]
	}
	for i, f := range st {
		if len(st) > keptInner+keptOuter && i >= keptInner && i < len(st)-keptOuter {
			if i == keptInner {
				out = append(out, Frame{Function: fmt.Sprintf("... %d frames ...", len(st)-keptInner-keptOuter)})
			}
			continue
		}
		if strings.HasPrefix(f.Function, "__augur_") {
			continue
		}
		out = append(out, Frame{Function: f.Function, File: ir.RelPath(f.Loc.File, base), Line: f.Loc.Line, Column: f.Loc.Col})
	}
	return out
}

// failureKind maps a termination to the report's failure kinds.
func failureKind(f *race.Failure) string {
	switch f.Kind {
	case vm.TermAssert:
		return "assert"
	case vm.TermDeadlock:
		return "deadlock"
	case vm.TermHang:
		return "hang"
	case vm.TermBudget:
		return "budget"
	case vm.TermUnsupported:
		return "unsupported"
	case vm.TermCrash:
		for _, p := range []string{"null pointer", "wild pointer", "out of bounds", "use after free", "double free",
			"free of", "invalid", "write to read-only", "access to code"} {
			if strings.Contains(f.Message, p) {
				return "memory-error"
			}
		}
	}
	return "crash"
}

// SetFixes gives race id its fixes, verified ones first.
func (r *Report) SetFixes(id string, fixes []Fix) {
	sort.SliceStable(fixes, func(i, j int) bool { return fixes[i].Verified && !fixes[j].Verified })
	r.each(id, func(x *Race) { x.Fixes = fixes })
}

// SetPattern gives race id the benign pattern it follows.
func (r *Report) SetPattern(id string, p *Pattern) {
	r.each(id, func(x *Race) { x.Pattern = p })
}
