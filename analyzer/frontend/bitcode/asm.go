package bitcode

import (
	"fmt"
	"strconv"
	"strings"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// Inline assembly. augur interprets LLVM IR, not machine code, but C code
// that synchronizes by hand uses a handful of x86 idioms, one instruction
// each: compiler barriers, pause, the fences, lock-prefixed
// read-modify-writes, xchg, rdtsc and cpuid, the read-modify-writes
// sometimes followed by a set<cc> of the zero flag they leave. Those are
// lowered to the IR instructions that mean the same (an atomicrmw for
// `lock; xaddl`, a fence for `mfence`), so the detector and the scheduler
// see them as the atomic operations they are. Any other assembly stays a
// failure at its call that names it (the run is INCOMPLETE there).

// asmCall is an inline-assembly call being lowered: its template, its
// operands in the template's numbering, and the call's arguments.
type asmCall struct {
	fl       *fnLowerer
	template string
	ops      []asmOperand
	args     []ir.Operand // the call's arguments, lowered
	argTys   []llvm.Type
	// zf makes the zero flag the instruction left, as an i1 operand, when
	// it sets one (asmFlags reads it); nil otherwise.
	zf func() ir.Operand
}

// asmOperand is one operand of the template ($N): a direct output (a
// field of the call's result), an indirect output or memory input (a
// pointer argument), or a value input (an argument).
type asmOperand struct {
	output   bool
	field    int  // direct output: the field of the result
	indirect bool // memory through a pointer argument
	arg      int  // the argument, for indirect outputs and inputs; -1 none
	reg      string
	tied     int // direct output: the argument of its tied input, -1 none
}

// parseAsm reads the template and constraints of an inline asm value from
// its printed form (LLVM 14's C API has no accessors for them):
// `<type> asm [sideeffect] [alignstack] [inteldialect] "template", "constraints"`.
func parseAsm(callee llvm.Value) (template, constraints string, intel bool, err error) {
	s := callee.String()
	intel = strings.Contains(s, " inteldialect ")
	i := strings.Index(s, " asm ")
	if i < 0 {
		return "", "", false, fmt.Errorf("unreadable inline assembly %q", s)
	}
	rest := s[i+len(" asm "):]
	var parts []string
	for len(parts) < 2 {
		q := strings.IndexByte(rest, '"')
		if q < 0 {
			return "", "", false, fmt.Errorf("unreadable inline assembly %q", s)
		}
		rest = rest[q+1:]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return "", "", false, fmt.Errorf("unreadable inline assembly %q", s)
		}
		parts = append(parts, unescapeLLVM(rest[:end]))
		rest = rest[end+1:]
	}
	return parts[0], parts[1], intel, nil
}

