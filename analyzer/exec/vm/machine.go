package vm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"path"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"
	"unsafe"

	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/frontend/ir"
)

// Config describes one execution.
type Config struct {
	// Models are what the execution can call beyond the program's own
	// code (libc.Models(), which holds the machine's own models too);
	// New refuses a configuration without them.
	Models *Models
	Args   []string // argv, argv[0] included
	Env    []string // environment, "NAME=value"; nil is DefaultEnv (never the host's)
	Stdin  []byte   // program input
	// Clients are the argv (argv[0] included) of each client program
	// linked into the program (bitcode.LinkClient): client k runs from
	// ir.ClientEntry(k) as a process of its own, started when the program
	// first waits with nothing to do (clients.go).
	Clients [][]string
	// StdinReader, when set, supplies more input after Stdin, read only as
	// the program asks for it (interactive use of `augur run`).
	StdinReader io.Reader
	Stdout      io.Writer // where the program's stdout goes as it is flushed (nil: discarded)
	Stderr      io.Writer
	// StdoutLineBuffered makes stdout line-buffered as on a terminal; otherwise
	// it is fully buffered as on a pipe, like glibc.
	StdoutLineBuffered bool
	Policy             sched.Policy // nil: round robin
	Seed               uint64       // recorded in the trace
	MaxInstructions    uint64       // 0: unlimited
	// MemoryHint is the footprint an execution of the program is expected
	// to reach (0: unknown), by which parallel work waits for room under
	// the memory budget (Admit).
	MemoryHint uint64
	// PreemptAccesses makes every load, store and atomic on memory another
	// thread can reach a preemption point, so schedules can interleave
	// unsynchronized code (slower: the fast paths are off).
	PreemptAccesses bool
	// PreemptAt makes the memory accesses at these locations (file:line:col,
	// as ir.Program.LocString gives them) preemption points, and no other
	// plain access: the accesses of races and potential races, where an
	// exploration looks for bugs without paying for a switch at every
	// access. The trace records them; an execution replaying a trace
	// (sched.Replaying) takes the trace's when this is nil.
	PreemptAt []string
	// PreemptAfterReads deepens PreemptAt's points: a read there is a
	// point after it as well as before, and an access there to the
	// thread's own stack is one too. A check whose value the thread then
	// acts on (a flag read before a lock is taken) can be followed by
	// another thread's whole update before the act, where a lock's own
	// point comes only once it is taken; and a stack object whose address
	// was handed to another thread is shared like any other. The
	// exploration's schedules set it, the enumeration's and PCT's. The
	// trace records it with PreemptAt, and a replay takes both from
	// there.
	PreemptAfterReads bool
	// LockQuantumAfter, when positive, makes the execution's schedule
	// decide less often once it has made that many decisions: from there
	// a thread that takes a lock without waiting goes on, as under augur
	// run's schedule (sched.PassesLock), instead of giving the processor
	// away while it holds the lock, where the other threads would only
	// run to the lock and block. A program that takes a lock every few
	// instructions made four decisions a lock under round robin, most of
	// its analysis's time; the first ones, where a short program's whole
	// run is, keep every switch. The trace records it, and an execution
	// replaying a trace takes the trace's.
	LockQuantumAfter int
	// Monitor, when set, observes every access and synchronization (the
	// race detector).
	Monitor Monitor
	// Symbolic, when set, makes the execution symbolic: inputs marked
	// symbolic become terms, branches on them fork states (see Spawned).
	Symbolic *Symbolic
	// PauseAtFork makes Run return (with TermPaused) right after the state
	// forks, so an explorer can interleave states; calling Run again
	// resumes it.
	PauseAtFork bool
	// SymArgs makes argv[1..] symbolic: one entry per size, each a string
	// of up to that many bytes; the concrete Args are their seed.
	SymArgs []int
	// SymStdin makes standard input this many symbolic bytes, seeded by
	// Stdin; SymFiles makes each named file of the virtual file system that
	// many symbolic bytes, seeded by Files.
	SymStdin int
	SymFiles map[string]int
	// Inputs gives concrete values to named inputs in a concrete run
	// (augur_make_symbolic bytes, __VERIFIER_nondet_* results): replaying a
	// path's generated inputs reproduces it.
	Inputs map[string]uint64
	// Undefined is what a call to a declared but undefined, unmodeled
	// function does: stop (the default) or havoc.
	Undefined UndefinedPolicy
	// Limits are the time and memory budgets and the cancellation.
	Limits
	// Weak, when set, runs the program under the weak memory model (see
	// weak.go); nil is sequential consistency.
	Weak *Weak
	// ScheduleForks, when set, forks the state at every scheduling
	// decision with several runnable threads, one state per thread the
	// policy did not pick: an explorer then covers every interleaving (of
	// the preemption points the run has), within the budget.
	ScheduleForks *ScheduleForks
	// Files seeds the virtual file system: path -> contents. The program
	// never touches the real disk.
	Files map[string][]byte
	// MaxOutput bounds the program output an execution keeps as events
	// (Result.Output), in bytes: 0 is DefaultMaxOutput, a negative value
	// keeps none. Output past it still reaches Stdout and Stderr and still
	// counts in Result.Digest, which compares whole outputs exactly.
	MaxOutput int
}

// Limits are the budgets an execution runs under beyond its instruction
// count. They belong to whoever runs it (a command, the language server),
// not to the program's inputs: evidence records the inputs and the
// instruction budget, a replay takes its limits from the caller.
type Limits struct {
	// Timeout bounds this execution's wall time (0: none). Deadline, when
	// set, is when the whole analysis the execution belongs to must stop,
	// and TimeBudget that budget's length, for messages. Either ends the
	// execution as a budget termination (BudgetTime).
	Timeout    time.Duration
	Deadline   time.Time
	TimeBudget time.Duration
	// MaxMemory bounds what the execution holds, with what the analysis
	// keeps for it (see Machine.Footprint), in bytes (0: none).
	MaxMemory uint64
	// Cancel, when closed, stops the execution at its next budget check
	// with TermCanceled (a language server dropping an outdated analysis).
	Cancel <-chan struct{}
	// Interrupt, when closed, stops the execution as if the analysis's
	// time had run out (BudgetTime, InterruptedMessage): the user
	// interrupted it, and what it found until then is kept and reported.
	Interrupt <-chan struct{}
	// Room, when set, is asked at each memory check with the execution's
	// footprint whether it goes on (vm.Room: an execution that shares the
	// memory budget with another before the program is measured). False
	// ends it as abandoned (Termination.NoRoom), to run again.
	Room func(fp uint64) bool
	// Account, when set, is the analysis the execution belongs to: the
	// memory backstop does not charge it for what executions of other
	// accounts hold (ledger.go). Nil makes each execution its own.
	Account *MemoryAccount
}

// InterruptedMessage is the message of an execution Limits.Interrupt
// stopped.
const InterruptedMessage = "interrupted"

// Interrupted reports whether Interrupt is closed.
func (c *Limits) Interrupted() bool { return closed(c.Interrupt) }

// DefaultMaxOutput is how much output an execution keeps as events.
const DefaultMaxOutput = 1 << 20

// maxOutputEvents bounds the number of output events kept, each of which
// holds the stack that printed it.
const maxOutputEvents = 1 << 16

// Canceled reports whether Cancel is closed: the caller of a series of
// executions stops starting new ones.
func (c *Limits) Canceled() bool { return closed(c.Cancel) }

// closed reports whether ch is closed; a nil channel never is.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Expired returns the termination of an execution started now when the
// analysis's deadline has passed (Deadline) or it was interrupted, or
// nil: a caller about to start executions stops instead.
func (c *Limits) Expired() *Termination {
	if c.Interrupted() {
		return &Termination{Kind: TermBudget, Budget: BudgetTime, Message: InterruptedMessage}
	}
	if c.Deadline.IsZero() || time.Now().Before(c.Deadline) {
		return nil
	}
	msg := "time budget exhausted"
	if c.TimeBudget > 0 {
		msg = fmt.Sprintf("time budget of %s exhausted", durationText(c.TimeBudget))
	}
	return &Termination{Kind: TermBudget, Budget: BudgetTime, Message: msg}
}

