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
