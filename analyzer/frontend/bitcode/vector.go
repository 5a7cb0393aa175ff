package bitcode

import (
	"fmt"
	"strings"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// Vectors (SIMD). A vector value is held as its elements, one register
// each (layout.go's fields), as a struct of them would be; loads, stores,
// calls and returns move it whole. An instruction that computes on vectors
// is lowered here into one scalar instruction per element: arithmetic,
// casts, compares and selects element by element; extractelement,
// insertelement and shufflevector as moves (a variable index as a chain of
// selects); a bitcast that changes the elements' width by shifting their
// bits into the new elements. So a program's SSE intrinsics and
// vector_size arithmetic run as the same operations on scalars, and the
// race detector sees a vector load or store as the access of its bytes.

// vectorShape is the element count and element type of vector type t.
func vectorShape(t llvm.Type) (int, ir.Scalar, error) {
	s, err := scalarOf(t.ElementType())
	return t.VectorSize(), s, err
}

// into returns the registers a lowering that reads the operands of in
// writes its result of n registers to, and the step that ends it. The
// slots of a value go to the result of its last use, which one
// instruction reads and writes at once; a sequence would overwrite the
// value's later elements before it read them. So when the result's
// registers overlap an operand's, the sequence writes fresh ones and done
// moves them into place.
func (fl *fnLowerer) into(in llvm.Value, dst int32, n int) (int32, func()) {
	overlaps := false
	for i := 0; i < in.OperandsCount(); i++ {
		v := in.Operand(i)
		k := kindOf(v)
		if k != kindArgument && k != kindInstruction {
			continue
		}
		o, c := fl.slots[ptrKey(v)], int32(1)
		if isAggregate(v.Type()) {
			c, _ = fl.count(v.Type())
		}
		if o < dst+int32(n) && dst < o+c {
			overlaps = true
		}
	}
	if !overlaps {
		return dst, func() {}
	}
	base := int32(fl.fn.NumSlots)
	fl.fn.NumSlots += n
	return base, func() { fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst, N: int32(n), A: ir.Operand(base)}) }
}

// lowerVector lowers in, an instruction that computes on vectors.
func (fl *fnLowerer) lowerVector(in llvm.Value, op llvm.Opcode) error {
	dst := fl.dst(in)
	switch op {
	case llvm.ExtractElement:
		return fl.extractElement(in, dst)
	case llvm.InsertElement:
		return fl.insertElement(in, dst)
	case llvm.ShuffleVector:
		return fl.shuffle(in, dst)
	case llvm.BitCast:
		return fl.vectorBitcast(in, dst)
	}
	if !elementwise(op) {
		return fmt.Errorf("vector instruction %s is not supported", opcodeName(op))
	}
	n, ty, err := vectorShape(in.Type())
	if err != nil {
		return err
	}
	operands := make([]ir.Operand, in.OperandsCount())
	for i := range operands {
		operands[i] = fl.operand(in.Operand(i))
	}
	lane := func(i, k int) ir.Operand { return laneOf(operands[i], in.Operand(i), k) }
	var src ir.Scalar
	if in.OperandsCount() > 0 && in.Operand(0).Type().TypeKind() == llvm.VectorTypeKind {
		if _, src, err = vectorShape(in.Operand(0).Type()); err != nil {
			return err
		}
	}
	res, done := fl.into(in, dst, n)
	defer done()
	for k := 0; k < n; k++ {
		out := ir.Inst{Dst: res + int32(k), N: 1, Ty: ty}
		if b, ok := binOps[op]; ok {
			out.Op, out.Sub, out.A, out.B = ir.OpBin, b, lane(0, k), lane(1, k)
		} else if b, ok := fbinOps[op]; ok {
			out.Op, out.Sub, out.A, out.B = ir.OpFBin, b, lane(0, k), lane(1, k)
		} else if c, ok := castOps[op]; ok {
			out.Op, out.Sub, out.Src, out.A = ir.OpCast, c, src, lane(0, k)
			if src.Kind == ir.KInt {
				out.Imm = int64(64 - src.Bits)
			}
		} else {
			switch op {
			case opFNeg:
				out.Op, out.A = ir.OpFNeg, lane(0, k)
			case opFreeze:
				out.Op, out.A = ir.OpMove, lane(0, k)
			case llvm.ICmp:
				out.Op, out.Sub, out.Src = ir.OpICmp, uint8(in.IntPredicate()-llvm.IntEQ), src
				out.Imm = int64(64 - src.Bits)
				out.A, out.B = lane(0, k), lane(1, k)
			case llvm.FCmp:
				out.Op, out.Sub, out.Src = ir.OpFCmp, uint8(in.FloatPredicate()), src
				out.A, out.B = lane(0, k), lane(1, k)
			case llvm.Select:
				out.Op, out.A, out.B, out.C = ir.OpSelect, lane(0, k), lane(1, k), lane(2, k)
			}
		}
		fl.emit(out)
	}
	return nil
}

