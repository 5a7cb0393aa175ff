package bitcode

import (
	"fmt"
	"math/big"
	"strings"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// Wide integers. clang uses integers wider than 64 bits for __int128 and
// for the storage of bitfields that straddle eight bytes (a 61-bit field
// after a byte in a packed struct is an i72). A value of 65 to 128 bits
// lives in two registers, low word first, as if it were a struct {i64;
// i(N-64)}: loads, stores, moves, calls and phis treat it like an
// aggregate of two fields, and its arithmetic lowers to OpWide,
// OpWideCmp and OpWideCast, which the interpreter computes on both words.

// MaxWide is the widest integer augur computes with.
const MaxWide = 128

// isWide reports whether t is an integer wider than a register.
func isWide(t llvm.Type) bool {
	return t.TypeKind() == llvm.IntegerTypeKind && t.IntTypeWidth() > 64
}

// wideFields is the register layout of a wide integer of w bits.
func wideFields(w int) ([]ir.Field, error) {
	if w > MaxWide {
		return nil, fmt.Errorf("%d-bit integers are not supported (at most %d bits)", w, MaxWide)
	}
	return []ir.Field{{Off: 0, Scalar: ir.Scalar{Kind: ir.KInt, Bits: 64}}, {Off: 8, Scalar: ir.Scalar{Kind: ir.KInt, Bits: uint16(w - 64)}}}, nil
}

// wideConst returns the two words of a wide integer constant.
func wideConst(v llvm.Value) ([]uint64, error) {
	w := v.Type().IntTypeWidth()
	// LLVM-C gives only the low 64 bits of a constant; its printed form
	// ("i72 -5") has them all.
	text := strings.TrimSpace(v.String())
	fields := strings.Fields(text)
	n, ok := new(big.Int).SetString(fields[len(fields)-1], 10)
	if !ok {
		if fields[len(fields)-1] == "true" || fields[len(fields)-1] == "false" {
			return nil, fmt.Errorf("unexpected wide constant %q", text)
		}
		return nil, fmt.Errorf("cannot read the %d-bit constant %q", w, text)
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
	n.Mod(n, mod) // two's complement of a negative constant
	lo := new(big.Int).And(n, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(n, 64).Uint64()
	return []uint64{lo, hi}, nil
}

// lowerWide lowers an instruction on wide integers, or reports false when
// in has none.
func (fl *fnLowerer) lowerWide(in llvm.Value, op llvm.Opcode, out ir.Inst) (bool, error) {
	opnd := in.Operand(0)
	_, isBin := binOps[op]
	switch {
	case isBin:
		if !isWide(in.Type()) {
			return false, nil
		}
		out.Op, out.Sub = ir.OpWide, binOps[op]
		out.Ty = ir.Scalar{Kind: ir.KInt, Bits: uint16(in.Type().IntTypeWidth())}
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
	case op == llvm.ICmp:
		if !isWide(opnd.Type()) {
			return false, nil
		}
		out.Op, out.Sub = ir.OpWideCmp, uint8(in.IntPredicate()-llvm.IntEQ)
		out.Src = ir.Scalar{Kind: ir.KInt, Bits: uint16(opnd.Type().IntTypeWidth())}
		out.Ty = ir.Scalar{Kind: ir.KInt, Bits: 1}
		out.A, out.B = fl.operand(in.Operand(0)), fl.operand(in.Operand(1))
	case op == llvm.Trunc || op == llvm.ZExt || op == llvm.SExt || op == llvm.BitCast:
		if !isWide(in.Type()) && !isWide(opnd.Type()) {
			return false, nil
		}
		if opnd.Type().TypeKind() != llvm.IntegerTypeKind || in.Type().TypeKind() != llvm.IntegerTypeKind {
			return true, fmt.Errorf("casts between wide integers and other types are not supported")
		}
		out.Op, out.Sub = ir.OpWideCast, castOps[op]
		out.Src = ir.Scalar{Kind: ir.KInt, Bits: uint16(opnd.Type().IntTypeWidth())}
		out.Ty = ir.Scalar{Kind: ir.KInt, Bits: uint16(in.Type().IntTypeWidth())}
		out.A = fl.operand(opnd)
	case op == llvm.Switch:
		if !isWide(opnd.Type()) {
			return false, nil
		}
		return true, fmt.Errorf("%s on a %d-bit integer is not supported", opcodeName(op), opnd.Type().IntTypeWidth())
	case op == llvm.PtrToInt || op == llvm.IntToPtr || op == llvm.UIToFP || op == llvm.SIToFP ||
		op == llvm.FPToUI || op == llvm.FPToSI:
		if !isWide(in.Type()) && !isWide(opnd.Type()) {
			return false, nil
		}
		return true, fmt.Errorf("converting a wide integer to or from a pointer or a float is not supported")
	default:
		return false, nil
	}
	fl.emit(out)
	return true, nil
}

// atomicScalar is the type an atomicrmw or cmpxchg of t works on. A
// 128-bit integer (clang's for __int128 and 16-byte structs under -mcx16:
// cmpxchg16b) is one, which the interpreter reads and writes as one
// access of its sixteen bytes; other wide integers are not.
func atomicScalar(t llvm.Type) (ir.Scalar, error) {
	if isWide(t) && t.IntTypeWidth() == MaxWide {
		return ir.Scalar{Kind: ir.KInt, Bits: MaxWide}, nil
	}
	if isWide(t) {
		return ir.Scalar{}, fmt.Errorf("atomic operations on a %d-bit integer are not supported", t.IntTypeWidth())
	}
	return scalarOf(t)
}
