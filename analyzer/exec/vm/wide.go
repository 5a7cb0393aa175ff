package vm

import (
	"encoding/binary"
	"math/big"

	"augur/analyzer/frontend/ir"
)

// Wide integers (65 to 128 bits) live in two registers, the low word
// first (see ir/wide.go). Their arithmetic is rare (bitfields straddling
// eight bytes, __int128), so it goes through math/big for plain
// correctness rather than speed; symbolic words are made concrete first.

// wideIn reads the wide (or, for casts from narrow, one-word) operand at o
// of w bits as an unsigned big integer.
func (s *state) wideIn(regs []Value, o ir.Operand, w uint16) (*big.Int, error) {
	words := 1
	if w > 64 {
		words = 2
	}
	n := new(big.Int)
	for i := words - 1; i >= 0; i-- {
		v := regs[int(o)+i]
		bits := v.Bits
		if v.Sym != nil {
			var err error
			if bits, err = s.concretize(v, v.Sym.Width); err != nil {
				return nil, err
			}
		}
		n.Lsh(n, 64)
		n.Or(n, new(big.Int).SetUint64(bits))
	}
	return n.And(n, wideMask(w)), nil
}

// wideOut writes n, truncated to w bits, to the Register(s) at dst.
func wideOut(regs []Value, dst int32, n *big.Int, w uint16) {
	n = new(big.Int).And(n, wideMask(w)) // also makes a negative n its two's complement
	regs[dst] = Value{Bits: new(big.Int).And(n, wideMask(64)).Uint64()}
	if w > 64 {
		regs[dst+1] = Value{Bits: new(big.Int).Rsh(n, 64).Uint64()}
	}
}

func wideMask(w uint16) *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
}

// signed reads an unsigned w-bit n as two's complement.
func signed(n *big.Int, w uint16) *big.Int {
	if n.Bit(int(w)-1) == 0 {
		return n
	}
	return new(big.Int).Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(w)))
}

// wideOperands reads the two w-bit operands of a wide operation.
func (s *state) wideOperands(regs []Value, in *ir.Inst, w uint16) (a, b *big.Int, err error) {
	if a, err = s.wideIn(regs, in.A, w); err != nil {
		return nil, nil, err
	}
	if b, err = s.wideIn(regs, in.B, w); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// wideBin executes OpWide.
func (st *state) wideBin(in *ir.Inst, regs []Value) error {
	w := in.Ty.Bits
	a, b, err := st.wideOperands(regs, in, w)
	if err != nil {
		return err
	}
	r := new(big.Int)
	switch in.Sub {
	case ir.BinAdd:
		r.Add(a, b)
	case ir.BinSub:
		r.Sub(a, b)
	case ir.BinMul:
		r.Mul(a, b)
	case ir.BinAnd:
		r.And(a, b)
	case ir.BinOr:
		r.Or(a, b)
	case ir.BinXor:
		r.Xor(a, b)
	case ir.BinShl, ir.BinLShr, ir.BinAShr:
		s := uint(w) // shifting by the width or more is poison: give 0 (or the sign)
		if b.IsUint64() && b.Uint64() < uint64(w) {
			s = uint(b.Uint64())
		}
		switch in.Sub {
		case ir.BinShl:
			r.Lsh(a, s)
		case ir.BinLShr:
			r.Rsh(a, s)
		default:
			r.Rsh(signed(a, w), s)
		}
	case ir.BinUDiv, ir.BinURem, ir.BinSDiv, ir.BinSRem:
		if b.Sign() == 0 {
			return terminate(TermCrash, SIGFPE, "division by zero")
		}
		if in.Sub == ir.BinUDiv {
			r.Quo(a, b)
		} else if in.Sub == ir.BinURem {
			r.Rem(a, b)
		} else {
			sa, sb := signed(a, w), signed(b, w)
			min := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(w)-1))
			if sa.Cmp(min) == 0 && sb.Cmp(big.NewInt(-1)) == 0 {
				return terminate(TermCrash, SIGFPE, "signed division overflow (INT_MIN / -1)")
			}
			if in.Sub == ir.BinSDiv {
				r.Quo(sa, sb) // truncates toward zero, as C and LLVM do
			} else {
				r.Rem(sa, sb)
			}
		}
	default:
		return unsupported("wide integer operation %d", in.Sub)
	}
	wideOut(regs, in.Dst, r, w)
	return nil
}