// laneOf is element k of the operand o of value v: a scalar operand (a
// select's one condition, ctlz's flag) is the same in every lane.
func laneOf(o ir.Operand, v llvm.Value, k int) ir.Operand {
	if v.Type().TypeKind() != llvm.VectorTypeKind {
		return o
	}
	return offsetOperand(o, k)
}

// elementwise reports whether op computes each element of its result
// from the same element of its operands.
func elementwise(op llvm.Opcode) bool {
	_, bin := binOps[op]
	_, fbin := fbinOps[op]
	_, cast := castOps[op]
	return bin || fbin || cast || op == opFNeg || op == opFreeze || op == llvm.ICmp || op == llvm.FCmp || op == llvm.Select
}

// extractElement lowers extractelement: a move of the element, or for an
// index known only at run time, a select of each element in turn.
func (fl *fnLowerer) extractElement(in llvm.Value, dst int32) error {
	n, ty, err := vectorShape(in.Operand(0).Type())
	if err != nil {
		return err
	}
	vec, idx := fl.operand(in.Operand(0)), in.Operand(1)
	if kindOf(idx) == kindConstantInt {
		k := int(idx.ZExtValue())
		if k >= n {
			return nil // poison: the register keeps what it holds
		}
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst, N: 1, Ty: ty, A: offsetOperand(vec, k)})
		return nil
	}
	// Selected into a register of its own and moved last: the result's
	// register may be a loop variable's (coalesce.go), read as the index.
	r := fl.temp()
	fl.emit(ir.Inst{Op: ir.OpMove, Dst: r, N: 1, Ty: ty, A: vec})
	for k := 1; k < n; k++ {
		is := fl.indexIs(idx, k)
		fl.emit(ir.Inst{Op: ir.OpSelect, Dst: r, N: 1, Ty: ty, A: is, B: offsetOperand(vec, k), C: ir.Operand(r)})
	}
	fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst, N: 1, Ty: ty, A: ir.Operand(r)})
	return nil
}

// insertElement lowers insertelement: the vector moved whole, then the
// element over its lane, or for an index known only at run time, selected
// into each lane the index may name.
func (fl *fnLowerer) insertElement(in llvm.Value, dst int32) error {
	n, ty, err := vectorShape(in.Type())
	if err != nil {
		return err
	}
	vec, elem, idx := fl.operand(in.Operand(0)), fl.operand(in.Operand(1)), in.Operand(2)
	dst, done := fl.into(in, dst, n)
	defer done()
	fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst, N: int32(n), A: vec})
	if kindOf(idx) == kindConstantInt {
		if k := int(idx.ZExtValue()); k < n {
			fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst + int32(k), N: 1, Ty: ty, A: elem})
		}
		return nil
	}
	for k := 0; k < n; k++ {
		is := fl.indexIs(idx, k)
		fl.emit(ir.Inst{Op: ir.OpSelect, Dst: dst + int32(k), N: 1, Ty: ty, A: is, B: elem, C: ir.Operand(dst + int32(k))})
	}
	return nil
}

// indexIs returns a register that holds whether the index idx is k.
func (fl *fnLowerer) indexIs(idx llvm.Value, k int) ir.Operand {
	s, _ := scalarOf(idx.Type())
	is := fl.temp()
	fl.emit(ir.Inst{Op: ir.OpICmp, Sub: ir.ICmpEQ, Dst: is, N: 1, Ty: ir.Scalar{Kind: ir.KInt, Bits: 1},
		Src: s, Imm: int64(64 - s.Bits), A: fl.operand(idx), B: ir.Operand(^fl.constSlot(uint64(k)))})
	return ir.Operand(is)
}

