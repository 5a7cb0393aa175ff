package bitcode

import (
	"fmt"
	"math"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// constScalar evaluates a scalar constant to its register bits. Addresses of
// functions and globals are known because object ids are assigned before any
// constant is evaluated.
func (l *loader) constScalar(v llvm.Value) (uint64, error) {
	switch kindOf(v) {
	case kindConstantInt:
		w := uint16(v.Type().IntTypeWidth())
		if w > 64 {
			return 0, fmt.Errorf("%d-bit integer constants are not supported", w)
		}
		return v.ZExtValue() & ir.Mask(w), nil
	case kindConstantFP:
		d, _ := v.DoubleValue()
		if v.Type().TypeKind() == llvm.FloatTypeKind {
			return uint64(math.Float32bits(float32(d))), nil
		}
		return math.Float64bits(d), nil
	case kindConstantPointerNull, kindUndef, kindPoison, kindConstantAggregateZero:
		return 0, nil
	case kindFunction, kindGlobalVariable:
		id, ok := l.ids[ptrKey(v)]
		if !ok {
			return 0, fmt.Errorf("unknown global %s", v.Name())
		}
		if g := l.prog.GlobalOf[id]; g != nil && g.ThreadLocal {
			if !l.allowTLS || (l.sawTLS != 0 && l.sawTLS != id) {
				return 0, fmt.Errorf("the address of thread-local %s in a constant initializer is not supported", g.Name)
			}
			l.sawTLS = id // the caller rebases the result on the thread's copy
		}
		return ir.Addr(id, 0), nil
	case kindGlobalAlias:
		return l.constScalar(aliasee(v))
	case kindBlockAddress:
		return l.blockAddress(v.Operand(0), v.Operand(1).AsBasicBlock())
	case kindConstantExpr:
		return l.foldExpr(v)
	}
	return 0, fmt.Errorf("unsupported constant %s", typeText(v.Type()))
}

// foldExpr evaluates a constant expression.
func (l *loader) foldExpr(v llvm.Value) (uint64, error) {
	op := v.Opcode()
	arg := func(i int) (uint64, error) { return l.constScalar(v.Operand(i)) }
	width := func() uint16 {
		if v.Type().TypeKind() == llvm.IntegerTypeKind {
			return uint16(v.Type().IntTypeWidth())
		}
		return 64
	}
	switch op {
	case llvm.GetElementPtr:
		base, err := arg(0)
		if err != nil {
			return 0, err
		}
		idx := make([]llvm.Value, v.OperandsCount()-1)
		for i := range idx {
			idx[i] = v.Operand(i + 1)
		}
		off, terms, err := l.gepOffsets(v.GEPSourceElementType(), idx, nil)
		if err != nil {
			return 0, err
		}
		if len(terms) > 0 {
			return 0, fmt.Errorf("non-constant index in constant GEP")
		}
		return base + uint64(off), nil
	case llvm.BitCast, opAddrSpaceCast, llvm.IntToPtr, llvm.PtrToInt, llvm.ZExt, llvm.Trunc:
		x, err := arg(0)
		return x & ir.Mask(width()), err
	case llvm.SExt:
		x, err := arg(0)
		from := uint16(v.Operand(0).Type().IntTypeWidth())
		return uint64(ir.SExt(x, from)) & ir.Mask(width()), err
	}
	if bin, ok := binOps[op]; ok {
		a, err := arg(0)
		if err != nil {
			return 0, err
		}
		b, err := arg(1)
		if err != nil {
			return 0, err
		}
		if r, ok := ir.EvalBin(bin, a, b, width()); ok {
			return r, nil
		}
		return 0, fmt.Errorf("constant expression divides by zero")
	}
	return 0, fmt.Errorf("unsupported constant expression (opcode %d)", op)
}

// constBytes writes the memory image of constant v (of type t) into b.
func (l *loader) constBytes(v llvm.Value, t llvm.Type, b []byte) error {
	switch kindOf(v) {
	case kindConstantAggregateZero, kindConstantPointerNull, kindUndef, kindPoison:
		return nil // b is zeroed
	case kindConstantDataArray, kindConstantDataVector:
		et := t.ElementType()
		n := v.Type().ArrayLength()
		if t.TypeKind() == llvm.VectorTypeKind {
			n = t.VectorSize()
		}
		if et.TypeKind() == llvm.IntegerTypeKind && et.IntTypeWidth() == 8 {
			copy(b, v.ConstGetAsString())
			return nil
		}
		sz := l.td.TypeAllocSize(et)
		for i := 0; i < n; i++ {
			if err := l.constBytes(elementAsConstant(v, i), et, b[uint64(i)*sz:]); err != nil {
				return err
			}
		}
		return nil
	case kindConstantArray, kindConstantVector:
		et := t.ElementType()
		sz := l.td.TypeAllocSize(et)
		for i := 0; i < v.OperandsCount(); i++ {
			if err := l.constBytes(v.Operand(i), et, b[uint64(i)*sz:]); err != nil {
				return err
			}
		}
		return nil
	case kindConstantStruct:
		ets := t.StructElementTypes()
		for i := 0; i < v.OperandsCount(); i++ {
			if err := l.constBytes(v.Operand(i), ets[i], b[l.td.ElementOffset(t, i):]); err != nil {
				return err
			}
		}
		return nil
	}
	if isWide(t) && kindOf(v) == kindConstantInt {
		words, err := wideConst(v)
		if err != nil {
			return err
		}
		n := int(l.td.TypeStoreSize(t))
		ir.StoreLE(b, 8, words[0])
		ir.StoreLE(b[8:], n-8, words[1])
		return nil
	}
	s, err := scalarOf(t)
	if err != nil {
		return err
	}
	x, err := l.constScalar(v)
	if err != nil {
		return err
	}
	ir.PutScalar(b, s, x)
	return nil
}

// constFlat evaluates a constant of any first-class type into its flattened
// register values.
func (l *loader) constFlat(v llvm.Value) ([]uint64, error) {
	t := v.Type()
	if !isAggregate(t) {
		x, err := l.constScalar(v)
		return []uint64{x}, err
	}
	if isWide(t) && kindOf(v) == kindConstantInt {
		return wideConst(v)
	}
	fs, err := l.fields(t)
	if err != nil {
		return nil, err
	}
	img := make([]byte, l.td.TypeAllocSize(t))
	if err := l.constBytes(v, t, img); err != nil {
		return nil, err
	}
	out := make([]uint64, len(fs))
	for i, f := range fs {
		out[i] = ir.GetScalar(img[f.Off:], f.Scalar)
	}
	return out, nil
}
