package libc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// argSource yields printf arguments in order: directly from a variadic call,
// or from a va_list in memory.
type argSource interface {
	// next returns the next argument's bits; wantFloat says the conversion
	// expects a double, long says long double.
	next(wantFloat, long bool) (uint64, error)
}

// callArgs reads the variadic arguments of a call to a modeled function.
type callArgs struct {
	vals []vm.Value
	tys  []ir.Scalar
	i    int
}

func (c *callArgs) next(wantFloat, long bool) (uint64, error) {
	if c.i >= len(c.vals) {
		return 0, nil // too few arguments: undefined behaviour; glibc reads garbage
	}
	v := c.vals[c.i]
	c.i++
	return v.Bits, nil
}

// vaListArgs reads arguments from the overflow area of a va_list made by
// llvm.va_start (see intrinsics.go).
type vaListArgs struct {
	m    *machine
	area uint64
}

func (m *machine) vaList(ap uint64) (*vaListArgs, error) {
	area, err := m.ReadUint(ap+8, 8)
	if err != nil {
		return nil, err
	}
	return &vaListArgs{m: m, area: area}, nil
}

func (v *vaListArgs) next(wantFloat, long bool) (uint64, error) {
	if long {
		v.area = (v.area + 15) &^ 15
		b, err := v.m.ReadBytes(v.area, 10)
		if err != nil {
			return 0, err
		}
		v.area += 16
		return math.Float64bits(ir.F80FromBytes(b)), nil
	}
	x, err := v.m.ReadUint(v.area, 8)
	v.area += 8
	return x, err
}

// spec is one parsed conversion.
type spec struct {
	minus, plus, space, hash, zero bool
	width, prec                    int // -1: not given
	length                         string
	conv                           byte
}

// format renders a C format string. cstr reads strings from memory.
func (m *machine) format(t *vm.Thread, fmtStr string, args argSource) ([]byte, error) {
	var pos *positionalArgs // the arguments by number, when the format numbers them
	if strings.IndexByte(fmtStr, '$') >= 0 {
		if kinds := positionalKinds(fmtStr); kinds != nil {
			p, err := readPositional(kinds, args)
			if err != nil {
				return nil, err
			}
			pos, args = p, p
		}
	}
	out := make([]byte, 0, len(fmtStr)+16)
	for i := 0; i < len(fmtStr); i++ {
		c := fmtStr[i]
		if c != '%' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(fmtStr) {
			break
		}
		var s spec
		s.width, s.prec = -1, -1
		convArg := 0 // the conversion's argument number, when numbered
		if pos != nil {
			if n, j, ok := argNumber(fmtStr, i); ok {
				convArg, i = n, j
			}
		}
	flags:
		for ; i < len(fmtStr); i++ {
			switch fmtStr[i] {
			case '-':
				s.minus = true
			case '+':
				s.plus = true
			case ' ':
				s.space = true
			case '#':
				s.hash = true
			case '0':
				s.zero = true
			case '\'':
			default:
				break flags
			}
		}
		if i < len(fmtStr) && fmtStr[i] == '*' {
			i = seekStar(pos, fmtStr, i)
			w, err := args.next(false, false)
			if err != nil {
				return nil, err
			}
			s.width = int(int32(w))
			if s.width < 0 {
				s.minus, s.width = true, -s.width
			}
			i++
		} else {
			for ; i < len(fmtStr) && fmtStr[i] >= '0' && fmtStr[i] <= '9'; i++ {
				s.width = max(s.width, 0)*10 + int(fmtStr[i]-'0')
			}
		}
		if i < len(fmtStr) && fmtStr[i] == '.' {
			i++
			s.prec = 0
			if i < len(fmtStr) && fmtStr[i] == '*' {
				i = seekStar(pos, fmtStr, i)
				p, err := args.next(false, false)
				if err != nil {
					return nil, err
				}
				s.prec = int(int32(p))
				if s.prec < 0 {
					s.prec = -1
				}
				i++
			} else {
				for ; i < len(fmtStr) && fmtStr[i] >= '0' && fmtStr[i] <= '9'; i++ {
					s.prec = s.prec*10 + int(fmtStr[i]-'0')
				}
			}
		}
		start := i
		for i < len(fmtStr) && strings.IndexByte("hlLqjzt", fmtStr[i]) >= 0 {
			i++
		}
		s.length = fmtStr[start:i]
		if i >= len(fmtStr) {
			break
		}
		s.conv = fmtStr[i]
		if convArg > 0 {
			pos.seek(convArg)
		}
		if s.conv == 'n' {
			if err := m.storeCount(&s, args, len(out)); err != nil {
				return nil, err
			}
			continue
		}
		piece, err := m.convert(t, &s, args)
		if err != nil {
			return nil, err
		}
		out = append(out, piece...)
	}
	return out, nil
}

