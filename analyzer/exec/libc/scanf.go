package libc

import (
	"math"
	"strconv"
	"strings"

	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// scanSource is the input of a scanf-family call: a stream or a string.
type scanSource interface {
	peek() int // next byte, or -1 at end of input
	next() int
}

// streamScan reads from a vfile, pushing back the one byte of lookahead.
// A symbolic input byte is made concrete (under a constraint) as scanf
// consumes it, except an integer conversion's digits, which stay symbolic
// (scanNumber).
type streamScan struct {
	m   *machine
	f   *vfile
	err error
	// locate finds the stream in a fork of the execution, and start is
	// where the call found it (restart).
	locate func(*machine) *vfile
	start  struct {
		pos, unget int
		eof        bool
	}
}

// newStreamScan reads f, which locate finds in a fork of the execution.
func newStreamScan(m *machine, f *vfile, locate func(*machine) *vfile) *streamScan {
	s := &streamScan{m: m, f: f, locate: locate}
	s.start.pos, s.start.unget, s.start.eof = f.pos, f.unget, f.eof
	return s
}

func (s *streamScan) read() int {
	c, e := s.f.readSymByte()
	if e != nil && s.m.Symbolic() != nil {
		x, err := s.m.Concretize(vm.Value{Sym: e}, 8)
		if err != nil && s.err == nil {
			s.err = err
		}
		c = int(x)
	}
	return c
}

// unread pushes back byte c, which read or nextByte read (pinned if
// symbolic); -1, the end of input, pushes back nothing.
func (s *streamScan) unread(c int) {
	if c >= 0 {
		s.f.unget = c + 1
	}
}

// restart puts the stream of a fork made during the call back where the
// call found it: the fork runs the call again from its start.
func (s *streamScan) restart(fork *vm.Machine) {
	if f := s.locate(ioOf(fork)); f != nil {
		f.pos, f.unget, f.eof = s.start.pos, s.start.unget, s.start.eof
	}
}

// writeTerm writes the low size bytes of an integer whose value is v and
// whose term is e at p, as a conversion's result.
func (m *machine) writeTerm(p uint64, size int, v uint64, e *expr.Expr) error {
	if err := m.WriteUint(p, size, v); err != nil {
		return err
	}
	b := m.Terms()
	data, terms := make([]byte, size), make([]*expr.Expr, size)
	for i := range terms {
		data[i] = byte(v >> (8 * i))
		terms[i] = b.Extract(e, uint16(8*i), 8)
	}
	return m.SetSymBytes(p, data, terms)
}

func (s *streamScan) failure() error { return s.err }

func (s *streamScan) peek() int {
	c := s.read()
	s.unread(c)
	return c
}
func (s *streamScan) next() int { return s.read() }

// stringScan reads from a NUL-terminated string in memory.
type stringScan struct {
	s string
	i int
}

func (s *stringScan) peek() int {
	if s.i >= len(s.s) {
		return -1
	}
	return int(s.s[s.i])
}
func (s *stringScan) next() int {
	c := s.peek()
	if c >= 0 {
		s.i++
	}
	return c
}

func isSpace(c int) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// scan implements the scanf conversions and returns the number of
// assignments, or -1 (EOF) when input ended before the first conversion.
func (m *machine) scan(src scanSource, format string, args argSource, alloc func(n uint64) (uint64, error)) (int, error) {
	assigned, consumed := 0, 0
	inputFailure := false
	for i := 0; i < len(format); i++ {
		c := format[i]
		if isSpace(int(c)) {
			for isSpace(src.peek()) {
				src.next()
				consumed++
			}
			continue
		}
		if c != '%' || (i+1 < len(format) && format[i+1] == '%') {
			if c == '%' {
				i++
				for isSpace(src.peek()) {
					src.next()
				}
			}
			if src.peek() != int(c) {
				inputFailure = src.peek() < 0
				break
			}
			src.next()
			consumed++
			continue
		}
		i++
		suppress := false
		if i < len(format) && format[i] == '*' {
			suppress = true
			i++
		}
		// m (POSIX's assignment-allocation, glibc's %ms and %m[...]) may
		// come before the width or after it.
		allocates := false
		if i < len(format) && format[i] == 'm' {
			allocates = true
			i++
		}
		width := 0
		for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			width = width*10 + int(format[i]-'0')
		}
		if i < len(format) && format[i] == 'm' {
			allocates = true
			i++
		}
		start := i
		for i < len(format) && strings.IndexByte("hlLqjzt", format[i]) >= 0 {
			i++
		}
		length := format[start:i]
		if i >= len(format) {
			break
		}
		conv := format[i]
		var set string
		if conv == '[' {
			j := i + 1
			if j < len(format) && format[j] == '^' {
				j++
			}
			if j < len(format) && format[j] == ']' {
				j++
			}
			for j < len(format) && format[j] != ']' {
				j++
			}
			set = format[i+1 : j]
			i = j
		}
		// An integer conversion on symbolic bytes reads its spaces
		// itself, by class (scanNumber).
		base := convBase(conv)
		ns, _ := src.(numberSource)
		symNumber := ns != nil && byClass(conv, base) && m.Symbolic() != nil
		if conv != 'c' && conv != '[' && conv != 'n' && !symNumber {
			for isSpace(src.peek()) {
				src.next()
				consumed++
			}
		}
		if conv == 'n' {
			if !suppress {
				p, _ := args.next(false, false)
				if err := m.WriteUint(p, int(intBits(length)/8), uint64(consumed)); err != nil {
					return 0, err
				}
			}
			continue
		}
		if !symNumber && src.peek() < 0 {
			inputFailure = true
			break
		}
		if width == 0 {
			width = math.MaxInt32
			if conv == 'c' {
				width = 1
			}
		}
		var text []byte
		var digits []*expr.Expr // the terms of an integer conversion's symbolic digits
		accept := func(ok func(c int) bool) {
			for len(text) < width && src.peek() >= 0 && ok(src.peek()) {
				text = append(text, byte(src.next()))
			}
		}
		switch conv {
		case 'd', 'i', 'u', 'o', 'x', 'X', 'p':
			if symNumber {
				var skipped int
				var eof bool
				text, digits, skipped, eof = scanNumber(m, ns, width, base)
				consumed += skipped
				inputFailure = eof
				break
			}
			text = scanInteger(src, width, base)
		case 'f', 'e', 'g', 'E', 'G', 'a':
			accept(func(c int) bool { return strings.IndexByte("0123456789+-.eEinfatyINFATYxXpP", byte(c)) >= 0 })
		case 's':
			accept(func(c int) bool { return !isSpace(c) })
		case 'c':
			accept(func(int) bool { return true })
		case '[':
			table := scanSet(set)
			accept(func(c int) bool { return table[c] })
		default:
			return assigned, vm.Unsupported("scanf conversion %%%c is not supported", conv)
		}
		consumed += len(text)
		if len(text) == 0 {
			break // matching failure
		}
		if suppress {
			continue
		}
		p, err := args.next(false, false)
		if err != nil {
			return assigned, err
		}
		if allocates && (conv == 'c' || conv == 's' || conv == '[') {
			// The argument is a char **: the text goes to a buffer of its
			// own, which the program frees.
			n := uint64(len(text))
			if conv != 'c' {
				n++
			}
			buf, err := alloc(n)
			if err != nil {
				return assigned, err
			}
			if err := m.WriteUint(p, 8, buf); err != nil {
				return assigned, err
			}
			p = buf
		}
		var werr error
		switch conv {
		case 'd', 'i', 'u', 'o', 'x', 'X', 'p':
			term, err := m.numberTerm(text, digits, base) // may pin the digits, and text with them
			if err != nil {
				return assigned, err
			}
			v, ok := parseCInt(string(text), base)
			if !ok {
				return assigned, nil
			}
			size := int(intBits(length) / 8)
			if conv == 'p' {
				size = 8
			}
			if term == nil {
				werr = m.WriteUint(p, size, v)
				break
			}
			werr = m.writeTerm(p, size, v, term)
		case 'f', 'e', 'g', 'E', 'G', 'a':
			f, n := parseCFloat(string(text))
			if n == 0 {
				return assigned, nil
			}
			switch length {
			case "l":
				werr = m.WriteUint(p, 8, math.Float64bits(f))
			case "L":
				var b [10]byte
				ir.F80ToBytes(f, b[:])
				if werr = m.WriteBytes(p, b[:]); werr == nil {
					m.NoteAccess(p, 10, vm.Write)
				}
			default:
				werr = m.WriteUint(p, 4, uint64(math.Float32bits(float32(f))))
			}
		case 'c':
			if err := m.WriteBytes(p, text); err != nil {
				werr = err
			}
			m.NoteAccess(p, uint64(len(text)), vm.Write)
		default: // s and [
			if err := m.WriteBytes(p, append(text, 0)); err != nil {
				werr = err
			}
			m.NoteAccess(p, uint64(len(text)+1), vm.Write)
		}
		if werr != nil {
			return assigned, werr
		}
		assigned++
	}
	if assigned == 0 && inputFailure {
		return -1, nil
	}
	return assigned, nil
}

