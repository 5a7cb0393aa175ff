// Package ir is augur's own compact, interpretable form of a program,
// which package bitcode lowers LLVM bitcode into. Nothing here refers to
// LLVM: the interpreter runs without a single cgo call, and a package that
// imports ir does not link go-llvm.
//
// The lowered form follows tinygo's interp: each function is compiled once
// into a flat slice of instructions whose operands are register slots or
// indexes into a constant pool; phis become moves on the incoming edges;
// aggregates are flattened into consecutive slots; GEPs become a constant
// offset plus scaled variable indexes; every instruction carries its source
// location.
package ir

import (
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"

	"augur/analyzer/frontend/bitvec"
)

// Addresses. A pointer is the 64-bit value id<<AddrShift | offset, where id
// names a memory object (function, global, stack or heap allocation) and
// offset is the byte offset inside it. Finding the object of an address is a
// shift, so bounds and liveness checks are exact and cheap. Object 0 is the
// null object.
const AddrShift = 32

// Addr returns the address of byte off of object id.
func Addr(id uint32, off uint64) uint64 { return uint64(id)<<AddrShift | off }

// Kind is the class of a scalar value.
type Kind uint8

const (
	KInt Kind = iota // integer of Bits bits (1..64), kept zero-extended
	KPtr             // pointer (64 bits)
	KF32             // float, its IEEE bits in the low 32 bits
	KF64             // double, its IEEE bits
	KF80             // x86 long double, held as a float64 in registers
)

// Scalar describes one register-sized value.
type Scalar struct {
	Kind Kind
	Bits uint16 // width in bits for KInt; the in-memory size * 8 otherwise
}

// Size is the number of bytes the scalar occupies in memory (its store size).
func (s Scalar) Size() int {
	switch s.Kind {
	case KPtr, KF64:
		return 8
	case KF32:
		return 4
	case KF80:
		return 10
	}
	return int(s.Bits+7) / 8
}

func (s Scalar) String() string {
	switch s.Kind {
	case KPtr:
		return "ptr"
	case KF32:
		return "float"
	case KF64:
		return "double"
	case KF80:
		return "x86_fp80"
	}
	return fmt.Sprintf("i%d", s.Bits)
}

// Field is one scalar of a flattened aggregate, at a byte offset in memory.
type Field struct {
	Off uint32
	Scalar
}

// Operand names an input of an instruction: a slot of the frame. During
// lowering a negative operand refers to the constant Consts[^o]; when a
// function is complete, constants are given the slots after the registers
// (NumSlots+i holds Consts[i], copied in on entry), so after lowering every
// operand is a slot index. An aggregate operand spans as many consecutive
// slots as its type has fields.
type Operand int32

// Op is an instruction's operation.
type Op uint8

const (
	OpInvalid Op = iota
	OpRet
	OpBr     // unconditional: Targets[0]
	OpCondBr // A ? Targets[0] : Targets[1]
	OpSwitch // A compared with Cases; Targets[0] is the default (none when Sub is SwitchIndirect)
	OpUnreachable
	OpBin    // integer binary op Sub on W-bit values A, B
	OpFBin   // floating-point binary op Sub
	OpFNeg   // -A
	OpICmp   // integer predicate Sub
	OpFCmp   // floating predicate Sub
	OpCast   // cast Sub from Src to Ty
	OpSelect // A ? B : C
	OpMove   // copy N slots from A to Dst (extractvalue, insertvalue, freeze)
	OpAlloca // new stack object of Imm bytes * A elements
	OpLoad
	OpStore // *B = A
	OpGEP
	OpCall
	OpAtomicRMW // Sub is the RMW op; *A op= B, result old value
	OpCmpXchg   // *A == B ? *A = C; result {old, success}
	OpFence
	OpTLSAddr // Dst = this thread's instance of thread-local global Imm&0xffffffff, plus Imm>>32
	OpFail    // stop the execution: Program.Messages[Imm] (unsupported construct)
	// Exceptions. An OpCall with one Target is an invoke: Targets[0] is its
	// unwind edge, and the instruction after it is the branch to its
	// normal destination. OpLandingPad starts an unwind destination: Dst
	// (two slots) receives the exception object and the selector; Args are
	// its catch clauses' type_info pointers (a null one catches all); Imm
	// has LandingCleanup and LandingFilter. OpResume continues unwinding
	// with the exception in A.
	OpLandingPad
	OpResume
	// Wide integers (65 to 128 bits, two slots each, low word first; see
	// wide.go): binary op Sub on A, B; predicate Sub on A, B (Src the
	// width); cast Sub from Src to Ty (either may be narrow).
	OpWide
	OpWideCmp
	OpWideCast
	// OpCycles reads the processor's cycle counter (rdtsc): augur's
	// virtual clock, its low 32 bits into Dst and, when N is 2, its high
	// 32 bits into Dst+1 (eax and edx).
	OpCycles
	NumOps // the number of operations, for tables indexed by Op
)