// wideString is %ls of the wchar_t string at p: its characters in their
// multibyte form (UTF-8, whatever the locale: glibc's C locale refuses
// what is not ASCII), as many whole characters as fit in the precision's
// bytes.
func (m *machine) wideString(s *spec, p uint64) ([]byte, error) {
	var out []byte
	n := uint64(0)
	for ; ; n++ {
		w, err := m.ReadUint(p+4*n, 4)
		if err != nil {
			return nil, err
		}
		if w == 0 {
			n++ // the terminating L'\0' was read too
			break
		}
		enc := utf8.AppendRune(nil, rune(uint32(w)))
		if s.prec >= 0 && len(out)+len(enc) > s.prec {
			break
		}
		out = append(out, enc...)
	}
	m.NoteAccess(p, 4*n, vm.Read)
	return pad(s, out), nil
}

// seekStar positions pos at the argument a numbered '*' at fmt[i] names
// (*m$), and returns the index of the '*' itself, which format steps past.
func seekStar(pos *positionalArgs, fmt string, i int) int {
	if pos == nil {
		return i
	}
	if n, j, ok := argNumber(fmt, i+1); ok {
		pos.seek(n)
		return j - 1
	}
	return i
}

// intBits is the width in bits of an integer conversion's argument.
func intBits(length string) uint16 {
	switch length {
	case "hh":
		return 8
	case "h":
		return 16
	case "l", "ll", "q", "j", "z", "t", "L":
		return 64
	}
	return 32
}

func (m *machine) convert(t *vm.Thread, s *spec, args argSource) ([]byte, error) {
	switch s.conv {
	case '%':
		return []byte{'%'}, nil
	case 'd', 'i':
		x, err := args.next(false, false)
		if err != nil {
			return nil, err
		}
		v := ir.SExt(x&ir.Mask(intBits(s.length)), intBits(s.length))
		neg := v < 0
		mag := uint64(v)
		if neg {
			mag = uint64(-v)
		}
		sign := ""
		switch {
		case neg:
			sign = "-"
		case s.plus:
			sign = "+"
		case s.space:
			sign = " "
		}
		return padNumber(s, sign, intDigits(mag, 10, s.prec, false)), nil
	case 'u', 'x', 'X', 'o':
		x, err := args.next(false, false)
		if err != nil {
			return nil, err
		}
		x &= ir.Mask(intBits(s.length))
		base := map[byte]int{'u': 10, 'x': 16, 'X': 16, 'o': 8}[s.conv]
		digits := intDigits(x, base, s.prec, s.conv == 'X')
		prefix := ""
		if s.hash && x != 0 && base == 16 {
			prefix = "0" + string(s.conv)
		}
		if s.hash && base == 8 && !strings.HasPrefix(digits, "0") {
			digits = "0" + digits
		}
		return padNumber(s, prefix, digits), nil
	case 'c':
		x, err := args.next(false, false)
		if err != nil {
			return nil, err
		}
		if s.length == "l" { // %lc: a wint_t, written as its multibyte form
			return pad(s, utf8.AppendRune(nil, rune(uint32(x)))), nil
		}
		return pad(s, []byte{byte(x)}), nil
	case 's':
		p, err := args.next(false, false)
		if err != nil {
			return nil, err
		}
		if p != 0 && s.length == "l" {
			return m.wideString(s, p)
		}
		if p == 0 {
			if s.prec >= 0 && s.prec < 6 {
				return pad(s, nil), nil
			}
			return pad(s, []byte("(null)")), nil
		}
		max := 1 << 24
		if s.prec >= 0 {
			max = s.prec
		}
		str, err := m.ReadCString(p, max)
		if err != nil && s.prec < 0 {
			return nil, err
		}
		if len(str) > max {
			str = str[:max]
		}
		read := uint64(len(str))
		if len(str) < max {
			read++ // the terminating NUL was read too (an empty string is still a read)
		}
		m.NoteAccess(p, read, vm.Read)
		return pad(s, []byte(str)), nil
	case 'p':
		p, err := args.next(false, false)
		if err != nil {
			return nil, err
		}
		if p == 0 {
			return pad(s, []byte("(nil)")), nil
		}
		s.hash = true
		return padNumber(s, "0x", intDigits(p, 16, s.prec, false)), nil
	case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
		x, err := args.next(true, s.length == "L")
		if err != nil {
			return nil, err
		}
		return formatFloat(s, math.Float64frombits(x)), nil
	case 'm':
		return []byte("Unknown error"), nil
	}
	return nil, vm.Unsupported("printf conversion %%%c is not supported", s.conv)
}

