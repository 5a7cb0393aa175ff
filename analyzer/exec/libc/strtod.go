package libc

import (
	"math"
	"strconv"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// strtod and its kin stay with scanf, whose %f conversions parse the same
// way, until formatted input leaves this package for package libc.
func (tab table) addStrtod() {
	// strtod family: the longest prefix that parses as a C floating constant.
	strtod := func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		s, err := m.CString(a[0].Bits)
		if err != nil {
			return err
		}
		f, n := parseCFloat(s)
		vm.SetResult(res, vm.FloatBits(f, in.Ty.Kind))
		if outOfRange(s, f, in.Ty.Kind) {
			if err := m.SetErrno(t, vm.ERANGE); err != nil {
				return err
			}
		}
		if len(a) > 1 && a[1].Bits != 0 {
			end := a[0].Bits + uint64(n)
			return m.WriteUint(a[1].Bits, 8, end)
		}
		return nil
	}
	tab.registerIO(strtod, "strtod", "strtof", "atof")
}

// parseCFloat parses a leading floating constant as strtod does and returns
// the value and the number of bytes consumed (0 when none).
func parseCFloat(s string) (float64, int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	if f, n, ok := parseNaN(s[i:]); ok {
		return f, i + n
	}
	best, bestN := 0.0, 0
	for j := len(s); j > i; j-- {
		if f, err := strconv.ParseFloat(withBinaryExponent(s[i:j]), 64); err == nil || isRange(err) {
			best, bestN = f, j
			break
		}
	}
	return best, bestN
}

// withBinaryExponent gives a hexadecimal constant with digits and no
// exponent the exponent Go's ParseFloat requires and C's leaves optional:
// strtod reads "0x1.8" as 1.5.
func withBinaryExponent(c string) string {
	t := strings.TrimLeft(c, "+-")
	if len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X") && !strings.ContainsAny(t, "pP") {
		return c + "p0"
	}
	return c
}

// parseNaN reads a NaN as strtod does: a sign, "nan" in any case, and
// optionally a parenthesized run of letters, digits and underscores. The
// sign is the NaN's sign bit ("-nan" prints as such); Go's ParseFloat
// takes no sign before "nan".
func parseNaN(s string) (float64, int, bool) {
	n := 0
	neg := false
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		neg = s[n] == '-'
		n++
	}
	if len(s) < n+3 || !strings.EqualFold(s[n:n+3], "nan") {
		return 0, 0, false
	}
	n += 3
	if n < len(s) && s[n] == '(' {
		k := n + 1
		for k < len(s) && (s[k] == '_' || s[k] >= '0' && s[k] <= '9' || s[k]|0x20 >= 'a' && s[k]|0x20 <= 'z') {
			k++
		}
		if k < len(s) && s[k] == ')' {
			n = k + 1
		}
	}
	f := math.NaN()
	if neg {
		f = math.Copysign(f, -1)
	}
	return f, n, true
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
