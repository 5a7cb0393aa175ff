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
	switch s.Size() {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	default:
		for i := 0; i < s.Size(); i++ {
			b[i] = byte(v >> (8 * i))
		}
	}
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
	var v uint64
	switch s.Size() {
	case 1:
		v = uint64(b[0])
	case 2:
		v = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		v = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		v = binary.LittleEndian.Uint64(b)
	default:
		for i := 0; i < s.Size(); i++ {
			v |= uint64(b[i]) << (8 * i)
		}
	}
	return v & Mask(s.Bits)
}
