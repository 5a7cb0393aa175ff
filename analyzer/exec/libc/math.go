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
	}
	two := map[string]func(x, y float64) float64{
		"pow": math.Pow, "atan2": math.Atan2, "fmod": math.Mod, "hypot": math.Hypot,
		"fmin": vm.MinNum, "fmax": vm.MaxNum, "copysign": math.Copysign, "remainder": math.Remainder,
		"fdim": math.Dim,
	}
	// They need nothing of the machine, and are computed as the
	// intrinsics (llvm.sqrt) the compiler turns some of them into.
	for name, f := range one {
		tab.RegisterFloat1(f, name, name+"f", name+"l")
	}
	for name, f := range two {
		tab.RegisterFloat2(f, name, name+"f", name+"l")
	}
	tab.register(func(m Machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, uint64(int64(math.Round(vm.FloatOf(a[0].Bits, in.ArgTys[0].Kind)))))
		return nil
	}, "lround", "llround", "lroundf", "llroundf", "lroundl", "llroundl")
}
