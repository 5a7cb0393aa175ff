package bitcode

import (
	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// This file holds the lowering's work on the interpreter's instruction
// count: clang -O0 code spends a large share of its instructions on
// bookkeeping the interpreter can do without, and every instruction it
// does not emit is a dispatch saved on every execution. None of it touches
// a memory access or a synchronization: the races, their locations and
// their orders are those of the source.

// indexExtension reports whether v is a sign extension whose every user is
// a getelementptr that takes it as an index. Such an extension is not
// emitted: the GEP's term sign-extends the narrower index itself (GEPTerm
// carries its width), which is what the extension computed. clang -O0 emits
// one before every array index of type int.
func indexExtension(v llvm.Value) bool {
	if v.IsAInstruction().IsNil() || v.InstructionOpcode() != llvm.SExt {
		return false
	}
	src := v.Operand(0).Type()
	if src.TypeKind() != llvm.IntegerTypeKind || src.IntTypeWidth() > 64 || v.Type().IntTypeWidth() != 64 {
		return false
	}
	u := v.FirstUse()
	if u.IsNil() {
		return false // unused: emitted as before, nothing to fold into
	}
	for ; !u.IsNil(); u = u.NextUse() {
		user := u.User()
		if user.IsAGetElementPtrInst().IsNil() || user.Operand(0) == v || user.Type().TypeKind() != llvm.PointerTypeKind {
			return false
		}
	}
	return true
}

// gepIndexes returns the index operands of a GEP, each folded extension
// (indexExtension) replaced by the value it extends.
func gepIndexes(in llvm.Value) []llvm.Value {
	idx := make([]llvm.Value, in.OperandsCount()-1)
	for i := range idx {
		x := in.Operand(i + 1)
		if indexExtension(x) {
			x = x.Operand(0)
		}
		idx[i] = x
	}
	return idx
}

// fallsThrough reports whether an unconditional branch from block bi needs
// no instruction: it goes to the block laid out right after bi (e.PC still
// holds a block index) and assigns no phi. The loop latches and join
// blocks of clang -O0 code end this way.
func fallsThrough(e ir.Edge, bi int) bool { return e.PC == bi+1 && len(e.Moves) == 0 }

// addressStep reports whether v is a GEP whose every user is a GEP taking
// it as its pointer. Such a GEP is not emitted: each user adds its offset
// and terms to its own (address folds the chain), which computes the same
// address. clang -O0 writes p->f[i] as a GEP to the field and a GEP into
// it; the interpreter runs one.
func addressStep(v llvm.Value) bool {
	if v.IsAGetElementPtrInst().IsNil() || v.Type().TypeKind() != llvm.PointerTypeKind {
		return false
	}
	u := v.FirstUse()
	if u.IsNil() {
		return false
	}
	for ; !u.IsNil(); u = u.NextUse() {
		user := u.User()
		if user.IsAGetElementPtrInst().IsNil() || user.Type().TypeKind() != llvm.PointerTypeKind || user.Operand(0) != v {
			return false
		}
	}
	return true
}

// address lowers the address a GEP computes, folding the GEPs it is built
// on that addressStep leaves out: the base pointer, the constant offset
// and the variable terms.
func (fl *fnLowerer) address(g llvm.Value) (ir.Operand, int64, []ir.GEPTerm, error) {
	off, terms, err := fl.l.gepOffsets(g.GEPSourceElementType(), gepIndexes(g), fl.operand)
	if err != nil {
		return 0, 0, nil, err
	}
	ptr := g.Operand(0)
	if !addressStep(ptr) {
		return fl.operand(ptr), off, terms, nil
	}
	base, inner, innerTerms, err := fl.address(ptr)
	if err != nil {
		return 0, 0, nil, err
	}
	return base, inner + off, append(innerTerms, terms...), nil
}