// scanSet builds the membership table of a %[...] conversion: ranges like
// a-z, a leading ] taken literally, a leading ^ negating.
func scanSet(set string) *[256]bool {
	var t [256]bool
	neg := strings.HasPrefix(set, "^")
	set = strings.TrimPrefix(set, "^")
	for i := 0; i < len(set); i++ {
		if i+2 < len(set) && set[i+1] == '-' { // a range; a '-' first or last is literal
			for c := int(set[i]); c <= int(set[i+2]); c++ {
				t[c] = true
			}
			i += 2
			continue
		}
		t[set[i]] = true
	}
	if neg {
		for i := range t {
			t[i] = !t[i]
		}
	}
	return &t
}

// scanInteger takes the longest prefix of the input that forms an integer in
// base (0: C's prefixes decide), at most width bytes.
func scanInteger(src scanSource, width, base int) []byte {
	var text []byte
	take := func() { text = append(text, byte(src.next())) }
	if c := src.peek(); (c == '+' || c == '-') && len(text) < width {
		take()
	}
	if src.peek() == '0' && len(text) < width && (base == 0 || base == 16) {
		take()
		if c := src.peek(); (c == 'x' || c == 'X') && len(text) < width {
			take()
			base = 16
		} else if base == 0 {
			base = 8
		}
	}
	if base == 0 {
		base = 10
	}
	for len(text) < width {
		c := src.peek()
		d := digitVal(c)
		if d < 0 || d >= base {
			break
		}
		take()
	}
	return text
}