var opNames = [...]string{OpInvalid: "invalid", OpRet: "ret", OpBr: "br", OpCondBr: "br", OpSwitch: "switch",
	OpUnreachable: "unreachable", OpBin: "binop", OpFBin: "fbinop", OpFNeg: "fneg", OpICmp: "icmp",
	OpFCmp: "fcmp", OpCast: "cast", OpSelect: "select", OpMove: "move", OpAlloca: "alloca",
	OpLoad: "load", OpStore: "store", OpGEP: "getelementptr", OpCall: "call",
	OpAtomicRMW: "atomicrmw", OpCmpXchg: "cmpxchg", OpFence: "fence", OpTLSAddr: "tlsaddr", OpFail: "unsupported",
	OpLandingPad: "landingpad", OpResume: "resume",
	OpWide: "wide binop", OpWideCmp: "wide icmp", OpWideCast: "wide cast", OpCycles: "rdtsc"}

// Landing pad flags (Inst.Imm of OpLandingPad).
const (
	LandingCleanup = 1 << iota // the pad runs cleanups (destructors) for any exception
	LandingFilter              // the pad has an exception specification: it handles any exception (to terminate)
)

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op%d", o)
}

// Integer binary operations (Sub of OpBin), numbered as bitvec.Op.
const (
	BinAdd  = uint8(bitvec.Add)
	BinSub  = uint8(bitvec.Sub)
	BinMul  = uint8(bitvec.Mul)
	BinUDiv = uint8(bitvec.UDiv)
	BinSDiv = uint8(bitvec.SDiv)
	BinURem = uint8(bitvec.URem)
	BinSRem = uint8(bitvec.SRem)
	BinShl  = uint8(bitvec.Shl)
	BinLShr = uint8(bitvec.LShr)
	BinAShr = uint8(bitvec.AShr)
	BinAnd  = uint8(bitvec.And)
	BinOr   = uint8(bitvec.Or)
	BinXor  = uint8(bitvec.Xor)
)

// Floating binary operations (Sub of OpFBin).
const (
	FAdd uint8 = iota
	FSub
	FMul
	FDiv
	FRem
	// FMulAdd is llvm.fmuladd: A*B+C, rounded after the multiplication
	// and after the addition, as x86-64 code compiled without FMA
	// computes it (the intrinsic lets the compiler choose either).
	FMulAdd
)

// Integer comparison predicates (Sub of OpICmp).
const (
	ICmpEQ uint8 = iota
	ICmpNE
	ICmpUGT
	ICmpUGE
	ICmpULT
	ICmpULE
	ICmpSGT
	ICmpSGE
	ICmpSLT
	ICmpSLE
)

// SwitchIndirect (Sub of OpSwitch) marks a computed goto's jump: its cases
// are the addresses of the labels it may reach, and an address that is
// none of them has no default to go to (bitcode/indirect.go).
const SwitchIndirect uint8 = 1