// unescapeLLVM undoes the \XX hex escapes of LLVM's string syntax.
func unescapeLLVM(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseConstraints numbers the operands of a constraint string: outputs
// first (direct ones are the fields of the result, indirect ones take an
// argument), then inputs (each takes an argument); clobbers take nothing.
func parseConstraints(c string) ([]asmOperand, error) {
	var ops []asmOperand
	arg, field := 0, 0
	for _, part := range strings.Split(c, ",") {
		if part == "" || strings.HasPrefix(part, "~") {
			continue
		}
		op := asmOperand{arg: -1, tied: -1}
		if strings.HasPrefix(part, "=") {
			op.output = true
			part = strings.TrimLeft(part[1:], "&")
		}
		if strings.HasPrefix(part, "*") {
			op.indirect, part = true, part[1:]
		}
		// An input tied to an output may name its register too: "0{ax}"
		// (from "0a", as macro packages write it).
		tie := part[:len(part)-len(strings.TrimLeft(part, "0123456789"))]
		part = part[len(tie):]
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			op.reg = part[1 : len(part)-1]
		} else if part == "a" || part == "A" || part == "b" || part == "c" || part == "d" {
			op.reg = map[string]string{"a": "ax", "A": "ax", "b": "bx", "c": "cx", "d": "dx"}[part]
		}
		switch {
		case op.output && !op.indirect:
			op.field = field
			field++
		default:
			op.arg = arg
			arg++
		}
		if !op.output && !op.indirect && tie != "" {
			n, _ := strconv.Atoi(tie) // tied to output n
			if n >= len(ops) || !ops[n].output || ops[n].indirect {
				return nil, fmt.Errorf("inline assembly constraint %q ties to no output", tie+part)
			}
			ops[n].tied = op.arg
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// lowerAsm lowers a call of inline assembly whose idiom augur knows, or
// reports the assembly it does not.
func (fl *fnLowerer) lowerAsm(in, callee llvm.Value, out ir.Inst) error {
	tmpl, cons, intel, err := parseAsm(callee)
	if err != nil {
		return err
	}
	unknown := fmt.Errorf("inline assembly %q is not supported", strings.TrimSpace(tmpl))
	if intel {
		return unknown
	}
	ops, err := parseConstraints(cons)
	if err != nil {
		return err
	}
	a := &asmCall{fl: fl, template: tmpl, ops: ops}
	for i := 0; i < in.OperandsCount()-1; i++ {
		a.args = append(a.args, fl.operand(in.Operand(i)))
		a.argTys = append(a.argTys, in.Operand(i).Type())
	}
	fields := 0
	if t := in.Type(); t.TypeKind() != llvm.VoidTypeKind {
		n, err := fl.count(t)
		if err != nil {
			return err
		}
		fields = int(n)
	}
	words, setcc, ok := asmWords(tmpl)
	if !ok {
		return unknown
	}
	if len(words) == 0 {
		return fl.asmDone(a, out, nil) // a compiler barrier, or nothing
	}
	mn, operands := words[0], words[1:]
	written, err := fl.asmInst(a, out, mn, operands, fields)
	if err == nil {
		err = fl.asmFlags(a, out, setcc, written)
	}
	if err == errUnknownAsm {
		return unknown
	}
	if err != nil {
		return err
	}
	return fl.asmDone(a, out, written)
}

// asmFlags writes the outputs that read the zero flag the instruction
// left: flag outputs ("=@ccz", "=@ccnz", and e for z), and the register
// of a `sete`/`setz`/`setne`/`setnz` after the instruction (setcc, the
// mnemonic and its operand; nil when there is none), the two ways C code
// learns whether a compare-and-swap took or a count reached zero.
func (fl *fnLowerer) asmFlags(a *asmCall, out ir.Inst, setcc []string, written map[int]bool) error {
	type flagOut struct {
		op     int
		negate bool
	}
	var outs []flagOut
	for i, op := range a.ops {
		if cc, ok := strings.CutPrefix(op.reg, "@cc"); ok && op.output && !op.indirect {
			negate, ok := zeroConds[cc]
			if !ok {
				return errUnknownAsm
			}
			outs = append(outs, flagOut{i, negate})
		}
	}
	if setcc != nil {
		// The register may be memory ("=qm", which clang -O0 makes an
		// indirect output): the byte is stored there.
		negate, ok := zeroConds[strings.TrimPrefix(setcc[0], "set")]
		n, isRef := operandRef(setcc[1])
		if !ok || !isRef || n >= len(a.ops) || !a.ops[n].output || a.ops[n].indirect && asmPointee(a.argTys[a.ops[n].arg]) != 8 {
			return errUnknownAsm
		}
		outs = append(outs, flagOut{n, negate})
	}
	if len(outs) == 0 {
		return nil
	}
	if a.zf == nil {
		return errUnknownAsm // no zero flag augur follows
	}
	zf := a.zf()
	bit := ir.Scalar{Kind: ir.KInt, Bits: 1}
	for _, f := range outs {
		v := zf
		if f.negate {
			v = ir.Operand(fl.temp())
			fl.emit(ir.Inst{Op: ir.OpICmp, Sub: ir.ICmpEQ, Dst: int32(v), N: 1, Ty: bit, Src: bit, Imm: 63,
				A: zf, B: ir.Operand(^fl.constSlot(0))})
		}
		if op := a.ops[f.op]; op.indirect {
			fl.emit(ir.Inst{Op: ir.OpStore, Dst: -1, N: 1, A: v, B: a.args[op.arg], Ty: ir.Scalar{Kind: ir.KInt, Bits: 8}, Imm: 1})
		} else {
			fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(op.field), N: 1, A: v})
		}
		written[f.op] = true
	}
	return nil
}

// zeroConds are the condition codes of the zero flag, and whether each
// is its negation.
var zeroConds = map[string]bool{"z": false, "e": false, "nz": true, "ne": true}

var errUnknownAsm = fmt.Errorf("unknown inline assembly")

// asmWords splits a one-instruction template into its mnemonic and
// operands, without a lock prefix (lock-prefixed instructions are lowered
// as atomic, as are xchg's without one). An empty template gives no
// words; ok is false for several instructions (not an idiom), but for one
// followed by a set<cc> of the flag it leaves, whose mnemonic and operand
// are setcc.
func asmWords(tmpl string) (words, setcc []string, ok bool) {
	var stmts []string
	for _, st := range strings.FieldsFunc(tmpl, func(r rune) bool { return r == ';' || r == '\n' }) {
		if st = strings.TrimSpace(st); st != "" {
			stmts = append(stmts, st)
		}
	}
	if len(stmts) >= 2 && (stmts[0] == "lock" || stmts[0] == "rep") {
		stmts = append([]string{stmts[0] + " " + stmts[1]}, stmts[2:]...)
	}
	if len(stmts) == 0 {
		return nil, nil, true
	}
	if len(stmts) == 2 {
		if f := strings.Fields(stmts[1]); len(f) == 2 && strings.HasPrefix(f[0], "set") {
			setcc, stmts = f, stmts[:1]
		}
	}
	if len(stmts) > 1 {
		return nil, nil, false
	}
	fs := strings.Fields(stmts[0])
	if fs[0] == "lock" {
		fs = fs[1:]
	}
	if len(fs) == 2 && fs[0] == "rep" && fs[1] == "nop" {
		return []string{"pause"}, setcc, true
	}
	if len(fs) == 0 {
		return nil, nil, false
	}
	// Operands are separated by commas, spaces optional.
	words = []string{fs[0]}
	for _, o := range strings.Split(strings.Join(fs[1:], ""), ",") {
		if o != "" {
			words = append(words, o)
		}
	}
	return words, setcc, true
}

// asmDone completes the outputs the instruction did not write: a
// direct output tied to an input keeps the input's value ("+r"); any other
// is assembly augur does not follow.
func (fl *fnLowerer) asmDone(a *asmCall, out ir.Inst, written map[int]bool) error {
	for i, op := range a.ops {
		if !op.output || op.indirect || written[i] {
			continue
		}
		if op.tied < 0 {
			return fmt.Errorf("inline assembly %q: output %d is not understood", strings.TrimSpace(a.template), i)
		}
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(op.field), N: 1, A: a.args[op.tied]})
	}
	return nil
}