func digitVal(c int) int {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'z':
		return c - 'a' + 10
	case c >= 'A' && c <= 'Z':
		return c - 'A' + 10
	}
	return -1
}

// parseCInt converts scanned integer text, wrapping like strtoul.
func parseCInt(s string, base int) (uint64, bool) {
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg = s[0] == '-'
		s = s[1:]
	}
	if base == 16 || base == 0 {
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
			s, base = s[2:], 16
		}
	}
	if base == 0 {
		base = 10
		if strings.HasPrefix(s, "0") && len(s) > 1 {
			base = 8
		}
	}
	if s == "" {
		return 0, base == 16 // "0x" alone reads as 0
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		v = math.MaxUint64
	}
	if neg {
		v = -v
	}
	return v, true
}

func (tab table) addScanf() {
	scanTo := func(from int, va bool) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			fmtIdx := 0
			var src scanSource
			switch from {
			case 0: // scanf: stdin
				f, err := m.files.stdStream(0)
				if err != nil {
					return err
				}
				if err := m.fillStream(t, f, aLine); err != nil {
					return err
				}
				src = newStreamScan(m, f, func(c *machine) *vfile { f, _ := c.files.stdStream(0); return f })
			case 1: // fscanf(FILE*, ...)
				fmtIdx = 1
				f, err := m.files.stream(a[0].Bits)
				if err != nil {
					return err
				}
				if err := m.fillStream(t, f, aLine); err != nil {
					return err
				}
				addr := a[0].Bits
				src = newStreamScan(m, f, func(c *machine) *vfile { f, _ := c.files.stream(addr); return f })
			case 2: // sscanf(const char*, ...)
				fmtIdx = 1
				if m.Symbolic() != nil {
					src = &memScan{m: m, addr: a[0].Bits}
					break
				}
				s, err := m.CString(a[0].Bits)
				if err != nil {
					return err
				}
				src = &stringScan{s: s}
			}
			format, err := m.CString(a[fmtIdx].Bits)
			if err != nil {
				return err
			}
			args, err := m.printfArgs(in, a, fmtIdx, va)
			if err != nil {
				return err
			}
			alloc := func(n uint64) (uint64, error) { return m.Malloc(t, n, in.Loc, "") }
			n, err := m.scan(src, format, args, alloc)
			vm.SetResult(res, uint64(int64(n))&0xffffffff)
			if ns, ok := src.(numberSource); ok && err == nil {
				err = ns.failure()
			}
			if ms, ok := src.(*memScan); ok {
				ms.note()
			}
			return err
		}
	}
	tab.registerIO(scanTo(0, false), "scanf", "__isoc99_scanf")
	tab.registerIO(scanTo(0, true), "vscanf", "__isoc99_vscanf")
	tab.registerIO(scanTo(1, false), "fscanf", "__isoc99_fscanf")
	tab.registerIO(scanTo(1, true), "vfscanf", "__isoc99_vfscanf")
	tab.registerIO(scanTo(2, false), "sscanf", "__isoc99_sscanf")
	tab.registerIO(scanTo(2, true), "vsscanf", "__isoc99_vsscanf")
}
