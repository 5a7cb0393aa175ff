package vm

import (
	"math"
	"strconv"
	"strings"

	"augur/analyzer/ir"
)

// libm: each function is modeled with Go's math package for double and for
// its f-suffixed float variant (the argument kind selects the precision).
func init() {
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
		"fmin": fminnum, "fmax": fmaxnum, "copysign": math.Copysign, "remainder": math.Remainder,
		"fdim": math.Dim,
	}
	for name, f := range one {
		f := f
		register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			k := in.Ty.Kind
			setRes(res, fromFloat(f(toFloat(a[0].Bits, k)), k))
			return nil
		}, name, name+"f")
	}
	for name, f := range two {
		f := f
		register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
			k := in.Ty.Kind
			setRes(res, fromFloat(f(toFloat(a[0].Bits, k), toFloat(a[1].Bits, k)), k))
			return nil
		}, name, name+"f")
	}
	register(func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		setRes(res, uint64(int64(math.Round(toFloat(a[0].Bits, in.ArgTys[0].Kind)))))
		return nil
	}, "lround", "llround", "lroundf", "llroundf")

	// strtod family: the longest prefix that parses as a C floating constant.
	strtod := func(m *Machine, t *Thread, in *ir.Inst, a, res []Value) error {
		s, err := m.cstring(a[0].Bits)
		if err != nil {
			return err
		}
		f, n := parseCFloat(s)
		setRes(res, fromFloat(f, in.Ty.Kind))
		if outOfRange(s, f, in.Ty.Kind) {
			if err := m.setErrno(t, ERANGE); err != nil {
				return err
			}
		}
		if len(a) > 1 && a[1].Bits != 0 {
			end := a[0].Bits + uint64(n)
			return m.writeUint(a[1].Bits, 8, end)
		}
		return nil
	}
	register(strtod, "strtod", "strtof", "atof")
}

// parseCFloat parses a leading floating constant as strtod does and returns
// the value and the number of bytes consumed (0 when none).
func parseCFloat(s string) (float64, int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	best, bestN := 0.0, 0
	for j := len(s); j > i; j-- {
		if f, err := strconv.ParseFloat(s[i:j], 64); err == nil || isRange(err) {
			best, bestN = f, j
			break
		}
	}
	return best, bestN
}

// outOfRange reports what strtod sets ERANGE for: a number whose value
// overflows the result type, or underflows to zero from nonzero digits;
// an infinity written out is no error.
func outOfRange(s string, f float64, kind ir.Kind) bool {
	if kind == ir.KF32 {
		f = float64(float32(f))
	}
	t := strings.ToLower(strings.TrimLeft(s, " \t\n\v\f\r+-"))
	if math.IsInf(f, 0) {
		return !strings.HasPrefix(t, "inf")
	}
	if f != 0 {
		return false
	}
	digits, stop := "123456789", "e"
	if strings.HasPrefix(t, "0x") {
		t, digits, stop = t[2:], "123456789abcdef", "p"
	}
	if i := strings.IndexAny(t, stop); i >= 0 {
		t = t[:i]
	}
	for _, c := range t {
		if strings.ContainsRune(digits, c) {
			return true
		}
		if c != '.' && c != '0' {
			break
		}
	}
	return false
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