// asmWidth is the operand size an AT&T mnemonic's suffix gives, with the
// mnemonic without it; 0 when it has none.
func asmWidth(mn string, bases ...string) (string, int) {
	for _, b := range bases {
		if mn == b {
			return b, 0
		}
		if strings.HasPrefix(mn, b) && len(mn) == len(b)+1 {
			switch mn[len(b)] {
			case 'b':
				return b, 8
			case 'w':
				return b, 16
			case 'l':
				return b, 32
			case 'q':
				return b, 64
			}
		}
	}
	return "", 0
}

// fenceOrderings are the x86 fence instructions' orderings, written in
// assembly or with their intrinsics (x86Fences).
var fenceOrderings = map[string]ir.Ordering{"mfence": ir.SeqCst, "lfence": ir.Acquire, "sfence": ir.Release}

// x86Fences are the intrinsics of the fence instructions (_mm_mfence,
// _mm_lfence, _mm_sfence), lowered as the instructions are.
var x86Fences = map[string]string{"llvm.x86.sse2.mfence": "mfence", "llvm.x86.sse2.lfence": "lfence", "llvm.x86.sse.sfence": "sfence"}

// rmwOps are the lock-prefixed arithmetic instructions and their atomicrmw
// operations.
var rmwOps = map[string]uint8{"add": ir.RMWAdd, "sub": ir.RMWSub, "and": ir.RMWAnd, "or": ir.RMWOr, "xor": ir.RMWXor}

