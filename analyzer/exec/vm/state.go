package vm

import (
	"maps"
	"slices"

	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/sched"
	"augur/analyzer/frontend/ir"
)

// The machine's split (Machine's doc): state is the execution, Machine's
// own fields the runner. A symbolic branch, a weak read with several
// values, a schedule fork and a snapshot all copy the state; the copy
// runs under a runner of its own (fork.go). A method that needs only the
// execution (memory, values, symbolic terms, frames, the library's state)
// is state's, so that it cannot read the configuration, charge a budget,
// tell the monitor or ask the policy; Machine's methods are the ones that
// do, and the exec loop. Both are called on a Machine (state's are
// promoted).

// state is what an execution is, apart from how it runs: its memory and
// threads, the instructions it ran and the synchronization events among
// them, its virtual clock, the schedule so far, what it printed and read,
// the C library's state, and its symbolic and weak-memory parts. A fork
// copies all of it (state.fork): memory copy-on-write, the rest deep.
type state struct {
	mem     *Memory
	threads []*Thread
	// threadsExited counts the threads that exited (threadExit), so that the
	// threads still live are counted without a walk over all of them.
	threadsExited int
	cur           *Thread
	insts         uint64
	// syncs counts the synchronization events, which are progress (the
	// hang watch's).
	syncs uint64
	clock int64 // virtual time in nanoseconds
	// steady, when set (SetSteadyClock), means the clock stopped following
	// the instruction count at steadyAt: time then advances by sleeps and,
	// for each thread, by a microsecond per read of its own
	// (Thread.clockReads), the same whatever the schedule.
	steady   bool
	steadyAt uint64
	trace    *sched.Trace
	// decisions counts the policy's decisions so far (Pick calls).
	decisions int
	output    []OutputEvent
	outKept   int // bytes of output in output
	outOmit   uint64
	digest    OutputDigest
	inputs    []InputEvent
	lib       Library
	sync      *syncTable
	nextKey   uint64

	// fileWrites counts the StreamFile events in output.
	fileWrites int

	// keyDtors holds each pthread key's destructor (a function address,
	// 0 for none), indexed by key - 1; a fork clones it.
	keyDtors []uint64
	stacks   *stackTable
	// sym is the symbolic part of the state, nil for a concrete run.
	sym *symState
	// weak is the weak-memory part of the state, nil under sequential
	// consistency.
	weak *memmodel.State
	// inputNames numbers the named inputs of this execution (forked with
	// it), symbolic and concrete runs alike, so replayed values find
	// their input.
	inputNames map[string]int
	// havocked lists the undefined functions havocked so far, sorted.
	havocked []string
	// sleepers counts the threads blocked in a sleep (Thread.wakeAt).
	sleepers int
	// jumps are the setjmp calls made so far (see setjmp.go); frameSerial
	// numbers activations.
	jumps       []jumpTarget
	frameSerial uint64
	// contexts are the ucontexts made and saved so far (ucontext.go).
	contexts []*ucontextEntry
	// finiDone is set once exit() has run the destructors.
	finiDone bool
	// clients is where the client programs are (clients.go).
	clients clientState
	// truncated is the last pointer the program converted to an integer
	// of fewer than 64 bits (access.go's truncationHint).
	truncated truncation
	// prog is the program this is an execution of: read-only, and shared
	// by every fork.
	prog *ir.Program
}

// fork returns a copy of s: memory shared copy-on-write, everything else
// copied but the library's state, which the machine binds to itself
// (Machine.fork). Each side's threads get new marks, s's from mine and
// the copy's from its (the runners' blocks of marks).
func (s *state) fork(mine, its *markSource) state {
	f := *s
	f.mem = s.mem.Fork()
	f.threads = make([]*Thread, len(s.threads))
	for i, t := range s.threads {
		f.threads[i] = t.clone()
		if t == s.cur {
			f.cur = f.threads[i]
		}
		// Marks of its own on each side: an object both share, quieted
		// by one, must not be quiet for the other (quiet.go).
		t.mark, f.threads[i].mark = mine.newMark(), its.newMark()
	}
	f.sync = s.sync.fork()
	f.output = s.output[:len(s.output):len(s.output)] // appends copy
	f.inputs = s.inputs[:len(s.inputs):len(s.inputs)]
	f.trace = s.trace.Fork()
	f.keyDtors = slices.Clone(s.keyDtors)
	f.contexts = forkContexts(s.contexts)
	f.stacks = s.stacks.fork()
	if s.sym != nil {
		f.sym = s.sym.fork()
	}
	if s.weak != nil {
		f.weak = s.weak.Fork()
	}
	f.inputNames = maps.Clone(s.inputNames)
	if f.inputNames == nil {
		f.inputNames = map[string]int{}
	}
	return f
}