// OutputEvent is one piece of program output with the stack that wrote it.
// Output computed from symbolic inputs also keeps its terms: the format,
// one term per argument (nil for concrete ones) and the path constraint
// when it was written; Data then holds one possible rendering.
type OutputEvent struct {
	Stream      int // 1 stdout, 2 stderr, StreamFile a write to a file
	Data        []byte
	Thread      int
	Stack       []StackFrame
	Format      string
	Args        []*expr.Expr
	Constraints []*expr.Expr
}

// InputEvent is a value the environment gave the program that a native run
// would not reproduce (the time of day); replaying an execution feeds the
// same values back.
type InputEvent struct {
	Kind   string // "time", "gettimeofday", "clock_gettime", "clock", "rdtsc"
	Value  int64  // nanoseconds since the epoch (microseconds of CPU time for "clock")
	Thread int
	Loc    ir.Loc
}

// StreamFile is the stream of an output event that wrote to a file. Its
// Data is the file's path, a NUL and the FNV-1a hash of the bytes
// written, little-endian: enough to tell one write from another, so the
// classifier can steer a run toward the order another run wrote its files
// in (classify.outputSteer), without keeping the bytes. Such events are
// not what the program printed: Streams and Printed leave them out, and
// they count against no output limit but their own number.
const StreamFile = 3

// Printed returns the events that printed on stdout or stderr.
func Printed(evs []OutputEvent) []OutputEvent {
	out := evs[:0:0]
	for _, e := range evs {
		if e.Stream != StreamFile {
			out = append(out, e)
		}
	}
	return out
}

// Streams returns what output events wrote on stdout and on stderr.
func Streams(evs []OutputEvent) (stdout, stderr []byte) {
	for _, e := range evs {
		switch e.Stream {
		case 1:
			stdout = append(stdout, e.Data...)
		case 2:
			stderr = append(stderr, e.Data...)
		}
	}
	return stdout, stderr
}

// OutputDigest fingerprints everything an execution printed on stdout
// (index 0) and stderr (index 1), and the files it left written (Files):
// two executions printed the same bytes and left the same files when
// their digests are equal, however much they wrote.
type OutputDigest struct {
	Len  [2]uint64
	Hash [2]uint64 // FNV-1a of the stream's bytes
	// Files is an FNV-1a hash of the written files' paths, sizes and
	// hashes (Result.Written), set when the execution ends; 0 when it
	// wrote none.
	Files uint64
}

// PrintedOtherwise reports whether d and o differ in what was printed on stdout
// or stderr, rather than only in the files written.
func (d OutputDigest) PrintedOtherwise(o OutputDigest) bool {
	return d.Len != o.Len || d.Hash != o.Hash
}

