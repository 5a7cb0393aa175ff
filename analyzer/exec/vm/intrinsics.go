package vm

import (
	"math"
	"math/bits"
	"strings"

	"augur/analyzer/frontend/ir"
)

// CopyMem copies n bytes from src to dst with memmove semantics.
func (m *Machine) CopyMem(dst, src, n uint64) error {
	if n == 0 {
		return nil
	}
	m.charge(n)
	b, err := m.mem.Read(src, n)
	if err != nil {
		return memErr(err)
	}
	// Write copies with memmove's semantics when the bytes overlap in one
	// object, and a write that copies a shared object first leaves b on
	// the bytes as they were: no temporary copy, which for a realloc of a
	// large buffer would be a third buffer's worth of memory.
	if err := m.mem.Write(dst, b); err != nil {
		return memErr(err)
	}
	m.copySym(dst, src, n)
	m.noteNative(src, n, Read)
	m.noteNative(dst, n, Write)
	return nil
}

// SetMem fills n bytes of program memory at dst with c, as memset does: a
// write of the current call, which the race detector sees.
func (m *Machine) SetMem(dst uint64, c byte, n uint64) error {
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

func (tab *Models) addIntrinsics() {
	tab.addSIMD()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.CopyMem(a[0].Bits, a[1].Bits, a[2].Bits)
	}, "llvm.memcpy", "llvm.memmove").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.SetMem(a[0].Bits, byte(a[1].Bits), a[2].Bits)
	}, "llvm.memset").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, a[0].Bits)
		return m.CopyMem(a[0].Bits, a[1].Bits, a[2].Bits)
	}, "memcpy", "memmove").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, a[0].Bits)
		return m.SetMem(a[0].Bits, byte(a[1].Bits), a[2].Bits)
	}, "memset").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.SetMem(a[0].Bits, 0, a[1].Bits)
	}, "bzero", "explicit_bzero").Local()

	// Stack save/restore bracket variable-length arrays: restoring frees the
	// allocas made since the save.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, uint64(len(t.frames[len(t.frames)-1].allocas)))
		return nil
	}, "llvm.stacksave").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fr := &t.frames[len(t.frames)-1]
		keep := int(a[0].Bits)
		if keep <= len(fr.allocas) {
			for _, id := range fr.allocas[keep:] {
				m.releaseAlloca(t, id)
			}
			fr.allocas = fr.allocas[:keep]
		}
		return nil
	}, "llvm.stackrestore").Local()

	unary := func(f func(x uint64, w uint16) uint64) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			w := in.ArgTys[0].Bits
			SetResult(res, f(a[0].Bits, w)&ir.Mask(w))
			return nil
		}
	}
	tab.Register(unary(func(x uint64, w uint16) uint64 { return bits.ReverseBytes64(x) >> (64 - w) }), "llvm.bswap").Local()
	tab.Register(unary(func(x uint64, w uint16) uint64 { return uint64(bits.OnesCount64(x)) }), "llvm.ctpop").Local()
	tab.Register(unary(func(x uint64, w uint16) uint64 { return uint64(bits.LeadingZeros64(x) - (64 - int(w))) }), "llvm.ctlz").Local()
	tab.Register(unary(func(x uint64, w uint16) uint64 {
		if x == 0 {
			return uint64(w)
		}
		return uint64(bits.TrailingZeros64(x))
	}), "llvm.cttz").Local()
	tab.Register(unary(func(x uint64, w uint16) uint64 { return bits.Reverse64(x) >> (64 - w) }), "llvm.bitreverse").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		w := in.ArgTys[0].Bits
		v := ir.SExt(a[0].Bits, w)
		if v < 0 {
			v = -v
		}
		SetResult(res, uint64(v)&ir.Mask(w))
		return nil
	}, "llvm.abs").Local()
	minmax := func(signed, max bool) Native {
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
			SetResult(res, x)
			return nil
		}
	}
	tab.Register(minmax(true, true), "llvm.smax").Local()
	tab.Register(minmax(true, false), "llvm.smin").Local()
	tab.Register(minmax(false, true), "llvm.umax").Local()
	tab.Register(minmax(false, false), "llvm.umin").Local()
	// Saturating arithmetic (SSE's adds and subs, element by element): the
	// overflowing operation, and where it overflows the bound it passed.
	// An unsigned sum passes the maximum and a difference 0; a signed
	// result overflows only to the side of its first operand.
	sat := func(kind string) Native {
		return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			w := in.ArgTys[0].Bits
			r, o := overflow(kind, a[0].Bits, a[1].Bits, w)
			if o {
				smax := ir.Mask(w) >> 1
				switch {
				case kind == "uadd":
					r = ir.Mask(w)
				case kind == "usub":
					r = 0
				case ir.SExt(a[0].Bits, w) >= 0:
					r = smax
				default:
					r = smax + 1 // the minimum's bits
				}
			}
			SetResult(res, r)
			return nil
		}
	}
	for _, kind := range []string{"sadd", "uadd", "ssub", "usub"} {
		tab.Register(sat(kind), "llvm."+kind+".sat").Local()
	}
	for _, k := range []string{"sadd", "uadd", "ssub", "usub", "smul", "umul"} {
		kind := k
		tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			r, o := overflow(kind, a[0].Bits, a[1].Bits, in.ArgTys[0].Bits)
			res[0] = val(r)
			res[1] = val(b2u(o))
			return nil
		}, "llvm."+kind+".with.overflow")
	}
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, a[0].Bits)
		return nil
	}, "llvm.expect", "llvm.expect.with.probability", "llvm.ssa.copy", "llvm.launder.invariant.group", "llvm.strip.invariant.group").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if fn := endTrap(t); fn != "" {
			return terminate(TermCrash, SIGILL, "trap at the end of %s, which returns a value: reaching the end of such a C++ function "+
				"without a return is undefined, and clang traps there where gcc returns whatever is in the register "+
				"(--cflag=-fno-strict-return runs it as gcc's build does)", ir.ReadableName(fn))
		}
		return terminate(TermCrash, SIGILL, "trap (__builtin_trap)")
	}, "llvm.trap", "llvm.debugtrap", "llvm.ubsantrap")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		if a[1].Bits&1 != 0 { // min: unknown is 0
			SetResult(res, 0)
		} else {
			SetResult(res, ir.Mask(in.Ty.Bits))
		}
		return nil
	}, "llvm.objectsize").Local()
	// The x86 intrinsics of the spin-wait hint and the cycle counter
	// (_mm_pause, __rdtsc; the fences' are lowered as fence instructions).
	// A pause is a preemption point: it sits in spin loops, and the thread
	// the spin waits for should run.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error { return errYield }, "llvm.x86.sse2.pause")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, m.cycles(t, in))
		return nil
	}, "llvm.x86.rdtsc")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error { return nil }, "llvm.prefetch",
		"llvm.experimental.noalias.scope.decl").Local()
	// __builtin_constant_p of a value the optimizer did not fold: false,
	// as LLVM lowers it when it cannot prove a constant (libstdc++ asks).
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		SetResult(res, 0)
		return nil
	}, "llvm.is.constant").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		w := uint64(in.ArgTys[0].Bits)
		x, y, s := a[0].Bits, a[1].Bits, a[2].Bits%w
		r := x
		if s != 0 {
			r = (x<<s | y>>(w-s)) & ir.Mask(uint16(w))
		}
		SetResult(res, r)
		return nil
	}, "llvm.fshl").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		w := uint64(in.ArgTys[0].Bits)
		x, y, s := a[0].Bits, a[1].Bits, a[2].Bits%w
		r := y
		if s != 0 {
			r = (y>>s | x<<(w-s)) & ir.Mask(uint16(w))
		}
		SetResult(res, r)
		return nil
	}, "llvm.fshr").Local()

	// Floating-point intrinsics.
	tab.RegisterFloat1(math.Abs, "llvm.fabs")
	tab.RegisterFloat1(math.Sqrt, "llvm.sqrt")
	tab.RegisterFloat1(math.Floor, "llvm.floor")
	tab.RegisterFloat1(math.Ceil, "llvm.ceil")
	tab.RegisterFloat1(math.Trunc, "llvm.trunc")
	tab.RegisterFloat1(math.Round, "llvm.round")
	tab.RegisterFloat1(math.RoundToEven, "llvm.rint", "llvm.nearbyint", "llvm.roundeven")
	tab.RegisterFloat1(math.Sin, "llvm.sin")
	tab.RegisterFloat1(math.Cos, "llvm.cos")
	tab.RegisterFloat1(math.Exp, "llvm.exp")
	tab.RegisterFloat1(math.Exp2, "llvm.exp2")
	tab.RegisterFloat1(math.Log, "llvm.log")
	tab.RegisterFloat1(math.Log10, "llvm.log10")
	tab.RegisterFloat1(math.Log2, "llvm.log2")
	tab.RegisterFloat2(math.Copysign, "llvm.copysign")
	tab.RegisterFloat2(math.Pow, "llvm.pow")
	tab.RegisterFloat2(MinNum, "llvm.minnum", "llvm.minimum")
	tab.RegisterFloat2(MaxNum, "llvm.maxnum", "llvm.maximum")
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		k := in.ArgTys[0].Kind
		x, y, z := FloatOf(a[0].Bits, k), FloatOf(a[1].Bits, k), FloatOf(a[2].Bits, k)
		var r float64
		if k == ir.KF32 {
			r = float64(float32(math.FMA(x, y, z)))
		} else {
			r = math.FMA(x, y, z)
		}
		SetResult(res, FloatBits(r, k))
		return nil
	}, "llvm.fma", "llvm.fmuladd", "fma", "fmaf", "fmal").Local() // and libm's, which compute the same

	// Variadic functions: the va_list is x86-64's {i32 gp_offset, i32
	// fp_offset, i8* overflow_arg_area, i8* reg_save_area}. Marking both
	// register areas exhausted makes clang's va_arg code read every argument
	// from the overflow area packVarargs built.
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		fr := &t.frames[len(t.frames)-1]
		if fr.varargs == 0 {
			o := m.mem.alloc(ObjVarargs, 0, "variadic arguments", 0, t.ID)
			fr.varargs = o.ID
		}
		ap := a[0].Bits
		if err := m.WriteUint(ap, 4, 48); err != nil {
			return err
		}
		if err := m.WriteUint(ap+4, 4, 176); err != nil {
			return err
		}
		if err := m.WriteUint(ap+8, 8, ir.Addr(fr.varargs, 0)); err != nil {
			return err
		}
		return m.WriteUint(ap+16, 8, 0)
	}, "llvm.va_start").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error { return nil }, "llvm.va_end").Local()
	tab.Register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		return m.CopyMem(a[0].Bits, a[1].Bits, 24)
	}, "llvm.va_copy").Local()
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// FloatFunc1 models a function of one floating-point argument (an
// intrinsic such as llvm.sqrt, a libm function such as sqrt or sqrtf) by
// f, at the precision of the argument's kind.
func FloatFunc1(f func(float64) float64) Native {
	return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		k := in.ArgTys[0].Kind
		SetResult(res, FloatBits(f(FloatOf(a[0].Bits, k)), k))
		return nil
	}
}

