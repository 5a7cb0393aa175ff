package ir

import (
	"encoding/binary"
	"math"
)

// Mask returns the low bits bits set (bits in 1..64).
func Mask(bits uint16) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<bits - 1
}

// SExt sign-extends the low bits bits of v to 64 bits.
func SExt(v uint64, bits uint16) int64 {
	if bits >= 64 {
		return int64(v)
	}
	s := 64 - bits
	return int64(v<<s) >> s
}

// PutScalar writes the register bits of scalar s to b in memory order.
func PutScalar(b []byte, s Scalar, v uint64) {
	switch s.Kind {
	case KF80:
		F80ToBytes(math.Float64frombits(v), b)
		return
	case KPtr, KF64:
		binary.LittleEndian.PutUint64(b, v)
		return
	case KF32:
		binary.LittleEndian.PutUint32(b, uint32(v))
		return
	}
	StoreLE(b, s.Size(), v)
}

// StoreLE writes the low size bytes of v little-endian.
func StoreLE(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	default:
		for i := 0; i < size; i++ {
			b[i] = byte(v >> (8 * i))
		}
	}
}

// LoadLE reads a little-endian value of size bytes (1 to 8).
func LoadLE(b []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	var v uint64
	for i := 0; i < size; i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

// GetScalar reads scalar s from memory bytes b into register form.
func GetScalar(b []byte, s Scalar) uint64 {
	switch s.Kind {
	case KF80:
		return math.Float64bits(F80FromBytes(b))
	case KPtr, KF64:
		return binary.LittleEndian.Uint64(b)
	case KF32:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return LoadLE(b, s.Size()) & Mask(s.Bits)
}

// EvalBin evaluates integer binary operation op (BinAdd...) on w-bit
// operands kept zero-extended. ok is false when the result is undefined
// (division by zero, signed division overflow); callers decide what that
// means (the VM reports a crash, constant folding refuses).
func EvalBin(op uint8, a, b uint64, w uint16) (r uint64, ok bool) {
	m := Mask(w)
	switch op {
	case BinAdd:
		return (a + b) & m, true
	case BinSub:
		return (a - b) & m, true
	case BinMul:
		return (a * b) & m, true
	case BinUDiv, BinURem, BinSDiv, BinSRem:
		if b == 0 {
			return 0, false
		}
		switch op {
		case BinUDiv:
			return a / b, true
		case BinURem:
			return a % b, true
		}
		sa, sb := SExt(a, w), SExt(b, w)
		if sb == -1 && sa == SExt(1<<(w-1), w) {
			return 0, false
		}
		if op == BinSDiv {
			return uint64(sa/sb) & m, true
		}
		return uint64(sa%sb) & m, true
	case BinShl:
		if b >= uint64(w) {
			return 0, true // poison in LLVM; 0 keeps runs deterministic
		}
		return (a << b) & m, true
	case BinLShr:
		if b >= uint64(w) {
			return 0, true
		}
		return a >> b, true
	case BinAShr:
		if b >= uint64(w) {
			b = uint64(w) - 1
		}
		return uint64(SExt(a, w)>>b) & m, true
	case BinAnd:
		return a & b, true
	case BinOr:
		return a | b, true
	case BinXor:
		return a ^ b, true
	}
	return 0, false
}
