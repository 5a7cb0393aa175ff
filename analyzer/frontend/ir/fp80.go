package ir

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// F80ToBytes writes f as an x86 80-bit extended value (10 bytes,
// little-endian). Every float64 is exactly representable.
func F80ToBytes(f float64, b []byte) {
	u := math.Float64bits(f)
	sign := uint16(u>>63) << 15
	exp := int((u >> 52) & 0x7ff)
	frac := u & (1<<52 - 1)
	var e uint16
	var m uint64
	switch {
	case exp == 0 && frac == 0:
		e, m = 0, 0
	case exp == 0x7ff:
		e = 0x7fff
		m = 1<<63 | frac<<11
	case exp == 0: // subnormal double: normalize
		shift := bits.LeadingZeros64(frac) - 11
		m = (frac << uint(shift)) << 11
		e = uint16(1 - 1023 + 16383 - shift)
	default:
		e = uint16(exp - 1023 + 16383)
		m = 1<<63 | frac<<11
	}
	binary.LittleEndian.PutUint64(b, m)
	binary.LittleEndian.PutUint16(b[8:], sign|e)
}

// F80FromBytes reads an x86 80-bit extended value, rounding it to float64.
func F80FromBytes(b []byte) float64 {
	m := binary.LittleEndian.Uint64(b)
	se := binary.LittleEndian.Uint16(b[8:])
	sign := 1.0
	if se&0x8000 != 0 {
		sign = -1
	}
	e := int(se & 0x7fff)
	switch {
	case e == 0x7fff:
		if m<<1 == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	case e == 0 && m == 0:
		return math.Copysign(0, sign)
	}
	return sign * math.Ldexp(float64(m), e-16383-63)
}