// FloatFunc2 models a function of two floating-point arguments of the
// same kind by f, as FloatFunc1 does.
func FloatFunc2(f func(x, y float64) float64) Native {
	return func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		k := in.ArgTys[0].Kind
		SetResult(res, FloatBits(f(FloatOf(a[0].Bits, k), FloatOf(a[1].Bits, k)), k))
		return nil
	}
}

// MinNum is IEEE 754 minNum (llvm.minnum, fmin): a NaN operand yields the
// other operand.
func MinNum(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) {
		return x
	}
	return math.Min(x, y)
}

// MaxNum is IEEE 754 maxNum (llvm.maxnum, fmax).
func MaxNum(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) {
		return x
	}
	return math.Max(x, y)
}

// cycles reads the processor's cycle counter (rdtsc) for t's instruction
// in: a 3 GHz processor's count since the virtual epoch began, so it moves
// with the virtual clock, the same in every replay.
func (s *state) cycles(t *Thread, in *ir.Inst) uint64 {
	return uint64(s.Clock(t, in, "rdtsc")-virtualEpoch) * 3
}

// endTrap returns the name of the function whose trap t is at, when that
// is where clang puts the trap of a C++ function that returns a value and
// reaches its end without a return (strict return): the trap followed by
// unreachable in a function with a result. "" for any other trap. An
// explicit __builtin_trap() as the last statement of such a function
// looks the same, which the message allows for.
func endTrap(t *Thread) string {
	fr := &t.frames[len(t.frames)-1]
	if len(fr.fn.Ret) == 0 || fr.pc+1 >= len(fr.fn.Insts) || fr.fn.Insts[fr.pc+1].Op != ir.OpUnreachable ||
		!strings.HasPrefix(fr.fn.Name, "_Z") {
		return ""
	}
	return fr.fn.Name
}