// shuffle lowers shufflevector: each element of the result moved from the
// element of the two operands its mask names (an undefined one is 0).
func (fl *fnLowerer) shuffle(in llvm.Value, dst int32) error {
	n, ty, err := vectorShape(in.Operand(0).Type())
	if err != nil {
		return err
	}
	a, b := fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
	mask := shuffleMask(in)
	dst, done := fl.into(in, dst, len(mask))
	defer done()
	for j, m := range mask {
		src := ir.Operand(^fl.constSlot(0))
		switch {
		case m >= 0 && m < n:
			src = offsetOperand(a, m)
		case m >= n:
			src = offsetOperand(b, m-n)
		}
		fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst + int32(j), N: 1, Ty: ty, A: src})
	}
	return nil
}

// vectorBitcast lowers a bitcast to or from a vector: element by element
// when the elements keep their width, and otherwise by moving bits, the
// first element in the low bits (x86-64 is little-endian): an element
// split into narrower ones is shifted and truncated, narrower ones joined
// into a wider one are extended, shifted and or'ed. Floating-point
// elements go through integers of their width.
func (fl *fnLowerer) vectorBitcast(in llvm.Value, dst int32) error {
	v, to := in.Operand(0), in.Type()
	from, err := fl.l.fields(v.Type())
	if err != nil {
		return err
	}
	into, err := fl.l.fields(to)
	if err != nil {
		return err
	}
	ws, wd := int(from[0].Scalar.Bits), int(into[0].Scalar.Bits)
	if ws*len(from) != wd*len(into) || ws > 64 || wd > 64 || ws%8 != 0 || wd%8 != 0 {
		return fmt.Errorf("bitcast of %s to %s is not supported", typeText(v.Type()), typeText(to))
	}
	o := fl.operand(v)
	dst, done := fl.into(in, dst, len(into))
	defer done()
	// bits returns the source's element i as an integer of its width.
	bits := func(i int) ir.Operand {
		s := from[i].Scalar
		if s.Kind == ir.KInt {
			return offsetOperand(o, i)
		}
		r := fl.temp()
		fl.emit(ir.Inst{Op: ir.OpCast, Sub: ir.CastBitcast, Dst: r, N: 1, Ty: intOf(ws), Src: s, A: offsetOperand(o, i)})
		return ir.Operand(r)
	}
	// put writes the integer r of width wd into the result's element j.
	put := func(j int, r ir.Operand) {
		s := into[j].Scalar
		if s.Kind == ir.KInt {
			fl.emit(ir.Inst{Op: ir.OpMove, Dst: dst + int32(j), N: 1, Ty: s, A: r})
			return
		}
		fl.emit(ir.Inst{Op: ir.OpCast, Sub: ir.CastBitcast, Dst: dst + int32(j), N: 1, Ty: s, Src: intOf(wd), A: r})
	}
	konst := func(x uint64) ir.Operand { return ir.Operand(^fl.constSlot(x)) }
	switch {
	case ws == wd:
		for j := range into {
			put(j, bits(j))
		}
	case ws > wd: // each source element splits into ws/wd
		for j := range into {
			i, shift := j*wd/ws, uint64(j*wd%ws)
			r := bits(i)
			if shift != 0 {
				t := fl.temp()
				fl.emit(ir.Inst{Op: ir.OpBin, Sub: ir.BinLShr, Dst: t, N: 1, Ty: intOf(ws), A: r, B: konst(shift)})
				r = ir.Operand(t)
			}
			t := fl.temp()
			fl.emit(ir.Inst{Op: ir.OpCast, Sub: ir.CastTrunc, Dst: t, N: 1, Ty: intOf(wd), Src: intOf(ws), A: r})
			put(j, ir.Operand(t))
		}
	default: // wd/ws source elements join into each
		per := wd / ws
		for j := range into {
			acc := fl.temp()
			for k := 0; k < per; k++ {
				part := fl.temp()
				fl.emit(ir.Inst{Op: ir.OpCast, Sub: ir.CastZExt, Dst: part, N: 1, Ty: intOf(wd), Src: intOf(ws), A: bits(j*per + k)})
				if k == 0 {
					fl.emit(ir.Inst{Op: ir.OpMove, Dst: acc, N: 1, Ty: intOf(wd), A: ir.Operand(part)})
					continue
				}
				fl.emit(ir.Inst{Op: ir.OpBin, Sub: ir.BinShl, Dst: part, N: 1, Ty: intOf(wd), A: ir.Operand(part), B: konst(uint64(k * ws))})
				fl.emit(ir.Inst{Op: ir.OpBin, Sub: ir.BinOr, Dst: acc, N: 1, Ty: intOf(wd), A: ir.Operand(acc), B: ir.Operand(part)})
			}
			put(j, ir.Operand(acc))
		}
	}
	return nil
}