// asmInst lowers one instruction of a known idiom, returning the operands
// (by index) whose outputs it wrote; errUnknownAsm for any other.
func (fl *fnLowerer) asmInst(a *asmCall, out ir.Inst, mn string, args []string, fields int) (map[int]bool, error) {
	written := map[int]bool{}
	switch mn {
	case "nop":
		if len(args) != 0 {
			return nil, errUnknownAsm
		}
		return written, nil
	case "pause":
		// A pause sits in spin loops, often in a function of its own
		// (cpu_relax) that makes the loop's call: it is a preemption
		// point, as _mm_pause is, so the thread the loop waits for runs
		// at once instead of after a time slice. It orders nothing: a
		// fence of Monotonic ordering, which makes no sync event.
		if len(args) != 0 {
			return nil, errUnknownAsm
		}
		fl.emit(ir.Inst{Op: ir.OpFence, Dst: -1, Ordering: ir.Monotonic, Yield: true})
		return written, nil
	case "mfence", "lfence", "sfence":
		if len(args) != 0 {
			return nil, errUnknownAsm
		}
		fl.emit(ir.Inst{Op: ir.OpFence, Dst: -1, Ordering: fenceOrderings[mn]})
		return written, nil
	case "rdtsc", "rdtscp":
		return fl.asmCycles(a, out, fields)
	case "cpuid":
		// A processor with no optional features: every leaf reads 0, so
		// code that probes for features takes its plain path.
		for i, op := range a.ops {
			if op.output && !op.indirect {
				fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(op.field), N: 1, A: ir.Operand(^fl.constSlot(0))})
				written[i] = true
			}
		}
		return written, nil
	}
	if base, w := asmWidth(mn, "xadd", "xchg", "cmpxchg", "inc", "dec", "add", "sub", "and", "or", "xor"); base != "" {
		return fl.asmRMW(a, out, base, w, args, written)
	}
	return nil, errUnknownAsm
}

// asmRMW lowers a read-modify-write of memory: lock xadd, xchg, lock
// cmpxchg, lock inc/dec/add/sub/and/or/xor; and `lock; orl $0,(%rsp)`, the
// full fence of code that predates mfence.
func (fl *fnLowerer) asmRMW(a *asmCall, out ir.Inst, base string, width int, args []string, written map[int]bool) (map[int]bool, error) {
	if (base == "or" || base == "add") && len(args) == 2 && args[0] == "$$0" && strings.Contains(args[1], "(%rsp)") {
		fl.emit(ir.Inst{Op: ir.OpFence, Dst: -1, Ordering: ir.SeqCst})
		return written, nil
	}
	// The memory operand is the last one (AT&T: destination last); xchg
	// takes it on either side.
	mem := len(args) - 1
	if base == "xchg" && len(args) == 2 {
		if _, _, ok := a.memory(args[0]); ok {
			mem = 0
		}
	}
	ptr, ptrTy, ok := a.memory(args[mem])
	if !ok {
		return nil, errUnknownAsm
	}
	if width == 0 && len(args) == 2 {
		// No suffix: the register operand's size is the operation's (a
		// 32-bit register against a long compares and swaps its low
		// half), and the memory's when only it has a size.
		width = a.regWidth(args[1-mem])
	}
	if width == 0 {
		width = asmPointee(ptrTy)
	}
	if width == 0 {
		return nil, errUnknownAsm
	}
	ty := ir.Scalar{Kind: ir.KInt, Bits: uint16(width)}
	tmp := int32(fl.fn.NumSlots)
	fl.fn.NumSlots += 2
	switch base {
	case "inc", "dec":
		if len(args) != 1 {
			return nil, errUnknownAsm
		}
		sub := uint8(ir.RMWAdd)
		if base == "dec" {
			sub = ir.RMWSub
		}
		one := ir.Operand(^fl.constSlot(1))
		fl.emit(ir.Inst{Op: ir.OpAtomicRMW, Sub: sub, Dst: tmp, N: 1, Ty: ty, A: ptr, B: one, Ordering: ir.SeqCst, Imm: int64(ty.Size())})
		a.zf = fl.resultIsZero(sub, ty, tmp, one)
		return written, nil
	case "cmpxchg":
		if len(args) != 2 {
			return nil, errUnknownAsm
		}
		acc := a.byReg("ax")
		repl, _, ok := a.value(args[0])
		if acc < 0 || !ok || a.ops[acc].tied < 0 {
			return nil, errUnknownAsm
		}
		fl.emit(ir.Inst{Op: ir.OpCmpXchg, Dst: tmp, N: 2, Ty: ty, A: ptr, B: a.args[a.ops[acc].tied], C: repl,
			Ordering: ir.SeqCst, Ordering2: ir.SeqCst, Imm: int64(ty.Size())})
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(a.ops[acc].field), N: 1, A: ir.Operand(tmp)})
		written[acc] = true
		a.zf = func() ir.Operand { return ir.Operand(tmp + 1) } // set when the swap took
		return written, nil
	}
	if len(args) != 2 {
		return nil, errUnknownAsm
	}
	src := args[1-mem]
	val, reg, ok := a.value(src)
	if !ok {
		return nil, errUnknownAsm
	}
	sub := rmwOps[base]
	if base == "xadd" {
		sub = ir.RMWAdd
	}
	if base == "xchg" {
		sub = ir.RMWXchg
	}
	dst := tmp
	if (base == "xadd" || base == "xchg") && reg >= 0 && a.ops[reg].output && !a.ops[reg].indirect {
		dst = out.Dst + int32(a.ops[reg].field) // the register gets the old value
		written[reg] = true
	}
	fl.emit(ir.Inst{Op: ir.OpAtomicRMW, Sub: sub, Dst: dst, N: 1, Ty: ty, A: ptr, B: val, Ordering: ir.SeqCst, Imm: int64(ty.Size())})
	if base != "xchg" { // xchg leaves the flags alone
		a.zf = fl.resultIsZero(sub, ty, dst, val)
	}
	return written, nil
}

