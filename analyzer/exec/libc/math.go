package libc

import (
	"math"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// libm: each function is modeled with Go's math package for double, for
// its f-suffixed float variant and its l-suffixed long double one (the
// argument kind selects the precision; the machine holds a long double
// as a double, ir.KF80, so the l variants compute with double's).
func (tab table) addMath() {
	one := map[string]func(float64) float64{
		"sqrt": math.Sqrt, "cbrt": math.Cbrt, "fabs": math.Abs, "floor": math.Floor, "ceil": math.Ceil,
		"trunc": math.Trunc, "round": math.Round, "rint": math.RoundToEven, "nearbyint": math.RoundToEven,
		"exp": math.Exp, "exp2": math.Exp2, "expm1": math.Expm1, "log": math.Log, "log2": math.Log2,
		"log10": math.Log10, "log1p": math.Log1p, "sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
		"asin": math.Asin, "acos": math.Acos, "atan": math.Atan, "sinh": math.Sinh, "cosh": math.Cosh,
		"tanh": math.Tanh, "asinh": math.Asinh, "acosh": math.Acosh, "atanh": math.Atanh,
		"erf": math.Erf, "erfc": math.Erfc, "tgamma": math.Gamma,
		"lgamma": lgamma, "gamma": lgamma, "logb": math.Logb, "exp10": exp10, "pow10": exp10,
		"significand": significand, "j0": math.J0, "j1": math.J1, "y0": math.Y0, "y1": math.Y1,
	}
	two := map[string]func(x, y float64) float64{
		"pow": math.Pow, "atan2": math.Atan2, "fmod": math.Mod, "hypot": math.Hypot,
		"fmin": vm.MinNum, "fmax": vm.MaxNum, "copysign": math.Copysign, "remainder": math.Remainder,
		"fdim": math.Dim, "drem": math.Remainder,
	}
	// They need nothing of the machine, and are computed as the
	// intrinsics (llvm.sqrt) the compiler turns some of them into.
	for name, f := range one {
		tab.RegisterFloat1(f, name, name+"f", name+"l")
	}
	for name, f := range two {
		tab.RegisterFloat2(f, name, name+"f", name+"l")
	}
	tab.register(floatTest(func(x float64) int64 { return int64(math.Round(x)) }),
		"lround", "llround", "lroundf", "llroundf", "lroundl", "llroundl")
	// The rounding mode is always to nearest (fesetround), so rint's.
	tab.register(floatTest(func(x float64) int64 { return int64(math.RoundToEven(x)) }),
		"lrint", "llrint", "lrintf", "llrintf", "lrintl", "llrintl")
	tab.register(floatTest(func(x float64) int64 { return int64(ilogb(x)) }), "ilogb", "ilogbf", "ilogbl")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		k := in.ArgTys[0].Kind
		x, y := vm.FloatOf(a[0].Bits, k), vm.FloatOf(a[1].Bits, in.ArgTys[1].Kind)
		vm.SetResult(res, vm.FloatBits(nextAfter(x, y, k), k))
		return nil
	}, "nextafter", "nextafterf", "nextafterl", "nexttoward", "nexttowardf", "nexttowardl")
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		n, k := int(int32(a[0].Bits)), in.ArgTys[1].Kind
		f := math.Jn
		if in.Callee.Name[0] == 'y' {
			f = math.Yn
		}
		vm.SetResult(res, vm.FloatBits(f(n, vm.FloatOf(a[1].Bits, k)), k))
		return nil
	}, "jn", "jnf", "jnl", "yn", "ynf", "ynl")
	// The function forms of the classification macros (glibc's isinf
	// says which infinity).
	tab.register(floatTest(func(x float64) int64 { return b2i(!math.IsInf(x, 0) && !math.IsNaN(x)) }),
		"finite", "finitef", "finitel")
	tab.register(floatTest(func(x float64) int64 { return b2i(math.IsInf(x, 1)) - b2i(math.IsInf(x, -1)) }),
		"isinf", "isinff", "isinfl")
	tab.register(floatTest(func(x float64) int64 { return b2i(math.IsNaN(x)) }), "isnan", "isnanf", "isnanl")
}

// floatTest models an integer function of one floating argument.
func floatTest(f func(float64) int64) model {
	return func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, uint64(f(vm.FloatOf(a[0].Bits, in.ArgTys[0].Kind))))
		return nil
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// lgamma is the logarithm of the gamma function's magnitude; its sign
// goes to signgam in glibc, which augur does not keep (lgamma_r returns
// it: runtime/libc/math.c).
func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func exp10(x float64) float64 { return math.Pow(10, x) }

// significand is x scaled into [1, 2) by a power of two.
func significand(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	return math.Ldexp(x, -math.Ilogb(x))
}

// ilogb is x's binary exponent, with glibc's values for what has none:
// INT_MIN for zero and NaN (FP_ILOGB0, FP_ILOGBNAN on x86-64), INT_MAX for
// the infinities.
func ilogb(x float64) int32 {
	if math.IsNaN(x) {
		return math.MinInt32
	}
	return int32(math.Ilogb(x))
}

// nextAfter is the next value of kind k after x towards y: a float's
// next float, a double's (and augur's long double's) next double.
func nextAfter(x, y float64, k ir.Kind) float64 {
	if k == ir.KF32 {
		if math.IsNaN(y) {
			return y
		}
		ty := float32(y)
		if float64(ty) != y && float64(float32(x)) == x { // y between two floats: step towards it
			if y > x {
				ty = float32(math.Inf(1))
			} else if y < x {
				ty = float32(math.Inf(-1))
			}
		}
		return float64(math.Nextafter32(float32(x), ty))
	}
	return math.Nextafter(x, y)
}
