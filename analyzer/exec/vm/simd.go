package vm

import (
	"math"

	"augur/analyzer/frontend/ir"
)

// The x86 SIMD intrinsics clang emits for SSE code that the lowering
// cannot write as operations on each element (bitcode/vector.go): masks
// of sign bits, sums of differences, byte shuffles by a vector, shifts by
// a count, saturating packs, the CRC-32C instruction, rounding by a mode.
// A call's arguments are the vectors' elements in order (an <8 x i16> is
// eight arguments), and so are its results.

// simdBits returns the machine's scratch for a SIMD model's n argument
// and r result bits, the results zero (a model writes only the elements
// it sets). Models run on the machine's one goroutine and do not call
// back, so one buffer serves every call: a loop of intrinsics makes no
// garbage.
func (m *Machine) simdBits(n, r int) (args, res []uint64) {
	if cap(m.simdBuf) < n+r {
		m.simdBuf = make([]uint64, n+r)
	}
	b := m.simdBuf[:n+r]
	args, res = b[:n:n], b[n:]
	clear(res)
	return args, res
}

// simdNative is a model of an x86 vector intrinsic over its arguments'
// bits, writing its results' bits.
type simdNative func(a []uint64, res []uint64)

func (tab *Models) addSIMD() {
	reg := func(f simdNative, names ...string) {
		tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			args, out := m.simdBits(len(a), len(res))
			for i := range a {
				args[i] = a[i].Bits
			}
			f(args, out)
			for i := range res {
				res[i] = val(out[i] & maskOf(in, i))
			}
			return nil
		}, names...).Local()
	}
	// Masks of the elements' sign bits.
	signs := func(w uint) simdNative {
		return func(a, res []uint64) {
			r := uint64(0)
			for i, x := range a {
				r |= (x >> (w - 1) & 1) << i
			}
			res[0] = r
		}
	}
	reg(signs(8), "llvm.x86.sse2.pmovmskb.128", "llvm.x86.avx2.pmovmskb")
	reg(signs(32), "llvm.x86.sse.movmsk.ps", "llvm.x86.avx.movmsk.ps.256")
	reg(signs(64), "llvm.x86.sse2.movmsk.pd", "llvm.x86.avx.movmsk.pd.256")
	// _mm_sad_epu8: each half's sum of the bytes' absolute differences.
	reg(func(a, res []uint64) {
		for h := 0; h < 2; h++ {
			s := uint64(0)
			for i := 8 * h; i < 8*h+8; i++ {
				x, y := a[i]&0xff, a[16+i]&0xff
				s += max(x, y) - min(x, y)
			}
			res[h] = s
		}
	}, "llvm.x86.sse2.psad.bw")
	// _mm_shuffle_epi8: each byte from the one its index names, 0 where
	// the index's top bit is set.
	reg(func(a, res []uint64) {
		for i := 0; i < 16; i++ {
			if idx := a[16+i]; idx&0x80 == 0 {
				res[i] = a[idx&15]
			}
		}
	}, "llvm.x86.ssse3.pshuf.b.128")
	// _mm_avg_epu8 and _mm_avg_epu16: rounded up.
	avg := func(n int, w uint16) simdNative {
		return func(a, res []uint64) {
			for i := 0; i < n; i++ {
				res[i] = (a[i]&ir.Mask(w) + a[n+i]&ir.Mask(w) + 1) >> 1
			}
		}
	}
	reg(avg(16, 8), "llvm.x86.sse2.pavg.b")
	reg(avg(8, 16), "llvm.x86.sse2.pavg.w")
	// _mm_blendv_epi8: each byte from the second operand where the mask's
	// byte has its top bit set. (blendv_ps and _pd: by the elements' sign.)
	blendv := func(n int, w uint) simdNative {
		return func(a, res []uint64) {
			for i := 0; i < n; i++ {
				res[i] = a[i]
				if a[2*n+i]>>(w-1)&1 == 1 {
					res[i] = a[n+i]
				}
			}
		}
	}
	reg(blendv(16, 8), "llvm.x86.sse41.pblendvb")
	reg(blendv(4, 32), "llvm.x86.sse41.blendvps")
	reg(blendv(2, 64), "llvm.x86.sse41.blendvpd")
	tab.addSIMDShifts(reg)
	tab.addSIMDPacks(reg)
	// _mm_madd_epi16: products of signed pairs, adjacent ones summed.
	reg(func(a, res []uint64) {
		for i := range res {
			p := int64(int16(a[2*i]))*int64(int16(a[8+2*i])) + int64(int16(a[2*i+1]))*int64(int16(a[8+2*i+1]))
			res[i] = uint64(p)
		}
	}, "llvm.x86.sse2.pmadd.wd")
	reg(func(a, res []uint64) {
		for i := range res {
			res[i] = uint64(int32(int16(a[i])) * int32(int16(a[8+i])) >> 16)
		}
	}, "llvm.x86.sse2.pmulh.w")
	reg(func(a, res []uint64) {
		for i := range res {
			res[i] = (a[i] & 0xffff) * (a[8+i] & 0xffff) >> 16
		}
	}, "llvm.x86.sse2.pmulhu.w")
	// _mm_testz_si128 and _mm_testc_si128.
	reg(func(a, res []uint64) { res[0] = b2u(a[0]&a[2] == 0 && a[1]&a[3] == 0) }, "llvm.x86.sse41.ptestz")
	reg(func(a, res []uint64) { res[0] = b2u(^a[0]&a[2] == 0 && ^a[1]&a[3] == 0) }, "llvm.x86.sse41.ptestc")
	// The CRC-32C instruction: the Castagnoli polynomial, bits reflected,
	// the running value neither inverted before nor after.
	crc := func(bytes int) simdNative {
		return func(a, res []uint64) {
			c, v := uint32(a[0]), a[1]
			for i := 0; i < bytes; i++ {
				c ^= uint32(v >> (8 * i) & 0xff)
				for k := 0; k < 8; k++ {
					c = c>>1 ^ 0x82F63B78&-(c&1)
				}
			}
			res[0] = uint64(c)
		}
	}
	reg(crc(1), "llvm.x86.sse42.crc32.32.8")
	reg(crc(2), "llvm.x86.sse42.crc32.32.16")
	reg(crc(4), "llvm.x86.sse42.crc32.32.32")
	reg(crc(8), "llvm.x86.sse42.crc32.64.64")
	tab.addSIMDFloat(reg)
}

