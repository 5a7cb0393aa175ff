package libc

import (
	"augur/analyzer/exec/expr"
	"augur/analyzer/exec/vm"
)

// memScan is sscanf's input in a symbolic run: the NUL-terminated string
// at addr, read one byte at a time as the conversions reach it, so a
// number in a line the program read from a symbolic input (fgets, then
// sscanf "%d") stays a term of that input, as scanf's does on a stream.
// A byte a conversion consumes is made concrete under a constraint as it
// is reached, except an integer conversion's digits (scanNumber); a
// concrete run reads the string whole (stringScan). A fork that splits a
// byte's class runs the call again from its start, with a new memScan:
// nothing of the string needs putting back.
type memScan struct {
	m    *machine
	addr uint64
	i    uint64 // offset of the next byte
	// unget is the pushed-back byte + 1 (0 if none), the byte before i,
	// already concrete.
	unget int
	// seen is how many bytes were looked at, for the read the monitor is
	// told of (note).
	seen uint64
	err  error
}

// at returns the byte at the current offset and its term when symbolic.
func (s *memScan) at() (int, *expr.Expr) {
	c, e, err := s.m.ByteTerm(s.addr + s.i)
	if err != nil {
		s.fail(err)
		return -1, nil
	}
	s.seen = max(s.seen, s.i+1)
	return int(c), e
}

func (s *memScan) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// read consumes the next byte, pinned if symbolic; -1 at the NUL.
func (s *memScan) read() int {
	if s.unget != 0 {
		c := s.unget - 1
		s.unget = 0
		s.i++
		return c
	}
	c, e := s.at()
	if e != nil {
		x, err := s.m.Concretize(vm.Value{Sym: e}, 8)
		if err != nil {
			s.fail(err)
			return -1
		}
		c = int(x)
	}
	if c <= 0 {
		return -1
	}
	s.i++
	return c
}

func (s *memScan) peek() int {
	c := s.read()
	s.unread(c)
	return c
}

func (s *memScan) next() int { return s.read() }

// unread pushes back byte c, the last one read; -1, the NUL, pushes back
// nothing.
func (s *memScan) unread(c int) {
	if c >= 0 {
		s.unget = c + 1
		s.i--
	}
}

// nextByte reads the next byte for an integer conversion of base: its
// value and, for a symbolic digit, its term (streamScan.nextByte on a
// stream).
func (s *memScan) nextByte(base int) (int, *expr.Expr) {
	if s.unget != 0 {
		return s.read(), nil
	}
	c, e := s.at()
	if e == nil || c < 0 {
		return s.read(), nil
	}
	x, digit, err := splitDigit(s.m, e, base, nil)
	if err != nil {
		s.fail(err)
		return -1, nil
	}
	if x == 0 {
		return -1, nil // the string's end
	}
	s.i++
	if digit {
		return int(x), e
	}
	return int(x), nil
}

func (s *memScan) failure() error { return s.err }

// note tells the race detector of the bytes the call looked at.
func (s *memScan) note() {
	if s.seen > 0 {
		s.m.NoteAccess(s.addr, s.seen, vm.Read)
	}
}