// Floating comparison predicates (Sub of OpFCmp), LLVM's numbering: bit 0 is
// "less", bit 1 "equal", bit 2 "greater", bit 3 "unordered".
const (
	FCmpFalse uint8 = iota
	FCmpOEQ
	FCmpOGT
	FCmpOGE
	FCmpOLT
	FCmpOLE
	FCmpONE
	FCmpORD
	FCmpUNO
	FCmpUEQ
	FCmpUGT
	FCmpUGE
	FCmpULT
	FCmpULE
	FCmpUNE
	FCmpTrue
)

// Casts (Sub of OpCast).
const (
	CastTrunc uint8 = iota
	CastZExt
	CastSExt
	CastFPTrunc
	CastFPExt
	CastFPToUI
	CastFPToSI
	CastUIToFP
	CastSIToFP
	CastPtrToInt
	CastIntToPtr
	CastBitcast
)

// Atomic read-modify-write operations (Inst.Sub of OpAtomicRMW), in
// LLVM-C's numbering (LLVMAtomicRMWBinOp): the bitcode loader checks it
// as it compiles.
const (
	RMWXchg = iota
	RMWAdd
	RMWSub
	RMWAnd
	RMWNand
	RMWOr
	RMWXor
	RMWMax
	RMWMin
	RMWUMax
	RMWUMin
	RMWFAdd
	RMWFSub
)

// Atomic orderings, C11 names (Ordering of atomic instructions).
type Ordering uint8

const (
	NotAtomic Ordering = iota
	Unordered
	Monotonic // relaxed
	Acquire
	Release
	AcqRel
	SeqCst
)

// GEPTerm is a variable GEP index: the offset grows by sext(index)*Scale.
type GEPTerm struct {
	Index Operand
	Width uint8 // bits of the index, for sign extension
	Scale int64
}

// Case is one switch arm.
type Case struct {
	Value  uint64
	Target int // index into Targets
}

// Move is one phi assignment on a control-flow edge.
type Move struct {
	Dst int32
	Src Operand
	N   int32 // slots
}

// Edge is a branch target: the first instruction of the block and the phi
// moves that entering it from this branch performs.
type Edge struct {
	PC    int
	Moves []Move
	// Parallel marks moves that must be made as one parallel assignment
	// (a move reads a slot an earlier one writes, and no order avoids
	// it: a swap). Otherwise they are ordered so that made one after
	// another they give the same result. Either way each move is of one
	// slot (N is 1): bitcode.sequenceMoves splits an aggregate's.
	Parallel bool
}

// Inst is one lowered instruction.
type Inst struct {
	Op        Op
	Sub       uint8    // BinX, FX, ICmpX, FCmpX, CastX, RMW op
	Ordering  Ordering // atomics; failure ordering of cmpxchg in Ordering2
	Ordering2 Ordering
	Volatile  bool
	Ty        Scalar // result scalar (ints: width), or accessed scalar
	Src       Scalar // source scalar of casts
	Dst       int32  // first result slot, -1 when none
	N         int32  // result slots (aggregates), operand slots for moves
	A, B, C   Operand
	Imm       int64 // GEP constant offset; alloca element size; access size of loads and stores
	// Mask is Mask(Ty.Bits) for integer results (all ones for pointers), so the interpreter
	// truncates without computing it.
	Mask uint64
	// Yield marks an atomic or volatile access, a load of a spin loop
	// (spin.go) or an inline-assembly pause (asm.go): a preemption point
	// after it executes, so a thread spinning on a flag lets the others
	// run.
	Yield bool
	// Raw marks a load or store of a scalar whose register bits are exactly
	// its Imm bytes in memory (not long double, not an odd-width integer):
	// the interpreter copies them without conversion.
	Raw bool
	// Pair marks an instruction the interpreter may run in one dispatch
	// with the next: an icmp and the conditional branch on it, a GEP and
	// the raw load or store of its address, an arithmetic instruction or a
	// store and the unconditional branch after it (see markPairs). Both
	// still count and execute as two instructions.
	Pair    bool
	Layout  []Field // load/store of an aggregate: its fields
	Terms   []GEPTerm
	Args    []Operand
	ArgTys  []Scalar // scalar of each argument (first field for aggregates)
	Targets []Edge
	Cases   []Case
	Callee  *Function // direct call target; nil for indirect calls
	Loc     LocID
}