// intOf is the integer scalar of bits bits.
func intOf(bits int) ir.Scalar { return ir.Scalar{Kind: ir.KInt, Bits: uint16(bits)} }

// laneIntrinsics are the LLVM intrinsics that act on each element of a
// vector alone (llvm.sqrt.v4f32 is llvm.sqrt of each float): their vector
// forms are one call per element, whose models read the element's type
// from the call (the scalar forms' models). A model handed a vector's
// elements as one call's arguments would compute on the first few alone.
var laneIntrinsics = []string{"fmuladd", "fma", "fabs", "sqrt", "floor", "ceil", "trunc", "round", "rint",
	"nearbyint", "roundeven", "sin", "cos", "exp", "exp2", "log", "log10", "log2", "pow", "powi", "copysign",
	"minnum", "maxnum", "minimum", "maximum", "smax", "smin", "umax", "umin", "abs", "ctpop", "ctlz", "cttz",
	"bswap", "bitreverse", "fshl", "fshr", "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat"}

// laneIntrinsic reports whether name is the vector form of a lane
// intrinsic, and which.
func laneIntrinsic(name string) (string, bool) {
	for _, base := range laneIntrinsics {
		if strings.HasPrefix(name, "llvm."+base+".v") {
			return base, true
		}
	}
	return "", false
}

// lowerLaneCall lowers a call of a lane intrinsic's vector form (base
// names it) as the intrinsic of each element: a fused multiply-add as the
// arithmetic instruction the scalar form lowers to, the others as calls
// with the element's arguments (a scalar argument, such as ctlz's flag,
// the same in each).
func (fl *fnLowerer) lowerLaneCall(in llvm.Value, out ir.Inst, base string) error {
	n, ty, err := vectorShape(in.Type())
	if err != nil {
		return err
	}
	nargs := in.OperandsCount() - 1
	args := make([]ir.Operand, nargs)
	tys := make([]ir.Scalar, nargs)
	for i := range args {
		a := in.Operand(i)
		args[i] = fl.operand(a)
		if a.Type().TypeKind() == llvm.VectorTypeKind {
			_, tys[i], err = vectorShape(a.Type())
		} else {
			tys[i], err = scalarOf(a.Type())
		}
		if err != nil {
			return err
		}
	}
	lane := func(i, k int) ir.Operand { return laneOf(args[i], in.Operand(i), k) }
	res, done := fl.into(in, out.Dst, n)
	defer done()
	for k := 0; k < n; k++ {
		call := ir.Inst{Dst: res + int32(k), N: 1, Ty: ty}
		if base == "fmuladd" && (ty.Kind == ir.KF32 || ty.Kind == ir.KF64) {
			call.Op, call.Sub = ir.OpFBin, ir.FMulAdd
			call.A, call.B, call.C = lane(0, k), lane(1, k), lane(2, k)
			fl.emit(call)
			continue
		}
		call.Op, call.Callee, call.Imm = ir.OpCall, out.Callee, int64(nargs)
		for i := range args {
			call.Args = append(call.Args, lane(i, k))
			call.ArgTys = append(call.ArgTys, tys[i])
		}
		fl.emit(call)
	}
	return nil
}

// unsupportedVectorIntrinsic reports whether call in of name is a generic
// LLVM intrinsic on vectors that is not a lane intrinsic (a reduction, a
// masked load, an overflow check of each element): the model of its
// scalar form, found by its name's prefix, would read the vector's first
// elements as its arguments and compute a wrong answer silently. The x86
// intrinsics' models take vectors (vm/simd.go).
func unsupportedVectorIntrinsic(in llvm.Value, name string) bool {
	if !strings.HasPrefix(name, "llvm.") || strings.HasPrefix(name, "llvm.x86.") {
		return false
	}
	if in.Type().TypeKind() == llvm.VectorTypeKind {
		return true
	}
	if in.Type().TypeKind() == llvm.StructTypeKind {
		for _, et := range in.Type().StructElementTypes() {
			if et.TypeKind() == llvm.VectorTypeKind {
				return true
			}
		}
	}
	for i := 0; i < in.OperandsCount()-1; i++ {
		if in.Operand(i).Type().TypeKind() == llvm.VectorTypeKind {
			return true
		}
	}
	return false
}