// filesDigest is the OutputDigest.Files of the written files ws.
func filesDigest(ws []WrittenFile) uint64 {
	if len(ws) == 0 {
		return 0
	}
	h := fnv.New64a()
	var b [17]byte
	for _, w := range ws {
		h.Write([]byte(w.Path))
		binary.LittleEndian.PutUint64(b[0:], w.Size)
		binary.LittleEndian.PutUint64(b[8:], w.Hash)
		b[16] = 0
		if w.Removed {
			b[16] = 1
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// add accounts for b written on stream (1 or 2).
func (d *OutputDigest) add(stream int, b []byte) {
	i := stream - 1
	h := d.Hash[i]
	if d.Len[i] == 0 {
		h = FNVOffset
	}
	d.Hash[i] = FNV(h, b)
	d.Len[i] += uint64(len(b))
}

// FNVOffset is FNV-1a's starting hash: FNV(FNVOffset, b) is b's hash.
const FNVOffset = 14695981039346656037

// FNV continues the 64-bit FNV-1a hash h over b, without hash.Hash's
// allocation: output digests, file-write events and written files hash
// their bytes with it, in pieces as they come.
func FNV(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// Result is the outcome of an execution.
type Result struct {
	Term  *Termination
	Trace *sched.Trace
	// Output is what the program printed, as events, up to
	// Config.MaxOutput bytes; OutputOmitted counts the bytes past that.
	Output        []OutputEvent
	OutputOmitted uint64
	// Digest fingerprints all of the output, omitted bytes included.
	Digest       OutputDigest
	Inputs       []InputEvent
	Instructions uint64
	Threads      int // threads created, main included
	// PeakFootprint is the largest footprint the memory budget's checks
	// saw (0 without a budget).
	PeakFootprint uint64
	// Havoc lists the undefined functions this execution called under
	// UndefinedHavoc, sorted.
	Havoc []string
	// Missing are the files the program looked for in vain, sorted by
	// path (Library.Missing).
	Missing []MissingFile
	// Written are the files the execution left made, changed or removed,
	// sorted by path, at most MaxWrittenFiles (Library.Written); set
	// when it ended, not at a pause.
	Written []WrittenFile
	// Unordered says why another schedule of this execution's inputs might
	// not run the same threads the same way for a reason a monitor does
	// not see as memory accesses and synchronization: the first call,
	// while two threads lived, of a model that is not local (Model.Local:
	// output, files, the clock, yielding, undefined functions), or an end
	// of the program while other threads still ran. "" when there was
	// none: then, if the monitor saw the threads race nowhere and meet
	// only where they were created and joined, every schedule runs this
	// execution.
	Unordered string
	// OutputOrder is set when a thread wrote to standard output or error
	// while another lived: another schedule can interleave the threads'
	// output otherwise, even when it runs them the same way.
	OutputOrder bool
}

type threadStatus uint8

const (
	runnable threadStatus = iota
	blocked
	exited
)

// frame is an activation record. Its registers are the window
// regs[base:base+fn.FrameSize] of its thread's register stack: the
// function's registers, then its constants.
type frame struct {
	fn      *ir.Function
	pc      int
	base    int
	allocas []uint32
	varargs uint32 // object holding the variadic arguments, 0 if none
	// retDst is the caller's result slot; -1: none; -2: synthetic frame
	// (thread entry, constructor): returning does not complete a call; -3:
	// the caller's call is executed again on return (pthread_once); -4
	// (retDestructor): a thread-specific data destructor run at the
	// thread's exit, which goes on with the exit on return.
	retDst   int32
	callSite ir.LocID
	stack    StackID // this activation's interned call stack (when monitored)
	// atomic marks a __VERIFIER_atomic_* function: it runs without
	// preemption and as one critical section.
	atomic bool
	// serial numbers activations within the execution, so longjmp can
	// tell the activation setjmp ran in from a later one at its depth.
	serial uint64
}

// Thread is one thread of the program.
type Thread struct {
	ID int
	// mark is the thread's mark for quiet accesses (quiet.go).
	mark uint64
	// passed counts the points the thread went on through without a
	// decision since the last one made at its own (sched.Passing).
	passed int
	// failedTries counts the try-locks the thread failed in a row
	// (tryFailed).
	failedTries int
	// proc is the process the thread belongs to: 0 for the program, k+1
	// for client program k (clients.go).
	proc   int
	frames []frame
	regs   []Value
	// warm is the frame dropped last, whose constants are still in the
	// registers past the stack's top (newFrame).
	warm   warmFrame
	status threadStatus
	// waitOn is the queue a blocked thread waits on when waiting is set;
	// waitDesc what it waits for otherwise (a sleep). Deadlock reports
	// describe them (waitDescription).
	waitOn   waitKey
	waiting  bool
	waitDesc string
	phase    int // progress of a multi-step blocking call (condition wait)
	exitVal  uint64
	detached bool
	joined   bool
	tls      map[uint32]uint32 // thread-local global id -> object id
	// onces are the pthread_once routines the thread is running,
	// innermost last: a routine may call pthread_once on another control
	// (std::async's state sets its result under one std::call_once while
	// the task runs another).
	onces []onceRun
	// timedWait marks a blocked thread whose wait has a timeout: when every
	// thread is blocked, it times out instead of the program deadlocking.
	// timedUntil is the virtual time it runs out at, when the call says
	// (poll, select, epoll_wait; 0 otherwise): when no thread can go on,
	// virtual time jumps to the earliest of these and of the sleepers'
	// deadlines, so a server's event loop wakes for its timer while a
	// client sleeps longer.
	timedWait  bool
	timedOut   bool
	timedUntil int64
	// exc is the C++ exception the thread is unwinding with (except.go).
	exc excState
	// Cancellation (cancel.go): a pending request, the cancel state, the
	// cleanup buffers registered (innermost last), and whether the thread
	// is running them on its way out.
	cancelPending, cancelDisabled, exiting bool
	cleanup                                []uint64
	// wakeAt is the virtual time a sleeping thread (sleep, usleep,
	// nanosleep) is blocked until; 0 when it is not sleeping.
	wakeAt int64
	// sleptAt is the instruction count when the sleep began.
	sleptAt uint64
	keys    map[uint64]uint64 // pthread_key_t -> value
	// name is the thread's name (pthread_setname_np, prctl's PR_SET_NAME),
	// "" for the process's (threadName).
	name string
	// atExit are the destructors of the thread's thread_local objects
	// (__cxa_thread_atexit), in the order they were registered.
	atExit []threadDtor
	// dtorCalls counts the thread-specific data destructors its exit ran
	// (pthread_keys.go).
	dtorCalls int
	// accessGranted: the thread yielded at the access it is about to make
	// and now makes it (see accessPoint).
	accessGranted bool
	// clockReads counts the thread's reads of a steady clock (see
	// Machine.SetSteadyClock).
	clockReads int64
	// atomicDepth counts the __VERIFIER_atomic sections the thread is in;
	// inside one it is never preempted at accesses.
	atomicDepth int
	// stackBytes is what the thread's live stack allocations hold (see
	// StackLimit).
	stackBytes uint64
	// sliceBase is count when the thread last took the processor from
	// another: its time slice runs from there (exec.go).
	sliceBase uint64
	// count is how many instructions the thread executed before the current
	// scheduling slice. (Thread, count) names a point of execution that is
	// the same in every schedule, unlike the global instruction count.
	count uint64
}

// Machine executes one program from start to termination. It is two
// parts, as KLEE's Executor and ExecutionState are: the execution's state
// (state: what a fork copies) and the runner that advances it, whose
// fields are Machine's own: the configuration, the budgets
// and their checks, the scheduling policy and the monitor, pauses and
// stops, and scratch space. A fork (fork.go) copies the state and gives
// the copy a runner of its own.
type Machine struct {
	state

	cfg Config
	// words is the one SyncWords the models use (SyncWords): a lock or
	// unlock uses it from its lookup to its last write, and none calls
	// another in between.
	words SyncWords
	// marks is the runner's block of quiet marks (quiet.go).
	marks markSource
	peak  uint64 // the largest footprint the memory checks saw
	// heapBase is the process's live heap when the execution was made:
	// the memory backstop counts what the heap grew by since (checkMemory),
	// less what other analyses' executions grew by (othersBase is what
	// they held then; share is what this one publishes, ledger.go).
	heapBase   uint64
	othersBase int64
	share      *footprintShare
	// hang watches a run past its instruction budget for a proof that it
	// is stuck (hang.go); the state's syncs are its progress.
	hang      *hangWatch
	nextProbe uint64 // the instruction count the next hang probe opens at
	// nextCheck is the instruction count at which the budget is checked
	// next; the loop compares against it alone.
	nextCheck uint64
	// abandonAt, when not 0, ends the execution at the first budget
	// check from that instruction count on (AbandonAt).
	abandonAt uint64
	// allQuiet skips the monitor for raw accesses (QuietUntilSync).
	allQuiet bool
	// work counts the bytes modeled calls moved since the last forced
	// budget check (charge).
	work uint64
	// focus marks the locations whose accesses are preemption points
	// (Config.PreemptAt), indexed by LocID; nil when there are none.
	focus    []bool
	deadline time.Time
	policy   sched.Policy
	natives  []*Model    // by function id
	argBuf   []Value     // scratch for parallel phi moves
	runBuf   []int       // scratch for the runnable threads of a decision
	point    sched.Point // the point of the decision being made, filled in place (Policy.Pick)
	callBuf  []Value     // scratch for call arguments
	simdBuf  []uint64    // scratch for a SIMD model's argument and result bits (simd.go)
	mon      Monitor
	rawMon   RawMonitor // mon, when it takes raw accesses as values (SetMonitor)
	// monThread is the one thread whose accesses mon looks at
	// (ThreadMonitor), or -1: every thread's.
	monThread int
	acc       Access // reused for every reported access
	// callLoc is the location of the call whose native model is running,
	// for the accesses and sync events the model reports.
	callLoc ir.LocID
	// forcedNext is the thread a schedule fork runs at its first
	// scheduling decision, -1 when none.
	forcedNext int
	// spawned are the states forked off while this one ran.
	spawned []*Machine
	// unordered is Result.Unordered: set at the first call that makes
	// this execution's order matter other than through the monitor.
	unordered string
	// outputOrder is Result.OutputOrder.
	outputOrder bool
	forkSite    ir.LocID
	paused      bool // Run returned TermPaused and may be called again
	// sliceStart is m.insts when the running thread's slice began.
	sliceStart uint64
	// run holds exec's limits for the running thread (exec.go).
	run execLimits
	// atStop is set when Run paused at the stop point (not after a fork).
	atStop bool
	// yieldFirst makes the next Run reschedule before running (Yield).
	yieldFirst bool
	// pauseAt, when not 0, is 1 + the decision before which Run pauses
	// (PauseBeforeDecision).
	pauseAt int
	// stop, when set, pauses the execution just before a thread executes
	// its stop.Count-th instruction (see StopBefore).
	stop *StopPoint
	// pendingFail, when set, is how this state ends as soon as it runs: a
	// fork created for a failing alternative (a divisor that is zero).
	pendingFail error
	// sliceEnded is set when the current thread was preempted for running
	// a whole time slice (exec.go); the next scheduling point says so.
	sliceEnded bool
}

// New prepares an execution of prog: globals laid out and initialized, the
// main thread positioned at the runtime's entry point (after static
// constructors).
func New(prog *ir.Program, cfg Config) (*Machine, error) {
	if err := cfg.Models.complete(); err != nil {
		return nil, err
	}
	m := &Machine{cfg: cfg, forcedNext: -1, policy: cfg.Policy,
		state: state{prog: prog, mem: &Memory{gen: newGen(), nextID: prog.NumStatic}, sync: newSyncTable(), stacks: newStackTable()}}
	m.SetMonitor(cfg.Monitor)
	if cfg.MaxMemory != 0 {
		m.startBackstop()
	}
	if m.policy == nil {
		m.policy = sched.RoundRobin{}
	}
	if r, ok := m.policy.(sched.Replaying); ok && r.Replays() != nil {
		if cfg.PreemptAt == nil {
			m.cfg.PreemptAt, m.cfg.PreemptAfterReads = r.Replays().PreemptAt, r.Replays().PreemptAfterReads
		}
		m.cfg.LockQuantumAfter = r.Replays().LockQuantumAfter // the replay passes the points the recording passed
	}
	m.trace = sched.NewTrace(m.policy.Name(), cfg.Seed)
	m.trace.PreemptAt, m.trace.PreemptAfterReads = m.cfg.PreemptAt, m.cfg.PreemptAfterReads
	m.trace.LockQuantumAfter = max(m.cfg.LockQuantumAfter, 0)
	m.focus = prog.LocSet(m.cfg.PreemptAt)
	if cfg.Symbolic != nil {
		m.sym = &symState{Symbolic: cfg.Symbolic}
	}
	if cfg.Weak != nil {
		m.weak = memmodel.NewState(cfg.Weak)
	}
	m.nextCheck, m.nextProbe = budgetCheckEvery, m.probeEvery()
	if cfg.MaxInstructions != 0 && cfg.MaxInstructions < budgetCheckEvery {
		m.nextCheck = cfg.MaxInstructions + 1
	}
	if cfg.Timeout > 0 {
		m.deadline = time.Now().Add(cfg.Timeout)
	}
	if !cfg.Deadline.IsZero() && (m.deadline.IsZero() || cfg.Deadline.Before(m.deadline)) {
		m.deadline = cfg.Deadline
	}
	for _, f := range prog.Funcs {
		m.mem.place(&Object{ID: f.ID, Size: 1, Kind: ObjFunc, Name: f.Name, ReadOnly: true})
	}
	globals, err := checkGlobals(prog, cfg.MaxMemory)
	if err != nil {
		return nil, err
	}
	if cfg.MaxMemory != 0 {
		collectBefore(globals, cfg.MaxMemory) // the last execution's globals may still wait to be collected
	}
	for _, g := range prog.Globals {
		if g.ThreadLocal {
			continue
		}
		o := &Object{ID: g.ID, Size: g.Size, Kind: ObjGlobal, Name: g.Name, ReadOnly: g.Constant, Unwatched: unwatched(g.Name)}
		o.bytes = objectBytes(g.Size)
		copy(o.bytes, g.Init)
		m.mem.place(o)
	}
	m.natives = cfg.Models.resolve(prog)
	m.lib = cfg.Models.newLibrary(m)
	if err := checkClients(prog, cfg); err != nil {
		return nil, err
	}
	entry := prog.Func("__augur_start")
	if entry == nil || entry.Decl {
		return nil, errors.New("program has no __augur_start: the augur runtime was not linked")
	}
	if prog.Func("main") == nil || prog.Func("main").Decl {
		return nil, errors.New("program has no main function")
	}
	main := m.newThread()
	argc, argv, envp, err := m.setupArgs()
	if err != nil {
		return nil, err
	}
	m.pushFrame(main, entry, []Value{val(argc), val(argv), val(envp)}, nil, -2, 0)
	// Static constructors run first: push them above the entry, in reverse.
	ctors := m.constructors()
	for i := len(ctors) - 1; i >= 0; i-- {
		m.pushFrame(main, ctors[i], nil, nil, -2, 0)
	}
	m.cur = main
	return m, nil
}

func (m *Machine) newThread() *Thread {
	t := &Thread{ID: len(m.threads), mark: m.marks.newMark()}
	m.threads = append(m.threads, t)
	return t
}

// constructors reads llvm.global_ctors: {i32 priority, void()* fn, i8*
// data}, in the order they run (priority, then definition).
func (s *state) constructors() []*ir.Function { return s.structors("llvm.global_ctors") }

// destructors reads llvm.global_dtors (__attribute__((destructor))), in
// the order they run at exit: the reverse of constructors', higher
// priorities first, later definitions first.
func (s *state) destructors() []*ir.Function {
	ds := s.structors("llvm.global_dtors")
	slices.Reverse(ds)
	return ds
}

func (s *state) structors(name string) []*ir.Function {
	g := s.prog.GlobalByName(name)
	if g == nil || g.Init == nil {
		return nil
	}
	type ctor struct {
		prio uint32
		fn   *ir.Function
	}
	var cs []ctor
	for off := 0; off+24 <= len(g.Init); off += 24 {
		prio := uint32(ir.GetScalar(g.Init[off:], ir.Scalar{Kind: ir.KInt, Bits: 32}))
		addr := ir.GetScalar(g.Init[off+8:], ir.Scalar{Kind: ir.KPtr, Bits: 64})
		if f := s.funcAt(addr); f != nil {
			cs = append(cs, ctor{prio, f})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].prio < cs[j].prio })
	out := make([]*ir.Function, len(cs))
	for i, c := range cs {
		out[i] = c.fn
	}
	return out
}

// funcAt returns the function whose address is addr, or nil.
func (s *state) funcAt(addr uint64) *ir.Function {
	id := addr >> ir.AddrShift
	if addr&(1<<ir.AddrShift-1) != 0 || id >= uint64(len(s.prog.FuncOf)) {
		return nil
	}
	return s.prog.FuncOf[id]
}

// setupArgs places the program's argv and envp in memory like the kernel
// would, argv[i] symbolic for each --sym-arg.
func (m *Machine) setupArgs() (argc, argv, envp uint64, err error) {
	args := append([]string(nil), m.cfg.Args...)
	if len(args) == 0 {
		args = []string{"a.out"}
	}
	for len(args) < 1+len(m.cfg.SymArgs) {
		args = append(args, "")
	}
	argv = m.stringVector("argv", args)
	if m.sym != nil {
		// argv[i] for each --sym-arg starts with SymArgs[i-1] input bytes
		// and ends with a NUL; the concrete argument given there is their
		// seed, and what it holds past them stays concrete.
		for i, n := range m.cfg.SymArgs {
			size := max(n, len(args[i+1]))
			o := m.mem.alloc(ObjGlobal, uint64(size)+1, fmt.Sprintf("argv[%d]", i+1), 0, 0)
			copy(o.bytes[:size], args[i+1])
			ir.PutScalar(m.mem.Object(uint32(argv >> ir.AddrShift)).bytes[8*(i+1):], ir.Scalar{Kind: ir.KPtr, Bits: 64}, ir.Addr(o.ID, 0))
			if err := m.makeSymbolic(ir.Addr(o.ID, 0), uint64(n), fmt.Sprintf("arg%d", i+1)); err != nil {
				return 0, 0, 0, err
			}
		}
	}
	return uint64(len(args)), argv, m.environment(), nil
}

// stringVector places a NULL-terminated vector of strings in memory (an
// argv, an environ) and returns its address.
func (st *state) stringVector(name string, ss []string) uint64 {
	o := st.mem.alloc(ObjGlobal, uint64(8*(len(ss)+1)), name, 0, 0)
	for i, s := range ss {
		so := st.mem.alloc(ObjGlobal, uint64(len(s)+1), "argument string", 0, 0)
		copy(so.bytes, s)
		ir.PutScalar(o.bytes[8*i:], ir.Scalar{Kind: ir.KPtr, Bits: 64}, ir.Addr(so.ID, 0))
	}
	return ir.Addr(o.ID, 0)
}

// environment places the configured environment (DefaultEnv when none)
// in memory and returns its address.
func (m *Machine) environment() uint64 {
	env := m.cfg.Env
	if env == nil {
		env = DefaultEnv
	}
	return m.stringVector("environ", env)
}

// pushFrame enters fn on thread t with the given flattened arguments.
func (m *Machine) pushFrame(t *Thread, fn *ir.Function, args []Value, argTys []ir.Scalar, retDst int32, site ir.LocID) error {
	if len(t.frames) >= maxFrames { // as newFrame checks, before the varargs take memory
		return stackOverflow(t, fn)
	}
	varargs, err := m.varargsOf(t, fn, args, argTys)
	if err != nil {
		return err
	}
	base, err := m.newFrame(t, fn, retDst, site, varargs, nil, nil)
	if err != nil {
		return err
	}
	n := min(len(fn.Params), len(args))
	copy(t.regs[base:base+n], args[:n])
	return nil
}

// varargsOf packs the variadic arguments of a call of fn with args (of
// kinds argTys) into an object, and returns it: 0 when fn is not
// variadic.
func (s *state) varargsOf(t *Thread, fn *ir.Function, args []Value, argTys []ir.Scalar) (uint32, error) {
	if !fn.Variadic {
		return 0, nil
	}
	k := min(len(fn.Params), len(args))
	var tys []ir.Scalar
	if len(argTys) >= k {
		tys = argTys[k:]
	}
	return s.packVarargs(t, args[k:], tys)
}

// newFrame pushes a frame for fn on thread t, its registers and constants
// in place, and returns where its registers start. For a call in (enter),
// it takes the arguments from the caller's registers regs, the variadic
// ones included; without one (in nil), the caller gives varargs and
// copies the arguments (pushFrame). A direct call from exec thus makes
// one Go call, not two: about 3% of a call-heavy program's instructions
// (spectral-norm, binary-trees).
func (m *Machine) newFrame(t *Thread, fn *ir.Function, retDst int32, site ir.LocID, varargs uint32, in *ir.Inst, regs []Value) (int, error) {
	if len(t.frames) >= maxFrames {
		return 0, stackOverflow(t, fn)
	}
	if in != nil && fn.Variadic {
		id, err := m.varargsOf(t, fn, m.callArgs(in, regs), in.ArgTys)
		if err != nil {
			return 0, err
		}
		varargs = id
	}
	base := len(t.regs)
	need := base + fn.FrameSize
	if cap(t.regs) < need {
		t.growRegs(need)
	} else {
		t.regs = t.regs[:need]
		if m.sym != nil {
			// A concrete execution needs no clearing: every register is
			// written before it is read (SSA), and a stale one holds no
			// pointer. A symbolic one's could hold an expression, kept
			// alive for nothing.
			clear(t.regs[base : base+fn.NumSlots])
		}
	}
	if t.warm != t.warmAt(fn, base) {
		copyConsts(t.regs[base+fn.NumSlots:need], fn.Consts)
	}
	t.warm = warmFrame{}
	m.frameSerial++
	// The frame is made in place: appending a frame built on the stack
	// copied its 80 bytes, pointers and all, a tenth of a call-heavy
	// program's time (spectral-norm).
	n := len(t.frames)
	if n == cap(t.frames) {
		t.frames = append(t.frames, frame{})[:n]
	}
	t.frames = t.frames[:n+1]
	fr := &t.frames[n]
	fr.fn, fr.pc, fr.base, fr.allocas, fr.varargs = fn, 0, base, fr.allocas[:0], varargs
	fr.retDst, fr.callSite, fr.stack, fr.atomic, fr.serial = retDst, site, 0, false, m.frameSerial
	if m.mon != nil {
		fr.stack = unknownStack // made when a site asks for it (stackOf)
	}
	if in != nil {
		// The arguments go from the caller's registers to the callee's
		// without a buffer: the two frames do not overlap, and when the
		// register file grew above, regs still holds the caller's values.
		k := min(len(fn.Params), len(in.Args))
		copyArgs(t.regs[base:base+k], regs, in.Args[:k], m.sym != nil)
	}
	if fn.Atomic {
		fr.atomic = true
		t.atomicDepth++
		m.syncEvent(t, Acquire, keyVerifier, 0)
	}
	return base, nil
}

// The helpers below keep newFrame's common path short: a call's frame is
// about a third of a call-heavy program's time (spectral-norm), and a loop
// or a rare path written inline there made Go keep newFrame's state on
// the stack across it.

// growRegs gives t's registers room for need slots, their length need.
func (t *Thread) growRegs(need int) {
	grown := make([]Value, need, 2*need+64)
	copy(grown, t.regs)
	t.regs = grown
}

// copyConsts writes a frame's constants into its registers.
func copyConsts(dst []Value, consts []uint64) {
	for i, c := range consts {
		dst[i] = Value{Bits: c}
	}
}

// copyArgs writes a call's arguments, the caller's registers args of src,
// into the callee's first registers dst. Without a symbolic state no
// register holds an expression (regMode), so only the bits are copied:
// the whole Value's pointer needs a write-barrier check, and the call
// that check may make kept the loop's counter on the stack.
func copyArgs(dst, src []Value, args []ir.Operand, symbolic bool) {
	if !symbolic {
		for i, a := range args {
			dst[i].Bits = src[a].Bits
		}
		return
	}
	for i, a := range args {
		dst[i] = src[a]
	}
}

// unknownStack is the stack of a frame not interned yet (stackOf).
const unknownStack = ^StackID(0)

// stackOf returns the interned call stack of t's frame i, interning it,
// and those of the frames below it, on first use (internStack): a
// monitored program's calls that make no access a monitor sees (a
// recursion building a tree) cost no lookup.
func (m *Machine) stackOf(t *Thread, i int) StackID {
	if s := t.frames[i].stack; s != unknownStack {
		return s
	}
	return m.internStack(t, i)
}

// internStack interns the call stack of t's frame i, not interned yet.
func (m *Machine) internStack(t *Thread, i int) StackID {
	fr := &t.frames[i]
	var parent StackID
	if i > 0 {
		parent = m.stackOf(t, i-1)
	}
	fr.stack = m.stacks.intern(parent, fr.callSite, fr.fn)
	return fr.stack
}

// A warmFrame is where a function's frame was dropped: its constants
// (ir.Function.Consts, the slots past its NumSlots) are still in the
// registers there, past the stack's top, until another frame is made.
// A call of the same function at the same base, a loop's call of a
// small function, then finds them in place and copies none. regs is the
// registers' array: a copy or a grown one has nothing past the top.
type warmFrame struct {
	fn   *ir.Function
	base int
	regs *Value
}

// warmAt is fn's frame at base in t's registers as they are now: what
// dropFrame records and newFrame compares.
func (t *Thread) warmAt(fn *ir.Function, base int) warmFrame {
	return warmFrame{fn, base, unsafe.SliceData(t.regs)}
}

// stackOverflow is the termination of a call past maxFrames.
func stackOverflow(t *Thread, fn *ir.Function) error {
	return terminate(TermCrash, SIGSEGV, "stack overflow: %d nested calls (in %s)", len(t.frames), fn.Name)
}

// maxFrames bounds recursion; deeper recursion is reported as stack overflow.
const maxFrames = 20000

// Run executes until the program terminates and returns the result. A panic
// inside the VM is recovered and reported as an unsupported termination so a
// caller (the language server) survives it.
func (m *Machine) Run() (res *Result) {
	m.paused, m.atStop = false, false
	if m.sym != nil {
		// The solver is this run's while it runs.
		m.sym.S.Work, m.sym.S.Pinned = m.solverWork, m.sym.pin
		defer func() { m.sym.S.Work, m.sym.S.Pinned = nil, nil }()
	}
	defer func() {
		if r := recover(); r != nil {
			res = m.result(&Termination{Kind: TermUnsupported,
				Message: fmt.Sprintf("internal error in augur's interpreter: %v\n%s", r, debug.Stack())})
		}
	}()
	return m.result(m.loop())
}

func (m *Machine) result(t *Termination) *Result {
	res := &Result{Term: t, Trace: m.trace, Output: m.output, OutputOmitted: m.outOmit, Digest: m.digest,
		Inputs: m.inputs, Instructions: m.insts, Threads: len(m.threads), Havoc: m.havocked, PeakFootprint: m.peak,
		Unordered: m.unordered, OutputOrder: m.outputOrder}
	if n := m.liveThreads(); t.Kind == TermExit && n > 1 && res.Unordered == "" {
		res.Unordered = fmt.Sprintf("the program ended while %d threads ran", n)
	}
	if m.lib != nil {
		res.Missing = m.lib.Missing()
		if t.Kind != TermPaused {
			all := m.lib.Written()
			res.Digest.Files = filesDigest(all)
			res.Written = all[:min(len(all), MaxWrittenFiles)]
		}
	}
	return res
}

// loop runs threads until termination, consulting the policy at every
// preemption point.
func (m *Machine) loop() *Termination {
	if m.yieldFirst {
		m.yieldFirst = false
		if term := m.reschedule(); term != nil {
			return m.finish(term)
		}
	}
	for {
		t := m.cur
		m.sliceStart = m.insts
		end, term := m.exec(t)
		if end == stepPause && !m.atStop {
			// Paused after a fork in the middle of an instruction: it runs
			// again on resume, so it must not count yet.
			m.insts--
		}
		t.count += m.insts - m.sliceStart
		m.sliceStart = m.insts
		switch end {
		case stepPause:
			m.paused = true
			return &Termination{Kind: TermPaused, Message: "paused after a fork"}
		case stepTerm:
			return m.finish(term)
		}
		if m.pauseAt != 0 && m.decisions+1 == m.pauseAt {
			// The state is whole between two slices: a fork of it that
			// runs makes this decision first (yieldFirst), exactly as an
			// execution that never paused.
			m.paused, m.yieldFirst, m.pauseAt = true, true, 0
			return &Termination{Kind: TermPaused, Message: fmt.Sprintf("paused before decision %d", m.decisions)}
		}
		if term := m.reschedule(); term != nil {
			return m.finish(term)
		}
	}
}

// termOf is the termination an error from exec carries.
func termOf(err error) *Termination {
	var te *termError
	if errors.As(err, &te) {
		return te.t
	}
	return &Termination{Kind: TermUnsupported, Message: err.Error()}
}

// StartFunction names the thread a stack (innermost first) belongs to:
// the outermost frame of the program's own code, with own set (main, not
// the runtime's __augur_start that calls it; a std::thread's function, not
// libstdc++'s _State_impl::_M_run that calls it); failing that, the
// outermost frame outside augur's runtime; "" while the thread runs the
// runtime's code alone (before main).
func StartFunction(st []StackFrame) (name string, own bool) {
	for i := len(st) - 1; i >= 0; i-- {
		f := st[i].Loc.File
		if InRuntime(f) || f == "" && strings.HasPrefix(st[i].Function, "__augur_") {
			continue // a runtime frame not started yet has no location (a coroutine's __augur_context_return)
		}
		if !InLibrary(f) {
			return st[i].Function, true
		}
		if name == "" {
			name = st[i].Function
		}
	}
	return name, false
}

// InRuntime reports whether a source file is one of augur's runtime's: the
// build names them augur-runtime/libc/... and augur-runtime/cxx/... in the
// debug information (build.RuntimeSourceDir), which the program's loader
// may have joined to the compilation's directory; older bitcode has the
// runtime-HASH directory they are materialized in.
func InRuntime(file string) bool {
	for _, dir := range [...]string{"/augur-runtime/libc/", "/augur-runtime/cxx/"} {
		if strings.HasPrefix(file, dir[1:]) || strings.Contains(file, dir) {
			return true
		}
	}
	i := strings.Index(file, "/runtime-")
	if i < 0 {
		return false
	}
	rest := file[i+len("/runtime-"):]
	j := strings.IndexByte(rest, '/')
	return j > 0 && (strings.HasPrefix(rest[j:], "/libc/") || strings.HasPrefix(rest[j:], "/cxx/"))
}

// finish completes a termination with the position of the current thread.
func (s *state) finish(t *Termination) *Termination {
	if t.Kind == TermExit {
		s.lib.Flush()
		return t
	}
	if t.Kind != TermDeadlock && s.cur != nil {
		// A hang keeps every thread's stack, and names the current one's
		// position too.
		t.Thread = s.cur.ID
		t.Stack = s.stack(s.cur)
		if len(t.Stack) > 0 {
			t.Loc = t.Stack[0].Loc
		}
		// A failure inside augur's runtime is located at the program's
		// call into it: that is the line the user can act on.
		for _, f := range t.Stack {
			if !InRuntime(f.Loc.File) {
				t.Loc = f.Loc
				break
			}
		}
	}
	if t.Kind == TermBudget || t.Kind == TermUnsupported {
		// A budget or a call augur does not model ends the run, not the
		// program: a killed process would lose what stdio buffered, but
		// the user wants to see how far the program got.
		s.lib.Flush()
	}
	return t
}

// ProgramLoc is where the program's own code made the call at, which t
// is in: at itself when it is the program's, otherwise the call of the
// innermost frame outside augur's runtime and the system's headers (an
// std::ifstream's open is the line that opened the stream, not the
// runtime's open inside libstdc++'s template).
func (m *Machine) ProgramLoc(t *Thread, at ir.LocID) ir.LocID {
	if !InLibrary(m.prog.Loc(at).File) {
		return at
	}
	for i := len(t.frames) - 1; i >= 0; i-- {
		if fr := &t.frames[i]; fr.pc < len(fr.fn.Insts) {
			if l := fr.fn.Insts[fr.pc].Loc; l != 0 && !InLibrary(m.prog.Loc(l).File) {
				return l
			}
		}
	}
	return at
}

// InLibrary reports whether file is augur's runtime's or a system
// header's (/usr/include, /usr/lib: libstdc++'s templates, compiler
// headers), not the program's own.
func InLibrary(file string) bool {
	if InRuntime(file) {
		return true
	}
	if !strings.HasPrefix(file, "/usr/") { // before the Clean, which allocates: a report asks for every frame
		return false
	}
	f := path.Clean(file)
	return strings.HasPrefix(f, "/usr/include/") || strings.HasPrefix(f, "/usr/lib/")
}

// stack returns t's call stack, innermost first.
func (s *state) stack(t *Thread) []StackFrame {
	out := make([]StackFrame, 0, len(t.frames))
	for i := len(t.frames) - 1; i >= 0; i-- {
		fr := &t.frames[i]
		loc := fr.fn.Loc
		if fr.pc < len(fr.fn.Insts) {
			loc = s.prog.Loc(fr.fn.Insts[fr.pc].Loc)
		}
		out = append(out, StackFrame{Function: fr.fn.Name, Loc: loc})
	}
	return out
}

// othersCanRun reports whether a thread other than t could run now or
// after a sleep.
func (s *state) othersCanRun(t *Thread) bool {
	for _, o := range s.threads {
		if o != t && (o.status == runnable || o.wakeAt != 0) {
			return true
		}
	}
	return false
}

// reschedule asks the policy which thread runs next.
func (m *Machine) reschedule() *Termination {
	if m.sleepers > 0 {
		m.wakeSleepers(false)
	}
	what := m.cur.lastWhat()
	if m.passes(what) {
		return nil
	}
	m.charge(uint64(len(m.threads)) * threadWork)
	run := m.runBuf[:0]
	waits := false // a thread sleeps (wakeAt, blocked) or waits with a timeout: endingWaits has work
	for _, t := range m.threads {
		if t.status == runnable {
			run = append(run, t.ID)
		} else if t.wakeAt != 0 || t.status == blocked && t.timedWait {
			waits = true
		}
	}
	m.runBuf = run[:0]
	if len(run) == 0 {
		run = append(run, m.startClients()...)
	}
	if len(run) == 0 {
		if t := m.expireDueWait(); t != nil {
			run = append(run, t.ID)
		}
	}
	if len(run) == 0 && m.sleepers > 0 {
		run = append(run, m.wakeSleepers(true)...)
	}
	if len(run) == 0 {
		if t := m.expireTimedWait(); t != nil {
			run = append(run, t.ID)
		}
	}
	if len(run) == 0 {
		live := map[int][]StackFrame{}
		for _, t := range m.threads {
			if t.status == blocked {
				st := m.stack(t)
				if desc := m.waitDescription(t); desc != "" && len(st) > 0 {
					st[0].Function += " (waiting for " + desc + ")"
				}
				live[t.ID] = st
			}
		}
		if len(live) == 0 {
			m.lib.Flush()
			return &Termination{Kind: TermExit, Status: 0, Message: "all threads exited"}
		}
		return &Termination{Kind: TermDeadlock, Signal: 0, Threads: live,
			Message: fmt.Sprintf("all %d live threads are blocked", len(live))}
	}
	p := &m.point
	*p = sched.Point{Thread: m.cur.ID, Insts: m.insts, What: what}
	if waits {
		p.Waking = m.endingWaits()
	}
	if m.sliceEnded {
		p.What, m.sliceEnded = sched.WhatTimeSlice, false
	}
	if m.cur.status != runnable {
		p.Thread = -1
	}
	if len(m.cur.frames) > 0 {
		p.Loc = m.prog.LocString(m.cur.curLoc())
	}
	if m.forcedNext >= 0 {
		next := m.forcedNext
		m.forcedNext = -1
		m.trace.Record(p, next)
		m.switchTo(m.threads[next], p.What == sched.WhatTimeSlice)
		return nil
	}
	next, err := m.policy.Pick(p, run)
	if err != nil {
		return &Termination{Kind: TermReplay, Message: err.Error(), Err: err}
	}
	if p.Drawn {
		m.trace.Stop() // a replay draws this decision and the later ones again (sched.Spec)
	}
	m.decisions++
	if t := m.threads[next]; t.wakeAt != 0 {
		m.wakeEarly(t)
	} else if t.status == blocked && t.timedWait {
		m.timeOutEarly(t)
	}
	if sf := m.cfg.ScheduleForks; sf != nil && len(run) > 1 {
		m.forkSchedules(sf, next, run)
	}
	m.trace.Record(p, next)
	m.switchTo(m.threads[next], p.What == sched.WhatTimeSlice)
	return nil
}

// passes reports whether the current thread goes on through the point it
// reached, after a call of what, without a decision (sched.Passing, or
// Config.LockQuantumAfter once the execution made that many); a thread at
// a decision starts counting its passed points anew.
func (m *Machine) passes(what string) bool {
	t := m.cur
	if t.status == runnable && !m.sliceEnded && m.forcedNext < 0 && m.passing(what, t.passed) {
		t.passed++
		return true
	}
	t.passed = 0
	return false
}

// passing is the policy's or the lock quantum's answer for a point.
func (m *Machine) passing(what string, n int) bool {
	if q := m.cfg.LockQuantumAfter; q > 0 && m.decisions >= q && sched.PassesLock(what, n) {
		return true
	}
	pp, ok := m.policy.(sched.Passing)
	return ok && pp.Passes(what, n)
}

// switchTo makes t the running thread. Its time slice starts anew when it
// takes the processor from another thread, or when the previous slice
// ended and it was chosen again; a thread the policy keeps choosing at its
// own preemption points (spinning on an atomic) uses up its slice like one
// that never reaches one.
func (s *state) switchTo(t *Thread, sliceEnded bool) {
	if t != s.cur || sliceEnded {
		t.sliceBase = t.count
	}
	s.cur = t
}

// ScheduleForks bounds the states schedule forking creates; one is shared
// by every state of an exploration.
type ScheduleForks struct {
	MaxForks     int
	Forks        int
	ForksRefused int
}

// forkSchedules spawns, at a scheduling decision where the policy picked
// pick, one state per other runnable thread; each makes this decision
// again, choosing its thread, when it first runs.
func (m *Machine) forkSchedules(sf *ScheduleForks, pick int, run []int) {
	for _, t := range run {
		if t == pick {
			continue
		}
		if sf.Forks >= sf.MaxForks {
			sf.ForksRefused++
			continue
		}
		sf.Forks++
		child := m.fork()
		child.forcedNext = t
		child.yieldFirst = true
		child.forkSite = m.cur.curLocOr0()
		m.spawned = append(m.spawned, child)
	}
}

// curLocOr0 is the location of the thread's current instruction, or 0
// once it has exited.
func (t *Thread) curLocOr0() ir.LocID {
	if len(t.frames) == 0 {
		return 0
	}
	return t.curLoc()
}

func (t *Thread) curLoc() ir.LocID {
	fr := &t.frames[len(t.frames)-1]
	if fr.pc < len(fr.fn.Insts) {
		return fr.fn.Insts[fr.pc].Loc
	}
	return 0
}

func (t *Thread) lastWhat() string {
	if len(t.frames) == 0 {
		return "thread exit"
	}
	if t.accessGranted {
		return "memory access"
	}
	fr := &t.frames[len(t.frames)-1]
	if fr.pc > 0 && fr.pc <= len(fr.fn.Insts) {
		switch in := &fr.fn.Insts[fr.pc-1]; {
		case in.Yield:
			return "atomic or volatile access"
		case in.Op == ir.OpLoad:
			return sched.WhatAfterRead // no other point follows a plain load (Config.PreemptAfterReads)
		case in.Op == ir.OpCall && in.Callee != nil:
			return in.Callee.Name
		}
	}
	if fr.pc < len(fr.fn.Insts) {
		if in := &fr.fn.Insts[fr.pc]; in.Op == ir.OpCall && in.Callee != nil {
			return in.Callee.Name
		}
	}
	return ""
}

// expireDueWait times out, when no thread can run, the timed wait with a
// deadline (timedUntil) that comes first, if it comes no later than every
// sleeper's: virtual time jumps to it. It returns nil when a sleeper is
// due first or no wait has a deadline.
func (s *state) expireDueWait() *Thread {
	var due *Thread
	for _, t := range s.threads {
		if t.status == blocked && t.timedWait && t.timedUntil != 0 && (due == nil || t.timedUntil < due.timedUntil) {
			due = t
		}
	}
	if due == nil {
		return nil
	}
	for _, t := range s.threads {
		if t.wakeAt != 0 && t.wakeAt < due.timedUntil {
			return nil
		}
	}
	s.timeOutEarly(due)
	return due
}

// expireTimedWait wakes the lowest-numbered thread in a timed wait, with a
// timeout, when no thread can run: virtual time jumps to its deadline.
func (s *state) expireTimedWait() *Thread {
	for _, t := range s.threads {
		if t.status == blocked && t.timedWait {
			s.timeOut(t)
			return t
		}
	}
	return nil
}

// endingWaits lists, for sched.Point, the threads whose wait ends by
// itself (Waking) in the order reschedule ends them when no thread can
// run: sleeps and timed waits with a deadline, earliest first (a timed
// wait before a sleep due at the same time, as expireDueWait does), then
// the timed waits without one, lowest-numbered first. It is nil when
// there are none.
func (s *state) endingWaits() []int {
	var dated []*Thread
	var undated []int
	for _, t := range s.threads {
		switch {
		case t.wakeAt != 0:
			dated = append(dated, t)
		case t.status == blocked && t.timedWait && t.timedUntil != 0:
			dated = append(dated, t)
		case t.status == blocked && t.timedWait:
			undated = append(undated, t.ID)
		}
	}
	if len(dated) == 0 && len(undated) == 0 {
		return nil
	}
	deadline := func(t *Thread) (int64, int) {
		if t.wakeAt != 0 {
			return t.wakeAt, 1
		}
		return t.timedUntil, 0
	}
	sort.SliceStable(dated, func(i, j int) bool {
		di, ki := deadline(dated[i])
		dj, kj := deadline(dated[j])
		return di < dj || (di == dj && ki < kj)
	})
	waking := make([]int, 0, len(dated)+len(undated))
	for _, t := range dated {
		waking = append(waking, t.ID)
	}
	return append(waking, undated...)
}

// timeOutEarly ends t's timed wait because the policy chose it: virtual
// time moves to its deadline, when the call set one (the others were
// slower than the timeout), and the call sees the timeout.
func (s *state) timeOutEarly(t *Thread) {
	if now := s.now(); t.timedUntil > now {
		s.clock += t.timedUntil - now
	}
	s.timeOut(t)
}

// timeOut ends t's timed wait: it runs again and its call sees the
// timeout.
func (s *state) timeOut(t *Thread) {
	s.sync.remove(t.ID)
	t.status, t.timedOut = runnable, true
}

// DescribeAddr names the object an address points into, for messages.
func (s *state) DescribeAddr(addr uint64) string {
	o := s.mem.Object(uint32(addr >> ir.AddrShift))
	if o == nil {
		return fmt.Sprintf("0x%x", addr)
	}
	off := addr & (1<<ir.AddrShift - 1)
	d := o.describe()
	if off != 0 {
		d += fmt.Sprintf("+%d", off)
	}
	if o.Site != 0 {
		d += " allocated at " + s.prog.Loc(o.Site).String()
	}
	return d
}

// StopPoint is a point of execution: just before thread Thread executes
// the instruction that follows its first Count instructions; or, when Loc is
// set, just before it executes an instruction at source location Loc having
// executed at least Count.
type StopPoint struct {
	Thread int
	Count  uint64
	Loc    ir.LocID
}

// Reached reports whether an access its thread makes at loc, having
// executed count instructions, is the one at p: the access at exactly
// Count, or with Loc set the first at Loc from Count on.
func (p StopPoint) Reached(count uint64, loc ir.LocID) bool {
	if p.Loc != 0 {
		return loc == p.Loc && count >= p.Count
	}
	return count == p.Count
}

// StopBefore makes Run return TermPaused when execution reaches p; Run
// resumes from there when called again. nil clears it.
//
// A monitor may call it while the machine runs (to stop a thread just
// after an access it watched): a stop at a count of the running thread
// then takes effect in the slice it is in.
func (m *Machine) StopBefore(p *StopPoint) {
	m.stop = p
	m.nextCheck = m.insts + 1 // re-evaluate the limit at the next instruction
	if p != nil && p.Loc == 0 && m.cur != nil && p.Thread == m.cur.ID {
		m.run.stopAt = m.sliceStart + (p.Count - min(p.Count, m.cur.count)) + 1
	}
}

// Fork returns an independent copy of the execution as it stands (a
// checkpoint), sharing memory copy-on-write.
func (m *Machine) Fork() *Machine { return m.fork() }

// SetCancel replaces the channel whose closing stops the execution
// (Limits.Cancel): a fork run ahead of need is stopped on its own.
func (m *Machine) SetCancel(c <-chan struct{}) { m.cfg.Cancel = c }

// Cancel returns the channel whose closing stops the execution.
func (m *Machine) Cancel() <-chan struct{} { return m.cfg.Cancel }

// Interrupted reports whether the execution's cancel channel is closed or
// the analysis's deadline has passed: what a run reached since may have
// been cut short by either, and would not be reached the same way again.
func (m *Machine) Interrupted() bool { return m.cfg.Canceled() || m.cfg.Expired() != nil }

// SymbolicInputs reports whether the execution computes on symbolic
// inputs (its runs may spawn states at branches).
func (m *Machine) SymbolicInputs() bool { return m.cfg.Symbolic != nil }

// SetPolicy replaces the scheduling policy (for the rest of the run).
func (m *Machine) SetPolicy(p sched.Policy) { m.policy = p }

// PauseBeforeDecision makes Run return TermPaused just before the
// policy's decision number k (counted from 0, Pick calls): between two
// time slices, where a fork of the state goes on exactly as the paused
// execution would. A schedule enumeration branches there instead of
// re-running the prefix. k < 0 clears it; it is cleared when it pauses.
func (m *Machine) PauseBeforeDecision(k int) { m.pauseAt = max(k+1, 0) }

// StartPolicy gives an execution that has made no scheduling decision
// yet another policy, as if it had run under it from the start (no
// policy is asked anything before the first decision): a fork of a state
// paused before decision 0 can go on under any policy. Its trace names
// the new policy.
func (m *Machine) StartPolicy(p sched.Policy) error {
	if m.decisions != 0 || m.trace.Len() != 0 {
		return fmt.Errorf("vm: a new policy after %d scheduling decisions", m.decisions)
	}
	m.policy = p
	m.trace.Policy = p.Name()
	return nil
}

// MaxInstructions is the instruction budget (a total, 0 for none).
func (m *Machine) MaxInstructions() uint64 { return m.cfg.MaxInstructions }

// SetMaxInstructions changes the instruction budget (a total, 0 for none).
func (m *Machine) SetMaxInstructions(n uint64) {
	m.cfg.MaxInstructions = n
	m.nextCheck = m.insts + 1
}

// Current returns the id of the thread that runs next.
func (s *state) Current() int { return s.cur.ID }

// ThreadCount returns how many instructions thread tid has executed.
func (m *Machine) ThreadCount(tid int) uint64 {
	if tid < 0 || tid >= len(m.threads) {
		return 0
	}
	t := m.threads[tid]
	if t == m.cur {
		return t.count + m.insts - m.sliceStart
	}
	return t.count
}

// Instructions returns the instructions executed so far.
func (s *state) Instructions() uint64 { return s.insts }

// OthersCount returns how many instructions the threads other than tid
// have executed. It is exact while tid runs (a monitor told of one of its
// accesses) and between runs; inside another thread's slice it is not
// kept up to date.
func (m *Machine) OthersCount(tid int) uint64 {
	t := m.threads[tid]
	if t == m.cur {
		return m.sliceStart - t.count
	}
	return m.insts - t.count
}

// Trace returns the schedule recorded so far.
func (s *state) Trace() *sched.Trace { return s.trace }

// Output returns the output events so far.
func (s *state) Output() []OutputEvent { return s.output }

// GrantAccess lets thread tid make the access it stands at without
// yielding there first, as if it had yielded already (see accessPoint):
// classification's checkpoint stands just before the first racing
// access, and both orders make it when the thread next runs.
func (s *state) GrantAccess(tid int) {
	if tid >= 0 && tid < len(s.threads) {
		s.threads[tid].accessGranted = true
	}
}

// Yield makes the next Run start with a scheduling decision instead of
// continuing the current thread (the classifier holds a thread that stands
// at a racing access).
func (m *Machine) Yield() { m.yieldFirst = true }

// StateDigest hashes thread tid's call stack: every activation's function,
// place in it and registers. Taken by a monitor at an access (where the
// place is the access's instruction), the same digest twice with the same
// value read means the thread came back to the same state: it spins
// without progress. The place matters: two loads of one field at one
// source location (a macro's expansion) see the same registers when the
// value did not change since the last iteration.
func (s *state) StateDigest(tid int) uint64 {
	t := s.threads[tid]
	h := uint64(14695981039346656037)
	mix := func(x uint64) {
		h ^= x
		h *= 1099511628211
	}
	for i := range t.frames {
		fr := &t.frames[i]
		mix(uint64(fr.fn.ID))
		mix(uint64(fr.pc))
		for _, v := range t.regs[fr.base : fr.base+fr.fn.NumSlots] {
			mix(v.Bits)
			if v.Sym != nil {
				mix(v.Sym.ID())
			}
		}
	}
	return h
}

// SetSteadyClock makes the clock, from now on, stop counting
// instructions: time advances only by sleeps and, as each thread sees
// it, by a microsecond per read of the clock it makes. Two orders of a race then read the same times as
// long as they read the clock as often: time is an input of the program,
// and a printed duration is no consequence of the race (Portend+ treats
// such values as inputs). Classification sets it after the race.
func (s *state) SetSteadyClock() {
	if !s.steady {
		s.steady, s.steadyAt = true, s.insts
	}
}

// SetPreemptAt makes the accesses at locs (file:line:col), and as under
// any focus the atomic updates, the preemption points for the rest of the
// run, in place of Config.PreemptAt's. A replay of the run must do the
// same at the same point: the trace records the points it started with.
func (m *Machine) SetPreemptAt(locs []string) {
	m.cfg.PreemptAt = locs
	m.focus = m.prog.LocSet(locs)
}

// SetPreemptAccesses turns preemption at shared accesses on or off for
// the rest of the run (see Config.PreemptAccesses).
func (m *Machine) SetPreemptAccesses(on bool) { m.cfg.PreemptAccesses = on }

// StateHash hashes what the replay analyzer of Narayanasamy et al.
// compares: the contents of every live object and the registers of the
// given threads.
func (s *state) StateHash(threads ...int) uint64 {
	h := uint64(14695981039346656037)
	mix := func(x uint64) {
		h ^= x
		h *= 1099511628211
	}
	s.mem.each(func(o *Object) {
		if o.Freed || o.Kind == ObjFunc {
			return
		}
		mix(uint64(o.ID))
		b := o.bytes
		for ; len(b) >= 8; b = b[8:] { // a word at a time: hang probes hash big heaps
			mix(binary.LittleEndian.Uint64(b))
		}
		for _, c := range b {
			mix(uint64(c))
		}
	})
	for _, tid := range threads {
		mix(s.StateDigest(tid))
	}
	return h
}

// Threads returns the ids of the threads that exist.
func (s *state) Threads() []int {
	out := make([]int, len(s.threads))
	for i := range s.threads {
		out[i] = i
	}
	return out
}

// AtStop reports whether the last Run paused at the stop point (rather
// than after a fork).
func (m *Machine) AtStop() bool { return m.atStop }

// Policy returns the scheduling policy.
func (m *Machine) Policy() sched.Policy { return m.policy }

// SetPauseAtFork changes Config.PauseAtFork for the rest of the run.
func (m *Machine) SetPauseAtFork(on bool) { m.cfg.PauseAtFork = on }
