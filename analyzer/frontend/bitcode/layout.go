package bitcode

import (
	"fmt"
	"unsafe"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// scalarOf maps a first-class non-aggregate LLVM type to a Scalar.
func scalarOf(t llvm.Type) (ir.Scalar, error) {
	switch t.TypeKind() {
	case llvm.IntegerTypeKind:
		w := t.IntTypeWidth()
		if w > 64 {
			return ir.Scalar{}, fmt.Errorf("%d-bit integers are not supported", w)
		}
		return ir.Scalar{Kind: ir.KInt, Bits: uint16(w)}, nil
	case llvm.PointerTypeKind:
		return ir.Scalar{Kind: ir.KPtr, Bits: 64}, nil
	case llvm.FloatTypeKind:
		return ir.Scalar{Kind: ir.KF32, Bits: 32}, nil
	case llvm.DoubleTypeKind:
		return ir.Scalar{Kind: ir.KF64, Bits: 64}, nil
	case llvm.X86_FP80TypeKind:
		return ir.Scalar{Kind: ir.KF80, Bits: 80}, nil
	}
	return ir.Scalar{}, fmt.Errorf("values of type %s are not supported", typeText(t))
}

// typeText is t as it is named in messages. go-llvm's Type.String panics on
// the kinds it does not name (token, which coroutines and exception
// handling use, and the newer ones), so those are named here.
func typeText(t llvm.Type) string {
	switch t.TypeKind() {
	case llvm.TokenTypeKind:
		return "token"
	case llvm.VoidTypeKind, llvm.FloatTypeKind, llvm.DoubleTypeKind, llvm.X86_FP80TypeKind, llvm.FP128TypeKind,
		llvm.PPC_FP128TypeKind, llvm.LabelTypeKind, llvm.IntegerTypeKind, llvm.FunctionTypeKind,
		llvm.StructTypeKind, llvm.ArrayTypeKind, llvm.PointerTypeKind, llvm.VectorTypeKind, llvm.MetadataTypeKind:
		return t.String()
	}
	return fmt.Sprintf("of LLVM type kind %d", t.TypeKind())
}

// fields flattens a type into its scalars with their byte offsets. Results
// are cached per type.
func (l *loader) fields(t llvm.Type) ([]ir.Field, error) {
	if f, ok := l.fieldCache[unsafe.Pointer(t.C)]; ok {
		return f, nil
	}
	var out []ir.Field
	var walk func(t llvm.Type, off uint64) error
	walk = func(t llvm.Type, off uint64) error {
		switch t.TypeKind() {
		case llvm.StructTypeKind:
			for i, et := range t.StructElementTypes() {
				if err := walk(et, off+l.td.ElementOffset(t, i)); err != nil {
					return err
				}
			}
			return nil
		case llvm.ArrayTypeKind, llvm.VectorTypeKind:
			et := t.ElementType()
			sz := l.td.TypeAllocSize(et)
			n := 0
			if t.TypeKind() == llvm.ArrayTypeKind {
				n = t.ArrayLength()
			} else {
				// A vector is held whole, as an array of its elements
				// (vector.go): what x86-64 passes float complex values
				// as (<2 x float>), and what SIMD code computes on. An
				// x86_fp80's store size is not its stride, so those
				// stay unsupported. Elements of other than whole bytes
				// (i1 masks, the result of a vector compare) are packed
				// into bits in memory: held one to a register, they
				// have no byte offsets, and a load or store of them is
				// refused (packedBits).
				if sz != l.td.TypeStoreSize(et) {
					return fmt.Errorf("values of type %s are not supported", typeText(t))
				}
				n = t.VectorSize()
			}
			if n > 1<<16 {
				return fmt.Errorf("aggregate value of %d elements is too large to hold in registers", n)
			}
			for i := 0; i < n; i++ {
				if err := walk(et, off+uint64(i)*sz); err != nil {
					return err
				}
			}
			return nil
		}
		if isWide(t) {
			fs, err := wideFields(t.IntTypeWidth())
			for _, f := range fs {
				f.Off += uint32(off)
				out = append(out, f)
			}
			return err
		}
		s, err := scalarOf(t)
		if err != nil {
			return err
		}
		out = append(out, ir.Field{Off: uint32(off), Scalar: s})
		return nil
	}
	if t.TypeKind() == llvm.VoidTypeKind {
		l.fieldCache[unsafe.Pointer(t.C)] = nil
		return nil, nil
	}
	if err := walk(t, 0); err != nil {
		return nil, err
	}
	l.fieldCache[unsafe.Pointer(t.C)] = out
	return out, nil
}

// isAggregate reports whether values of t span several registers: structs,
// arrays, vectors (held whole: movesWhole) and integers wider than 64 bits
// (see wide.go).
func isAggregate(t llvm.Type) bool {
	k := t.TypeKind()
	return k == llvm.StructTypeKind || k == llvm.ArrayTypeKind || k == llvm.VectorTypeKind || isWide(t)
}

// movesWhole reports whether instructions of opcode op only move their
// values whole (call, return, load, store, phi, the aggregate moves), which
// is all augur does with a vector: a float complex passed as <2 x float>.
// An operation on a vector's elements is another instruction.
func movesWhole(op llvm.Opcode) bool {
	switch op {
	case llvm.Call, llvm.Invoke, llvm.Ret, llvm.Load, llvm.Store, llvm.PHI, llvm.ExtractValue, llvm.InsertValue:
		return true
	}
	return false
}

// vectorOperation reports whether in computes on vectors (rather than
// moving them whole).
func vectorOperation(in llvm.Value) bool {
	if movesWhole(in.InstructionOpcode()) {
		return false
	}
	if in.Type().TypeKind() == llvm.VectorTypeKind {
		return true
	}
	for i := 0; i < in.OperandsCount(); i++ {
		if in.Operand(i).Type().TypeKind() == llvm.VectorTypeKind {
			return true
		}
	}
	return false
}

// fieldIndex returns the index of the first flattened field of the member
// selected by indices (extractvalue/insertvalue) and that member's type.
func (l *loader) fieldIndex(t llvm.Type, indices []uint32) (int, llvm.Type, error) {
	idx := 0
	for _, i := range indices {
		switch t.TypeKind() {
		case llvm.StructTypeKind:
			ets := t.StructElementTypes()
			for k := 0; k < int(i); k++ {
				f, err := l.fields(ets[k])
				if err != nil {
					return 0, t, err
				}
				idx += len(f)
			}
			t = ets[i]
		case llvm.ArrayTypeKind:
			f, err := l.fields(t.ElementType())
			if err != nil {
				return 0, t, err
			}
			idx += len(f) * int(i)
			t = t.ElementType()
		default:
			return 0, t, fmt.Errorf("index into non-aggregate %s", typeText(t))
		}
	}
	return idx, t, nil
}

// packedBits reports whether t is a vector whose elements are packed
// into bits in memory (<4 x i1>), which a load or store cannot lay out.
func packedBits(t llvm.Type) bool {
	if t.TypeKind() != llvm.VectorTypeKind {
		return false
	}
	et := t.ElementType()
	return et.TypeKind() == llvm.IntegerTypeKind && et.IntTypeWidth()%8 != 0
}