// storeCount is %n: it stores how many bytes the call has produced so
// far (before any truncation by snprintf's size, as C says) in the
// integer the next argument points to, of the width the length modifier
// gives.
func (m *machine) storeCount(s *spec, args argSource, n int) error {
	p, err := args.next(false, false)
	if err != nil {
		return err
	}
	size := int(intBits(s.length) / 8)
	if err := m.WriteUint(p, size, uint64(n)); err != nil {
		return err
	}
	m.NoteAccess(p, uint64(size), vm.Write)
	return nil
}

func intDigits(x uint64, base, prec int, upper bool) string {
	d := strconv.FormatUint(x, base)
	if upper {
		d = strings.ToUpper(d)
	}
	if prec == 0 && x == 0 {
		d = ""
	}
	for len(d) < prec {
		d = "0" + d
	}
	return d
}

// padNumber applies width with the sign or prefix before zero padding. For
// integer conversions a precision turns the 0 flag off; for floating ones it
// does not.
func padNumber(s *spec, prefix, digits string) []byte {
	n := len(prefix) + len(digits)
	isFloat := strings.IndexByte("fFeEgGaA", s.conv) >= 0
	if s.width > n && s.zero && !s.minus && (s.prec < 0 || isFloat) {
		return []byte(prefix + strings.Repeat("0", s.width-n) + digits)
	}
	return pad(s, []byte(prefix+digits))
}

func pad(s *spec, b []byte) []byte {
	if s.width <= len(b) {
		return b
	}
	fill := strings.Repeat(" ", s.width-len(b))
	if s.minus {
		return append(b, fill...)
	}
	return append([]byte(fill), b...)
}

// formatFloat implements %f %e %g %a with C's rules.
func formatFloat(s *spec, f float64) []byte {
	upper := s.conv >= 'A' && s.conv <= 'Z'
	sign := ""
	if math.Signbit(f) {
		sign = "-"
		f = -f
	} else if s.plus {
		sign = "+"
	} else if s.space {
		sign = " "
	}
	var body string
	switch {
	case math.IsNaN(f):
		body = "nan"
	case math.IsInf(f, 0):
		body = "inf"
	}
	if body != "" {
		if upper {
			body = strings.ToUpper(body)
		}
		s.zero = false
		return padNumber(s, sign, body)
	}
	prec := s.prec
	if prec < 0 {
		prec = 6
	}
	lower := s.conv | 0x20
	switch lower {
	case 'f':
		body = strconv.FormatFloat(f, 'f', prec, 64)
		if s.hash && prec == 0 {
			body += "."
		}
	case 'e':
		body = strconv.FormatFloat(f, 'e', prec, 64) // Go and C agree: e+07, e+100
		if s.hash && prec == 0 {
			body = strings.Replace(body, "e", ".e", 1)
		}
	case 'g':
		if prec == 0 {
			prec = 1
		}
		x := 0
		if f != 0 {
			e := strconv.FormatFloat(f, 'e', prec-1, 64)
			x, _ = strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		}
		if prec > x && x >= -4 {
			body = strconv.FormatFloat(f, 'f', prec-1-x, 64)
		} else {
			body = strconv.FormatFloat(f, 'e', prec-1, 64)
		}
		if !s.hash {
			body = trimZeros(body)
		}
	case 'a':
		p := -1
		if s.prec >= 0 {
			p = s.prec
		}
		if s.length == "L" {
			body = x87Hex(f, p, s.hash)
			sign += "0x"
			break
		}
		if a := math.Abs(f); a != 0 && a < 0x1p-1022 {
			body = subnormalHex(a, p, s.hash)
			sign += "0x"
			break
		}
		body = strconv.FormatFloat(f, 'x', p, 64)
		// Go writes the exponent with two digits (p+00); C with as few as needed.
		if i := strings.IndexByte(body, 'p'); i >= 0 {
			exp, _ := strconv.Atoi(body[i+1:])
			// Rounded up past the next power of two, Go writes 0x1.00p+(e+1)
			// and glibc 0x2.00p+e.
			if p >= 0 && body[2] == '1' && strings.Trim(body[3:i], ".0") == "" {
				if _, e := math.Frexp(math.Abs(f)); f != 0 && e-1 < exp {
					body, exp = body[:2]+"2"+body[3:i], exp-1
					i = len(body)
				}
			}
			point := ""
			if s.hash && !strings.Contains(body[:i], ".") {
				point = "." // glibc keeps the point of "%#.0a": 0x1.p+0
			}
			body = body[:i] + point + "p" + strconv.FormatInt(int64(exp), 10)
			if exp >= 0 {
				body = body[:i] + point + "p+" + strconv.FormatInt(int64(exp), 10)
			}
		}
		body = body[2:]
		sign += "0x"
	}
	if upper {
		body = strings.ToUpper(body)
		sign = strings.ToUpper(sign)
	}
	return padNumber(s, sign, body)
}