// rmwResults are the binary operations that make an atomicrmw's new value
// from the old one.
var rmwResults = map[uint8]uint8{ir.RMWAdd: ir.BinAdd, ir.RMWSub: ir.BinSub, ir.RMWAnd: ir.BinAnd, ir.RMWOr: ir.BinOr, ir.RMWXor: ir.BinXor}

// resultIsZero returns what makes the zero flag of a read-modify-write
// sub of width ty whose old value is in slot old and operand is val: an
// i1 that is set when the new value is 0 (the instruction's flags are
// those of its result), computed when a flag output asks for it.
func (fl *fnLowerer) resultIsZero(sub uint8, ty ir.Scalar, old int32, val ir.Operand) func() ir.Operand {
	bin, ok := rmwResults[sub]
	if !ok {
		return nil
	}
	return func() ir.Operand {
		tmp := int32(fl.fn.NumSlots)
		fl.fn.NumSlots += 2
		fl.emit(ir.Inst{Op: ir.OpBin, Sub: bin, Dst: tmp, N: 1, Ty: ty, A: ir.Operand(old), B: val})
		fl.emit(ir.Inst{Op: ir.OpICmp, Sub: ir.ICmpEQ, Dst: tmp + 1, N: 1, Ty: ir.Scalar{Kind: ir.KInt, Bits: 1}, Src: ty,
			Imm: int64(64 - ty.Bits), A: ir.Operand(tmp), B: ir.Operand(^fl.constSlot(0))})
		return ir.Operand(tmp + 1)
	}
}

// asmCycles lowers rdtsc (and rdtscp, whose processor number reads 0):
// the virtual cycle counter into edx:eax, or its low half into the eax
// operand alone (x86-64 binds "=A" to rax only).
func (fl *fnLowerer) asmCycles(a *asmCall, out ir.Inst, fields int) (map[int]bool, error) {
	written := map[int]bool{}
	lo, hi, cx := a.byReg("ax"), a.byReg("dx"), a.byReg("cx")
	switch {
	case lo >= 0 && hi >= 0 && fields >= 2:
		tmp := int32(fl.fn.NumSlots)
		fl.fn.NumSlots += 2
		fl.emit(ir.Inst{Op: ir.OpCycles, Dst: tmp, N: 2})
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(a.ops[lo].field), N: 1, A: ir.Operand(tmp)})
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(a.ops[hi].field), N: 1, A: ir.Operand(tmp + 1)})
		written[lo], written[hi] = true, true
	case lo >= 0 && hi < 0:
		fl.emit(ir.Inst{Op: ir.OpCycles, Dst: out.Dst + int32(a.ops[lo].field), N: 1})
		written[lo] = true
	default:
		return nil, errUnknownAsm
	}
	if cx >= 0 && a.ops[cx].output {
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: out.Dst + int32(a.ops[cx].field), N: 1, A: ir.Operand(^fl.constSlot(0))})
		written[cx] = true
	}
	return written, nil
}