// LocID indexes Program.Locs; 0 is "unknown".
type LocID uint32

// Loc is a source position.
type Loc struct {
	File string
	Line int
	Col  int
}

// RelPath makes a path, or a location written "path:line:col", relative
// to base when it lies inside it; reports name files relative to the
// workspace or the current directory this way.
func RelPath(p, base string) string {
	if base != "" && strings.HasPrefix(p, base+"/") {
		return p[len(base)+1:]
	}
	return p
}

// RelText makes the paths under base inside a message relative, as
// RelPath does for one path: a message that names locations reads like
// the report's other locations.
func RelText(msg, base string) string {
	if base == "" {
		return msg
	}
	return strings.ReplaceAll(msg, base+"/", "")
}

func (l Loc) String() string {
	if l.File == "" {
		return "<unknown>"
	}
	if l.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// Function is a lowered function, or a declaration the VM must model.
type Function struct {
	Name     string
	ID       uint32 // object id: the function's address is Addr(ID, 0)
	Decl     bool   // no body in the program: an external or intrinsic
	Variadic bool
	// Atomic marks an SV-COMP __VERIFIER_atomic_* function, which runs
	// without preemption as one critical section: decided here once, not
	// by its name at every call.
	Atomic    bool
	Params    []Scalar // flattened parameter scalars
	Ret       []Scalar // flattened return scalars; empty for void
	NumSlots  int      // registers: parameters and instruction results
	FrameSize int      // NumSlots plus the constants
	Insts     []Inst
	Consts    []uint64
	Loc       Loc // where it is defined
	// code is the interpreter's compact form of Insts (code.go), derived
	// from them by lowering and by the program cache, never encoded; locs
	// are the instructions' locations beside it, which every monitored
	// access reads (a dense array, not the instructions).
	code []Code
	locs []LocID
}

// Global is a global variable.
type Global struct {
	Name        string
	ID          uint32
	Size        uint64
	Align       int
	Init        []byte // initial bytes (len == Size); nil for zero-filled
	ThreadLocal bool
	Constant    bool
	External    bool // declared but not defined anywhere in the program
	Loc         Loc
}

// Program is a whole lowered program.
type Program struct {
	Funcs   []*Function
	Globals []*Global
	Locs    []Loc
	// Messages are the texts of OpFail instructions: constructs lowering
	// could not translate. They fail the execution that reaches them rather
	// than refusing the whole program.
	Messages []string
	// FuncOf and GlobalOf map the static object ids (1 to NumStatic-1) to
	// their function or global; ids from NumStatic on are free for the VM's
	// dynamic objects.
	FuncOf    []*Function
	GlobalOf  []*Global
	NumStatic uint32
	// Bitcode are the files the program was loaded from, in link order, and
	// Names the source each was compiled from (bitcode.LoadNamed): loading them
	// again gives the same program, in this process or another.
	Bitcode    []string
	Names      map[string]string
	keyOnce    sync.Once
	key        string
	byName     map[string]*Function
	globalName map[string]*Global
	// locStrings are Locs rendered as text, each made on first use: every
	// scheduling decision names its location, and formatting it each time
	// would allocate per decision. Making all of a C++ program's texts at
	// its first decision took 30 ms of its start-up.
	locStringsOnce sync.Once
	locStrings     []atomic.Pointer[string]
	// locIDs are the ids of each text, made with all the texts on the
	// first lookup by text.
	locIDsOnce sync.Once
	locIDs     map[string][]LocID
	// funcAt maps a location to the function whose code holds it, made
	// once on first use.
	funcAtOnce sync.Once
	funcAt     map[LocID]*Function
}

// NewProgram returns an empty program for a loader to fill: location 0
// is the unknown one, and functions and globals are named with NameFunc
// and NameGlobal as they are added.
func NewProgram() *Program {
	return &Program{Locs: []Loc{{}}, byName: map[string]*Function{}, globalName: map[string]*Global{}}
}

// NameFunc makes fn what Func(name) returns: under its own name, or an
// alias's.
func (p *Program) NameFunc(name string, fn *Function) { p.byName[name] = fn }

// NameGlobal makes g what GlobalByName(g.Name) returns.
func (p *Program) NameGlobal(g *Global) { p.globalName[g.Name] = g }

// ClientEntry is the name client program k's main has in a program
// linked with clients (bitcode.LinkClient).
func ClientEntry(k int) string { return fmt.Sprintf("__augur_client_main_%d", k) }

// Func returns the function named name, or nil.
func (p *Program) Func(name string) *Function { return p.byName[name] }

// Global returns the global named name, or nil.
func (p *Program) GlobalByName(name string) *Global { return p.globalName[name] }

// Loc returns the location with the given id.
func (p *Program) Loc(id LocID) Loc { return p.Locs[id] }

// InstsAt yields, in order, the indexes of f's instructions of operation
// op at source location loc: the loads or stores of a racing access, for
// the analyses that read what the program does with them.
func (p *Program) InstsAt(f *Function, op Op, loc Loc) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range f.Insts {
			if in := &f.Insts[i]; in.Op == op && p.Loc(in.Loc) == loc && !yield(i) {
				return
			}
		}
	}
}

