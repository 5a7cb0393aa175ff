package vm

import (
	"math"
	"math/bits"

	"augur/analyzer/frontend/ir"
)

// intBin evaluates an integer binary operation on w-bit operands. Division
// by zero and signed division overflow are crashes (SIGFPE), as the hardware
// would report them.
func intBin(op uint8, a, b uint64, w uint16) (uint64, error) {
	r, ok := ir.EvalBin(op, a, b, w)
	if ok {
		return r, nil
	}
	switch op {
	case ir.BinUDiv, ir.BinURem, ir.BinSDiv, ir.BinSRem:
		if b == 0 {
			return 0, terminate(TermCrash, SIGFPE, "division by zero")
		}
		return 0, terminate(TermCrash, SIGFPE, "signed division overflow (INT_MIN / -1)")
	}
	return 0, unsupported("integer operation %d", op)
}

func icmp(pred uint8, a, b uint64, w uint16) bool {
	switch pred {
	case ir.ICmpEQ:
		return a == b
	case ir.ICmpNE:
		return a != b
	case ir.ICmpUGT:
		return a > b
	case ir.ICmpUGE:
		return a >= b
	case ir.ICmpULT:
		return a < b
	case ir.ICmpULE:
		return a <= b
	}
	sa, sb := ir.SExt(a, w), ir.SExt(b, w)
	switch pred {
	case ir.ICmpSGT:
		return sa > sb
	case ir.ICmpSGE:
		return sa >= sb
	case ir.ICmpSLT:
		return sa < sb
	}
	return sa <= sb
}

// FloatOf reads a float register of kind k as float64.
func FloatOf(v uint64, k ir.Kind) float64 {
	if k == ir.KF32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

// FloatBits makes a register of kind k from f.
func FloatBits(f float64, k ir.Kind) uint64 {
	if k == ir.KF32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// fneg negates a float register of kind k.
func fneg(v uint64, k ir.Kind) uint64 {
	return FloatBits(-FloatOf(v, k), k)
}

// floatBin computes an OpFBin on register bits: a op b, or a*b+c for
// FMulAdd.
func floatBin(in *ir.Inst, a, b, c uint64) uint64 {
	k := in.Ty.Kind
	x, y := FloatOf(a, k), FloatOf(b, k)
	if in.Sub == ir.FMulAdd {
		return FloatBits(fbin(ir.FAdd, fbin(ir.FMul, x, y, k), FloatOf(c, k), k), k)
	}
	return FloatBits(fbin(in.Sub, x, y, k), k)
}

func fbin(op uint8, a, b float64, k ir.Kind) float64 {
	if k == ir.KF32 { // compute in single precision
		x, y := float32(a), float32(b)
		switch op {
		case ir.FAdd:
			return float64(x + y)
		case ir.FSub:
			return float64(x - y)
		case ir.FMul:
			return float64(x * y)
		case ir.FDiv:
			return float64(x / y)
		}
		return float64(float32(math.Mod(float64(x), float64(y))))
	}
	switch op {
	case ir.FAdd:
		return a + b
	case ir.FSub:
		return a - b
	case ir.FMul:
		return a * b
	case ir.FDiv:
		return a / b
	}
	return math.Mod(a, b)
}

func fcmp(pred uint8, a, b float64) bool {
	uno := math.IsNaN(a) || math.IsNaN(b)
	if uno {
		return pred&8 != 0 || pred == ir.FCmpTrue
	}
	switch {
	case a < b:
		return pred&4 != 0
	case a == b:
		return pred&1 != 0
	default:
		return pred&2 != 0
	}
}

// cast converts v from scalar src to scalar dst.
func cast(op uint8, v uint64, src, dst ir.Scalar) uint64 {
	switch op {
	case ir.CastTrunc, ir.CastZExt, ir.CastPtrToInt, ir.CastIntToPtr:
		return v & ir.Mask(dst.Bits)
	case ir.CastSExt:
		return uint64(ir.SExt(v, src.Bits)) & ir.Mask(dst.Bits)
	case ir.CastFPTrunc, ir.CastFPExt:
		return FloatBits(FloatOf(v, src.Kind), dst.Kind)
	case ir.CastFPToSI:
		f := FloatOf(v, src.Kind)
		return uint64(fpToInt(f, dst.Bits)) & ir.Mask(dst.Bits)
	case ir.CastFPToUI:
		f := FloatOf(v, src.Kind)
		if f >= 9223372036854775808.0 && f < 18446744073709551616.0 {
			return uint64(f) & ir.Mask(dst.Bits)
		}
		return uint64(fpToInt(f, 64)) & ir.Mask(dst.Bits)
	case ir.CastSIToFP:
		return FloatBits(float64(ir.SExt(v, src.Bits)), dst.Kind)
	case ir.CastUIToFP:
		if dst.Kind == ir.KF32 {
			return uint64(math.Float32bits(float32(v)))
		}
		return math.Float64bits(float64(v))
	case ir.CastBitcast:
		if src.Kind == ir.KF80 || dst.Kind == ir.KF80 {
			return v
		}
		return v & ir.Mask(dst.Bits)
	}
	return v
}

// fpToInt truncates like x86-64 code does for a result of bits bits:
// cvttsd2si into a 32-bit register for 32 bits or fewer (the result then
// truncated), into a 64-bit one otherwise. A value out of the register's
// range, or NaN, gives its least integer (INT32_MIN, INT64_MIN): (int)1e10
// is INT32_MIN natively, not 1e10's low 32 bits.
func fpToInt(f float64, bits uint16) int64 {
	if bits <= 32 {
		if math.IsNaN(f) || f >= 2147483648.0 || f <= -2147483649.0 {
			return math.MinInt32
		}
		return int64(int32(f))
	}
	if math.IsNaN(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

// overflow evaluates the llvm.*.with.overflow intrinsics.
func overflow(kind string, a, b uint64, w uint16) (uint64, bool) {
	m := ir.Mask(w)
	switch kind {
	case "uadd":
		r := (a + b) & m
		return r, r < a
	case "usub":
		return (a - b) & m, b > a
	case "umul":
		hi, lo := bits.Mul64(a, b)
		return lo & m, hi != 0 || lo&^m != 0
	}
	sa, sb := ir.SExt(a, w), ir.SExt(b, w)
	var r int64
	var ovf bool
	switch kind {
	case "sadd":
		r = sa + sb
		ovf = (sa >= 0) == (sb >= 0) && (r >= 0) != (sa >= 0)
	case "ssub":
		r = sa - sb
		ovf = (sa >= 0) != (sb >= 0) && (r >= 0) != (sa >= 0)
	case "smul":
		hi, lo := bits.Mul64(uint64(sa), uint64(sb))
		// signed 128-bit product fits in 64 bits iff hi is the sign extension of lo
		if sa < 0 {
			hi -= uint64(sb)
		}
		if sb < 0 {
			hi -= uint64(sa)
		}
		r = int64(lo)
		ovf = hi != uint64(r>>63)
	}
	if w < 64 {
		ovf = ovf || ir.SExt(uint64(r)&m, w) != r
	}
	return uint64(r) & m, ovf
}