// asmPointee is the width in bits of the integer a pointer argument points
// to, when its type says (typed pointers, LLVM 14); 0 otherwise.
func asmPointee(t llvm.Type) int {
	if t.TypeKind() != llvm.PointerTypeKind {
		return 0
	}
	return asmIntWidth(t.ElementType())
}

// asmIntWidth is the width in bits of integer type t when it is a
// register's (8, 16, 32 or 64); 0 otherwise.
func asmIntWidth(t llvm.Type) int {
	if t.TypeKind() != llvm.IntegerTypeKind {
		return 0
	}
	switch w := t.IntTypeWidth(); w {
	case 8, 16, 32, 64:
		return w
	}
	return 0
}

// operandRef reads "$N" or "${N:mod}" as operand N.
func operandRef(s string) (int, bool) {
	if !strings.HasPrefix(s, "$") || strings.HasPrefix(s, "$$") {
		return 0, false
	}
	s = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(s, "$"), "}"), "{")
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// memory returns the address a memory operand names: "$N" of an indirect
// operand, or "($N)" / "0($N)" of a register holding a pointer.
func (a *asmCall) memory(s string) (ir.Operand, llvm.Type, bool) {
	if n, ok := operandRef(s); ok && n < len(a.ops) && a.ops[n].indirect {
		return a.args[a.ops[n].arg], a.argTys[a.ops[n].arg], true
	}
	if i := strings.IndexByte(s, '('); i >= 0 && strings.HasSuffix(s, ")") && (s[:i] == "" || s[:i] == "0") {
		if n, ok := operandRef(s[i+1 : len(s)-1]); ok && n < len(a.ops) {
			op := a.ops[n]
			if !op.indirect && op.arg >= 0 {
				return a.args[op.arg], a.argTys[op.arg], true
			}
			if !op.indirect && op.tied >= 0 {
				return a.args[op.tied], a.argTys[op.tied], true
			}
		}
	}
	return 0, llvm.Type{}, false
}

// value returns the value a source operand holds: an immediate "$$k", or
// "$N" of an input or of a direct output with its tied input (whose index
// it also returns; -1 for an immediate).
func (a *asmCall) value(s string) (ir.Operand, int, bool) {
	if strings.HasPrefix(s, "$$") {
		k, err := strconv.ParseInt(s[2:], 0, 64)
		if err != nil {
			return 0, -1, false
		}
		return ir.Operand(^a.fl.constSlot(uint64(k))), -1, true
	}
	n, ok := operandRef(s)
	if !ok || n >= len(a.ops) {
		return 0, -1, false
	}
	op := a.ops[n]
	switch {
	case op.indirect:
		return 0, -1, false
	case op.output && op.tied >= 0:
		return a.args[op.tied], n, true
	case !op.output:
		return a.args[op.arg], n, true
	}
	return 0, -1, false
}

// regWidth is the width in bits of the register operand "$N" names (an
// input, or a direct output through its tied input); 0 when s is no
// register operand or its type is no integer of a register's size.
func (a *asmCall) regWidth(s string) int {
	n, ok := operandRef(s)
	if !ok || n >= len(a.ops) || a.ops[n].indirect {
		return 0
	}
	arg := a.ops[n].arg
	if a.ops[n].output {
		arg = a.ops[n].tied
	}
	if arg < 0 {
		return 0
	}
	return asmIntWidth(a.argTys[arg])
}

// byReg returns the index of the operand bound to register r, preferring
// an output; -1 when none is.
func (a *asmCall) byReg(r string) int {
	found := -1
	for i, op := range a.ops {
		if op.reg == r {
			if op.output {
				return i
			}
			if found < 0 {
				found = i
			}
		}
	}
	return found
}
