package vm

import (
	"math"
	"math/bits"

	"augur/analyzer/ir"
)

// copyMem copies n bytes from src to dst with memmove semantics.
func (m *Machine) copyMem(dst, src, n uint64) error {
	if n == 0 {
		return nil
	}
	m.charge(n)
	b, err := m.mem.Read(src, n)
	if err != nil {
		return memErr(err)
	}
	tmp := append([]byte(nil), b...)
	if err := m.mem.Write(dst, tmp); err != nil {
		return memErr(err)
	}
	m.copySym(dst, src, n)
	m.noteNative(src, n, Read)
	m.noteNative(dst, n, Write)
	return nil
}

func (m *Machine) setMem(dst uint64, c byte, n uint64) error {
	if n == 0 {
		return nil
	}
	m.charge(n)
	b, err := m.mem.writeSlice(dst, n)
	if err != nil {
		return memErr(err)
	}
	for i := range b {
		b[i] = c
	}
	m.clearSym(dst, n)
	m.noteNative(dst, n, Write)
	return nil
}

func init() {
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.copyMem(a[0].Bits, a[1].Bits, a[2].Bits)
	}, "llvm.memcpy", "llvm.memmove")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.setMem(a[0].Bits, byte(a[1].Bits), a[2].Bits)
	}, "llvm.memset")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, a[0].Bits)
		return m.copyMem(a[0].Bits, a[1].Bits, a[2].Bits)
	}, "memcpy", "memmove")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, a[0].Bits)
		return m.setMem(a[0].Bits, byte(a[1].Bits), a[2].Bits)
	}, "memset")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.setMem(a[0].Bits, 0, a[1].Bits)
	}, "bzero", "explicit_bzero")

	// Stack save/restore bracket variable-length arrays: restoring frees the
	// allocas made since the save.
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, uint64(len(t.frames[len(t.frames)-1].allocas)))
		return nil
	}, "llvm.stacksave")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fr := &t.frames[len(t.frames)-1]
		keep := int(a[0].Bits)
		if keep <= len(fr.allocas) {
			for _, id := range fr.allocas[keep:] {
				m.releaseAlloca(t, id)
			}
			fr.allocas = fr.allocas[:keep]
		}
		return nil
	}, "llvm.stackrestore")

	unary := func(f func(x uint64, w uint16) uint64) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			w := in.ArgTys[0].Bits
			setRes(res, f(a[0].Bits, w)&ir.Mask(w))
			return nil
		}
	}
	register(unary(func(x uint64, w uint16) uint64 { return bits.ReverseBytes64(x) >> (64 - w) }), "llvm.bswap")
	register(unary(func(x uint64, w uint16) uint64 { return uint64(bits.OnesCount64(x)) }), "llvm.ctpop")
	register(unary(func(x uint64, w uint16) uint64 { return uint64(bits.LeadingZeros64(x) - (64 - int(w))) }), "llvm.ctlz")
	register(unary(func(x uint64, w uint16) uint64 {
		if x == 0 {
			return uint64(w)
		}
		return uint64(bits.TrailingZeros64(x))
	}), "llvm.cttz")
	register(unary(func(x uint64, w uint16) uint64 { return bits.Reverse64(x) >> (64 - w) }), "llvm.bitreverse")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		w := in.ArgTys[0].Bits
		v := ir.SExt(a[0].Bits, w)
		if v < 0 {
			v = -v
		}
		setRes(res, uint64(v)&ir.Mask(w))
		return nil
	}, "llvm.abs")
	minmax := func(signed, max bool) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			w := in.ArgTys[0].Bits
			x, y := a[0].Bits, a[1].Bits
			less := x < y
			if signed {
				less = ir.SExt(x, w) < ir.SExt(y, w)
			}
			if less == max {
				x = y
			}
			setRes(res, x)
			return nil
		}
	}
	register(minmax(true, true), "llvm.smax")
	register(minmax(true, false), "llvm.smin")
	register(minmax(false, true), "llvm.umax")
	register(minmax(false, false), "llvm.umin")
	for _, k := range []string{"sadd", "uadd", "ssub", "usub", "smul", "umul"} {
		kind := k
		register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			r, o := overflow(kind, a[0].Bits, a[1].Bits, in.ArgTys[0].Bits)
			res[0] = val(r)
			res[1] = val(b2u(o))
			return nil
		}, "llvm."+kind+".with.overflow")
	}
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, a[0].Bits)
		return nil
	}, "llvm.expect", "llvm.expect.with.probability", "llvm.ssa.copy", "llvm.launder.invariant.group", "llvm.strip.invariant.group")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return terminate(TermCrash, SIGILL, "trap (__builtin_trap)")
	}, "llvm.trap", "llvm.debugtrap", "llvm.ubsantrap")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if a[1].Bits&1 != 0 { // min: unknown is 0
			setRes(res, 0)
		} else {
			setRes(res, ir.Mask(in.Ty.Bits))
		}
		return nil
	}, "llvm.objectsize")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error { return nil }, "llvm.prefetch",
		"llvm.experimental.noalias.scope.decl")
	// __builtin_constant_p of a value the optimizer did not fold: false,
	// as LLVM lowers it when it cannot prove a constant (libstdc++ asks).
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, 0)
		return nil
	}, "llvm.is.constant")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		w := uint64(in.ArgTys[0].Bits)
		x, y, s := a[0].Bits, a[1].Bits, a[2].Bits%w
		r := x
		if s != 0 {
			r = (x<<s | y>>(w-s)) & ir.Mask(uint16(w))
		}
		setRes(res, r)
		return nil
	}, "llvm.fshl")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		w := uint64(in.ArgTys[0].Bits)
		x, y, s := a[0].Bits, a[1].Bits, a[2].Bits%w
		r := y
		if s != 0 {
			r = (y>>s | x<<(w-s)) & ir.Mask(uint16(w))
		}
		setRes(res, r)
		return nil
	}, "llvm.fshr")

	// Floating-point intrinsics.
	f1 := func(f func(float64) float64) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			k := in.ArgTys[0].Kind
			setRes(res, fromFloat(f(toFloat(a[0].Bits, k)), k))
			return nil
		}
	}
	f2 := func(f func(x, y float64) float64) native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			k := in.ArgTys[0].Kind
			setRes(res, fromFloat(f(toFloat(a[0].Bits, k), toFloat(a[1].Bits, k)), k))
			return nil
		}
	}
	register(f1(math.Abs), "llvm.fabs")
	register(f1(math.Sqrt), "llvm.sqrt")
	register(f1(math.Floor), "llvm.floor")
	register(f1(math.Ceil), "llvm.ceil")
	register(f1(math.Trunc), "llvm.trunc")
	register(f1(math.Round), "llvm.round")
	register(f1(math.RoundToEven), "llvm.rint", "llvm.nearbyint", "llvm.roundeven")
	register(f1(math.Sin), "llvm.sin")
	register(f1(math.Cos), "llvm.cos")
	register(f1(math.Exp), "llvm.exp")
	register(f1(math.Exp2), "llvm.exp2")
	register(f1(math.Log), "llvm.log")
	register(f1(math.Log10), "llvm.log10")
	register(f1(math.Log2), "llvm.log2")
	register(f2(math.Copysign), "llvm.copysign")
	register(f2(math.Pow), "llvm.pow")
	register(f2(fminnum), "llvm.minnum", "llvm.minimum")
	register(f2(fmaxnum), "llvm.maxnum", "llvm.maximum")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		k := in.ArgTys[0].Kind
		x, y, z := toFloat(a[0].Bits, k), toFloat(a[1].Bits, k), toFloat(a[2].Bits, k)
		var r float64
		if k == ir.KF32 {
			r = float64(float32(math.FMA(x, y, z)))
		} else {
			r = math.FMA(x, y, z)
		}
		setRes(res, fromFloat(r, k))
		return nil
	}, "llvm.fma", "llvm.fmuladd")

	// Variadic functions: the va_list is x86-64's {i32 gp_offset, i32
	// fp_offset, i8* overflow_arg_area, i8* reg_save_area}. Marking both
	// register areas exhausted makes clang's va_arg code read every argument
	// from the overflow area packVarargs built.
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fr := &t.frames[len(t.frames)-1]
		if fr.varargs == 0 {
			o := m.mem.alloc(ObjVarargs, 0, "variadic arguments", 0, t.ID)
			fr.varargs = o.ID
		}
		ap := a[0].Bits
		if err := m.writeUint(ap, 4, 48); err != nil {
			return err
		}
		if err := m.writeUint(ap+4, 4, 176); err != nil {
			return err
		}
		if err := m.writeUint(ap+8, 8, ir.Addr(fr.varargs, 0)); err != nil {
			return err
		}
		return m.writeUint(ap+16, 8, 0)
	}, "llvm.va_start")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error { return nil }, "llvm.va_end")
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.copyMem(a[0].Bits, a[1].Bits, 24)
	}, "llvm.va_copy")
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func fminnum(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) {
		return x
	}
	return math.Min(x, y)
}

func fmaxnum(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) {
		return x
	}
	return math.Max(x, y)
}