// x87Hex is %La of f (not negative) after its "0x", as glibc writes an
// x87 long double: the 64-bit significand's integer bit heads the first
// hex digit (8 to f), so 1.0L is 0x8p-3 and 3.0L 0xcp-2, and 15 digits of
// fraction follow. augur holds a long double as a double (libc.md): the
// last 11 bits of the significand are zero, and trimmed without a
// precision. Rounded past 0xf (0xf.fp+0 to one digit), it is 0x1p+4, as
// glibc writes it; hash keeps the point of p 0.
func x87Hex(f float64, p int, hash bool) string {
	lead, rest, exp := uint64(0), uint64(0), 0
	if f != 0 {
		frac, e := math.Frexp(f) // f = frac·2^e, frac in [0.5, 1)
		sig := uint64(math.Ldexp(frac, 64))
		lead, rest, exp = sig>>60, sig&(1<<60-1), e-4
	}
	lead, digits := roundHex(lead, rest, 15, p)
	if lead == 16 {
		lead, exp = 1, exp+4
	}
	return hexFloat(lead, digits, exp, hash)
}

// subnormalHex is %a of the subnormal a (positive) after its "0x", as
// glibc writes it: 0.<the 13 hex digits of its fraction>p-1022, where Go
// would normalize to 1.xp-1074; rounded up into the leading digit, it is
// 1.<zeros>p-1022. hash keeps the point of p 0.
func subnormalHex(a float64, p int, hash bool) string {
	lead, digits := roundHex(0, math.Float64bits(a)&(1<<52-1), 13, p)
	return hexFloat(lead, digits, -1022, hash)
}

// roundHex writes frac, a fraction of n hex digits after the leading digit
// lead, to precision p (-1: every digit, the trailing zeros trimmed),
// rounded to nearest, ties to even (at precision 0, the leading digit's
// evenness), and returns the leading digit with what carried into it.
func roundHex(lead, frac uint64, n, p int) (uint64, string) {
	digits := fmt.Sprintf("%0*x", n, frac)
	switch {
	case p < 0:
		digits = strings.TrimRight(digits, "0")
	case p < n:
		shift := uint(4 * (n - p))
		q, rem, half := frac>>shift, frac&(1<<shift-1), uint64(1)<<(shift-1)
		odd := q&1 == 1
		if p == 0 {
			odd = lead&1 == 1
		}
		if rem > half || rem == half && odd {
			q++
		}
		if q>>(4*uint(p)) != 0 { // carried into the leading digit
			lead, q = lead+1, 0
		}
		digits = fmt.Sprintf("%0*x", p, q)[:p]
	default:
		digits += strings.Repeat("0", p-n)
	}
	return lead, digits
}

// hexFloat joins a %a conversion's leading digit, fraction digits and
// binary exponent; hash keeps the point without digits.
func hexFloat(lead uint64, digits string, exp int, hash bool) string {
	body := strconv.FormatUint(lead, 16)
	if digits != "" || hash {
		body += "." + digits
	}
	if exp >= 0 {
		return body + "p+" + strconv.Itoa(exp)
	}
	return body + "p" + strconv.Itoa(exp)
}

// trimZeros removes trailing zeros of the fraction (and a bare point) from
// a %g result.
func trimZeros(s string) string {
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	if strings.IndexByte(mant, '.') >= 0 {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	return mant + exp
}