// FuncAt returns the function whose instructions carry location id, or
// nil.
func (p *Program) FuncAt(id LocID) *Function {
	p.funcAtOnce.Do(func() {
		p.funcAt = map[LocID]*Function{}
		for _, f := range p.Funcs {
			for i := range f.Insts {
				if l := f.Insts[i].Loc; l != 0 {
					if _, ok := p.funcAt[l]; !ok {
						p.funcAt[l] = f
					}
				}
			}
		}
	})
	return p.funcAt[id]
}

// LocSet marks the location ids whose text (LocString) is one of locs,
// indexed by LocID and no longer than the largest marked id; nil when
// none is. It costs as many lookups as locs has entries: the VM calls it
// at the start of every execution of an exploration.
func (p *Program) LocSet(locs []string) []bool {
	if len(locs) == 0 {
		return nil // without making the texts: most runs name no location
	}
	p.indexLocs()
	var set []bool
	for _, l := range locs {
		for _, id := range p.locIDs[l] {
			if int(id) >= len(set) {
				set = append(set, make([]bool, int(id)+1-len(set))...)
			}
			set[id] = true
		}
	}
	return set
}

// LocOf returns the location whose text (LocString) is text, the first
// of them when several are; the zero Loc when none is.
func (p *Program) LocOf(text string) Loc {
	p.indexLocs()
	if ids := p.locIDs[text]; len(ids) > 0 {
		return p.Locs[ids[0]]
	}
	return Loc{}
}

// LocString returns the location with the given id as text, shared by every
// caller (the same string each time).
func (p *Program) LocString(id LocID) string {
	p.locStringsOnce.Do(func() { p.locStrings = make([]atomic.Pointer[string], len(p.Locs)) })
	slot := &p.locStrings[id]
	if s := slot.Load(); s != nil {
		return *s
	}
	s := p.Locs[id].String()
	if !slot.CompareAndSwap(nil, &s) {
		return *slot.Load() // another goroutine made it first
	}
	return s
}

// indexLocs makes locIDs, the ids of each location's text.
func (p *Program) indexLocs() {
	p.locIDsOnce.Do(func() {
		p.locIDs = make(map[string][]LocID, len(p.Locs))
		for i := range p.Locs {
			text := p.LocString(LocID(i))
			p.locIDs[text] = append(p.locIDs[text], LocID(i))
		}
	})
}