// wideCmp executes OpWideCmp.
func (s *state) wideCmp(in *ir.Inst, regs []Value) error {
	w := in.Src.Bits
	a, b, err := s.wideOperands(regs, in, w)
	if err != nil {
		return err
	}
	var c int
	switch in.Sub {
	case ir.ICmpSGT, ir.ICmpSGE, ir.ICmpSLT, ir.ICmpSLE:
		c = signed(a, w).Cmp(signed(b, w))
	default:
		c = a.Cmp(b)
	}
	var r bool
	switch in.Sub {
	case ir.ICmpEQ:
		r = c == 0
	case ir.ICmpNE:
		r = c != 0
	case ir.ICmpUGT, ir.ICmpSGT:
		r = c > 0
	case ir.ICmpUGE, ir.ICmpSGE:
		r = c >= 0
	case ir.ICmpULT, ir.ICmpSLT:
		r = c < 0
	case ir.ICmpULE, ir.ICmpSLE:
		r = c <= 0
	}
	regs[in.Dst] = Value{Bits: b2u(r)}
	return nil
}

// wideCast executes OpWideCast: trunc, zext, sext or a same-width bitcast
// where the source or the result is wide.
func (s *state) wideCast(in *ir.Inst, regs []Value) error {
	a, err := s.wideIn(regs, in.A, in.Src.Bits)
	if err != nil {
		return err
	}
	if in.Sub == ir.CastSExt {
		a = signed(a, in.Src.Bits)
	}
	wideOut(regs, in.Dst, a, in.Ty.Bits)
	return nil
}

// atomicWide finishes a cmpxchg or atomicrmw of a 128-bit integer
// (cmpxchg16b's), whose access atomic has reported: b is the object's 16
// bytes, read and written as one. A cmpxchg's result is the old value (two
// registers) and whether it swapped (the third).
func (m *Machine) atomicWide(in *ir.Inst, regs []Value, b []byte) error {
	w := in.Ty.Bits
	old := new(big.Int).SetUint64(binary.LittleEndian.Uint64(b[8:16]))
	old.Lsh(old, 64).Or(old, new(big.Int).SetUint64(binary.LittleEndian.Uint64(b[0:8])))
	x, err := m.wideIn(regs, in.B, w)
	if err != nil {
		return err
	}
	put := func(n *big.Int) {
		n = new(big.Int).And(n, wideMask(w))
		binary.LittleEndian.PutUint64(b[0:8], new(big.Int).And(n, wideMask(64)).Uint64())
		binary.LittleEndian.PutUint64(b[8:16], new(big.Int).Rsh(n, 64).Uint64())
	}
	if in.Op == ir.OpCmpXchg {
		swapped := old.Cmp(x) == 0
		if swapped {
			desired, err := m.wideIn(regs, in.C, w)
			if err != nil {
				return err
			}
			put(desired)
		}
		wideOut(regs, in.Dst, old, w)
		regs[in.Dst+2] = Value{Bits: b2u(swapped)}
		return nil
	}
	r, err := wideRMW(int(in.Sub), old, x, w)
	if err != nil {
		return err
	}
	put(r)
	wideOut(regs, in.Dst, old, w)
	return nil
}

// wideRMW computes the value an atomicrmw of operation op stores, on w-bit
// unsigned operands.
func wideRMW(op int, old, x *big.Int, w uint16) (*big.Int, error) {
	r := new(big.Int)
	switch op {
	case ir.RMWXchg:
		r.Set(x)
	case ir.RMWAdd:
		r.Add(old, x)
	case ir.RMWSub:
		r.Sub(old, x)
	case ir.RMWAnd:
		r.And(old, x)
	case ir.RMWNand:
		r.Not(r.And(old, x))
	case ir.RMWOr:
		r.Or(old, x)
	case ir.RMWXor:
		r.Xor(old, x)
	case ir.RMWMax, ir.RMWMin:
		if (signed(old, w).Cmp(signed(x, w)) > 0) == (op == ir.RMWMax) {
			r.Set(old)
		} else {
			r.Set(x)
		}
	case ir.RMWUMax, ir.RMWUMin:
		if (old.Cmp(x) > 0) == (op == ir.RMWUMax) {
			r.Set(old)
		} else {
			r.Set(x)
		}
	default:
		return nil, unsupported("atomicrmw operation %d on a %d-bit integer", op, w)
	}
	return r, nil
}