// maskOf is the mask of result i of call in: the bits of its element's
// integer type (a float's bits are whole already).
func maskOf(in *ir.Inst, i int) uint64 {
	if in.Callee == nil || i >= len(in.Callee.Ret) || in.Callee.Ret[i].Kind != ir.KInt {
		return ^uint64(0)
	}
	return ir.Mask(in.Callee.Ret[i].Bits)
}

// addSIMDShifts registers the shifts of every element by one count: an
// immediate (pslli) or a vector's low 64 bits (psll). A count of the
// element's width or more leaves 0, or the sign in every bit.
func (tab *Models) addSIMDShifts(reg func(simdNative, ...string)) {
	for _, w := range []struct {
		suffix string
		bits   uint
	}{{"w", 16}, {"d", 32}, {"q", 64}} {
		n := 128 / int(w.bits)
		shift := func(kind byte, vectorCount bool) simdNative {
			return func(a, res []uint64) {
				count := a[n] // an immediate, or a count vector's first element of the same width
				if vectorCount && w.bits < 64 {
					// The count is the vector's low 64 bits: its first elements joined.
					count = 0
					for k := 0; k < 64/int(w.bits); k++ {
						count |= (a[n+k] & ir.Mask(uint16(w.bits))) << (uint(k) * w.bits)
					}
				}
				for i := 0; i < n; i++ {
					x := a[i] & ir.Mask(uint16(w.bits))
					switch {
					case kind == 'a':
						s := ir.SExt(x, uint16(w.bits))
						res[i] = uint64(s >> min(count, uint64(w.bits-1)))
					case count >= uint64(w.bits):
						res[i] = 0
					case kind == 'l':
						res[i] = x << count
					default:
						res[i] = x >> count
					}
				}
			}
		}
		reg(shift('l', false), "llvm.x86.sse2.pslli."+w.suffix)
		reg(shift('r', false), "llvm.x86.sse2.psrli."+w.suffix)
		reg(shift('l', true), "llvm.x86.sse2.psll."+w.suffix)
		reg(shift('r', true), "llvm.x86.sse2.psrl."+w.suffix)
		if w.bits < 64 {
			reg(shift('a', false), "llvm.x86.sse2.psrai."+w.suffix)
			reg(shift('a', true), "llvm.x86.sse2.psra."+w.suffix)
		}
	}
}

