// Package bitvec holds the semantics of fixed-width integer operations that
// the interpreter, constant folding and the symbolic expression simplifier
// must agree on bit for bit. Values are kept zero-extended in a uint64.
package bitvec

// Op is an integer binary operation. The numbering is the one the lowered
// IR uses for its binary instructions.
type Op uint8

const (
	Add Op = iota
	Sub
	Mul
	UDiv
	SDiv
	URem
	SRem
	Shl
	LShr
	AShr
	And
	Or
	Xor
)

// Mask returns the low bits bits set (bits in 1..64).
func Mask(bits uint16) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<bits - 1
}

// SExt sign-extends the low bits bits of v to 64 bits.
func SExt(v uint64, bits uint16) int64 {
	if bits >= 64 {
		return int64(v)
	}
	s := 64 - bits
	return int64(v<<s) >> s
}

// Eval evaluates integer binary operation op on w-bit
// operands kept zero-extended. ok is false when the result is undefined
// (division by zero, signed division overflow); callers decide what that
// means (the VM reports a crash, constant folding refuses).
func Eval(op Op, a, b uint64, w uint16) (r uint64, ok bool) {
	m := Mask(w)
	switch op {
	case Add:
		return (a + b) & m, true
	case Sub:
		return (a - b) & m, true
	case Mul:
		return (a * b) & m, true
	case UDiv, URem, SDiv, SRem:
		if b == 0 {
			return 0, false
		}
		switch op {
		case UDiv:
			return a / b, true
		case URem:
			return a % b, true
		}
		sa, sb := SExt(a, w), SExt(b, w)
		if sb == -1 && sa == SExt(1<<(w-1), w) {
			return 0, false
		}
		if op == SDiv {
			return uint64(sa/sb) & m, true
		}
		return uint64(sa%sb) & m, true
	case Shl:
		if b >= uint64(w) {
			return 0, true // poison in LLVM; 0 keeps runs deterministic
		}
		return (a << b) & m, true
	case LShr:
		if b >= uint64(w) {
			return 0, true
		}
		return a >> b, true
	case AShr:
		if b >= uint64(w) {
			b = uint64(w) - 1
		}
		return uint64(SExt(a, w)>>b) & m, true
	case And:
		return a & b, true
	case Or:
		return a | b, true
	case Xor:
		return a ^ b, true
	}
	return 0, false
}
