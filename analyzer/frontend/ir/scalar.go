package ir

import (
	"encoding/binary"
	"math"

	"augur/analyzer/frontend/bitvec"
)

// Mask returns the low bits bits set (bits in 1..64).
func Mask(bits uint16) uint64 { return bitvec.Mask(bits) }

// SExt sign-extends the low bits bits of v to 64 bits.
func SExt(v uint64, bits uint16) int64 { return bitvec.SExt(v, bits) }

// EvalBin evaluates integer binary operation op (BinAdd...) on w-bit
// operands; see bitvec.Eval.
func EvalBin(op uint8, a, b uint64, w uint16) (uint64, bool) {
	return bitvec.Eval(bitvec.Op(op), a, b, w)
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