// addSIMDPacks registers the saturating packs: both operands' elements
// narrowed to half their width, clamped to the narrow type's range.
func (tab *Models) addSIMDPacks(reg func(simdNative, ...string)) {
	pack := func(from uint, lo, hi int64) simdNative {
		return func(a, res []uint64) {
			for i := range res {
				res[i] = uint64(min(max(ir.SExt(a[i], uint16(from)), lo), hi))
			}
		}
	}
	reg(pack(16, math.MinInt8, math.MaxInt8), "llvm.x86.sse2.packsswb.128")
	reg(pack(16, 0, math.MaxUint8), "llvm.x86.sse2.packuswb.128")
	reg(pack(32, math.MinInt16, math.MaxInt16), "llvm.x86.sse2.packssdw.128")
	reg(pack(32, 0, math.MaxUint16), "llvm.x86.sse41.packusdw")
}

// addSIMDFloat registers the floating-point intrinsics: rounding by an
// immediate mode, x86's minimum and maximum (the second operand when
// either is a NaN or both are zeros), and conversions that round to the
// nearest (an out-of-range value becomes the "integer indefinite",
// 0x80000000).
func (tab *Models) addSIMDFloat(reg func(simdNative, ...string)) {
	round := func(x float64, mode uint64) float64 {
		if mode&4 != 0 {
			mode = 0 // the MXCSR's mode, which augur leaves at nearest
		}
		switch mode & 3 {
		case 1:
			return math.Floor(x)
		case 2:
			return math.Ceil(x)
		case 3:
			return math.Trunc(x)
		}
		return math.RoundToEven(x)
	}
	for _, f := range []struct {
		suffix string
		kind   ir.Kind
		n      int
	}{{"ps", ir.KF32, 4}, {"pd", ir.KF64, 2}} {
		k, n := f.kind, f.n
		reg(func(a, res []uint64) {
			for i := 0; i < n; i++ {
				res[i] = FloatBits(round(FloatOf(a[i], k), a[n]), k)
			}
		}, "llvm.x86.sse41.round."+f.suffix)
		reg(func(a, res []uint64) {
			copy(res, a[:n])
			res[0] = FloatBits(round(FloatOf(a[n], k), a[2*n]), k)
		}, "llvm.x86.sse41.round.s"+f.suffix[1:]) // the first element alone
		minmax := func(isMax bool) simdNative {
			return func(a, res []uint64) {
				for i := 0; i < n; i++ {
					x, y := FloatOf(a[i], k), FloatOf(a[n+i], k)
					res[i] = a[n+i]
					if !isMax && x < y || isMax && x > y {
						res[i] = a[i]
					}
				}
			}
		}
		sse := map[ir.Kind]string{ir.KF32: "llvm.x86.sse.", ir.KF64: "llvm.x86.sse2."}[k]
		reg(minmax(false), sse+"min."+f.suffix)
		reg(minmax(true), sse+"max."+f.suffix)
	}
	toInt := func(k ir.Kind, n int, truncate bool) simdNative {
		return func(a, res []uint64) {
			for i := 0; i < n; i++ {
				x := FloatOf(a[i], k)
				if truncate {
					x = math.Trunc(x)
				} else {
					x = math.RoundToEven(x)
				}
				if x >= -(1<<31) && x < 1<<31 {
					res[i] = uint64(int64(x))
				} else {
					res[i] = 0x80000000
				}
			}
		}
	}
	reg(toInt(ir.KF32, 4, false), "llvm.x86.sse2.cvtps2dq")
	reg(toInt(ir.KF64, 2, false), "llvm.x86.sse2.cvtpd2dq")
	reg(toInt(ir.KF32, 4, true), "llvm.x86.sse2.cvttps2dq")
	reg(toInt(ir.KF64, 2, true), "llvm.x86.sse2.cvttpd2dq")
	// The horizontal additions and subtractions: pairs of each operand.
	for _, h := range []struct {
		name string
		kind ir.Kind
		n    int
		sub  bool
	}{{"llvm.x86.sse3.hadd.ps", ir.KF32, 4, false}, {"llvm.x86.sse3.hadd.pd", ir.KF64, 2, false},
		{"llvm.x86.sse3.hsub.ps", ir.KF32, 4, true}, {"llvm.x86.sse3.hsub.pd", ir.KF64, 2, true}} {
		h := h
		reg(func(a, res []uint64) {
			for i := 0; i < h.n; i++ {
				src := a[:h.n]
				if i >= h.n/2 {
					src = a[h.n:]
				}
				j := 2 * (i % (h.n / 2))
				x, y := FloatOf(src[j], h.kind), FloatOf(src[j+1], h.kind)
				if h.sub {
					y = -y
				}
				res[i] = FloatBits(x+y, h.kind)
			}
		}, h.name)
	}
}
