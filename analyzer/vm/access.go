package vm

import (
	"errors"
	"math"

	"augur/analyzer/ir"
)

// memErr turns an access error into a crash termination.
func memErr(err error) error {
	var ae *AccessError
	if errors.As(err, &ae) {
		return terminate(TermCrash, SIGSEGV, "%s", ae.Error())
	}
	return err
}

// load reads the value of a load instruction from addr into dst.
func (m *Machine) load(t *Thread, in *ir.Inst, addr uint64, dst []Value) error {
	o, off, err := m.mem.resolve(addr, uint64(in.Imm), false)
	if err != nil {
		return memErr(err)
	}
	b := o.bytes[off:]
	if in.Layout == nil {
		dst[0] = Value{Bits: ir.GetScalar(b, in.Ty)}
		return nil
	}
	for i, f := range in.Layout {
		dst[i] = Value{Bits: ir.GetScalar(b[f.Off:], f.Scalar)}
	}
	return nil
}

// store writes src (one value, or the fields of an aggregate) to addr.
func (m *Machine) store(t *Thread, in *ir.Inst, addr uint64, src []Value) error {
	b, err := m.mem.writeSlice(addr, uint64(in.Imm))
	if err != nil {
		return memErr(err)
	}
	if in.Layout == nil {
		ir.PutScalar(b, in.Ty, src[0].Bits)
		return nil
	}
	for i, f := range in.Layout {
		ir.PutScalar(b[f.Off:], f.Scalar, src[i].Bits)
	}
	return nil
}

func (m *Machine) atomicRMW(t *Thread, in *ir.Inst, regs []Value) error {
	b, err := m.mem.writeSlice(get(regs, in.A).Bits, uint64(in.Imm))
	if err != nil {
		return memErr(err)
	}
	old := ir.GetScalar(b, in.Ty)
	x := get(regs, in.B).Bits
	w := in.Ty.Bits
	var r uint64
	switch int(in.Sub) {
	case ir.RMWXchg:
		r = x
	case ir.RMWAdd:
		r = old + x
	case ir.RMWSub:
		r = old - x
	case ir.RMWAnd:
		r = old & x
	case ir.RMWNand:
		r = ^(old & x)
	case ir.RMWOr:
		r = old | x
	case ir.RMWXor:
		r = old ^ x
	case ir.RMWMax, ir.RMWMin:
		a, c := ir.SExt(old, w), ir.SExt(x, w)
		if (a > c) == (int(in.Sub) == ir.RMWMax) {
			r = old
		} else {
			r = x
		}
	case ir.RMWUMax, ir.RMWUMin:
		if (old > x) == (int(in.Sub) == ir.RMWUMax) {
			r = old
		} else {
			r = x
		}
	case ir.RMWFAdd, ir.RMWFSub:
		f, g := toFloat(old, in.Ty.Kind), toFloat(x, in.Ty.Kind)
		if int(in.Sub) == ir.RMWFSub {
			g = -g
		}
		r = fromFloat(f+g, in.Ty.Kind)
	default:
		return unsupported("atomicrmw operation %d", in.Sub)
	}
	if in.Ty.Kind == ir.KInt {
		r &= ir.Mask(w)
	}
	ir.PutScalar(b, in.Ty, r)
	regs[in.Dst] = Value{Bits: old}
	return nil
}

func (m *Machine) cmpXchg(t *Thread, in *ir.Inst, regs []Value) error {
	b, err := m.mem.writeSlice(get(regs, in.A).Bits, uint64(in.Imm))
	if err != nil {
		return memErr(err)
	}
	old := ir.GetScalar(b, in.Ty)
	var ok uint64
	if old == get(regs, in.B).Bits {
		ir.PutScalar(b, in.Ty, get(regs, in.C).Bits)
		ok = 1
	}
	regs[in.Dst] = Value{Bits: old}
	regs[in.Dst+1] = Value{Bits: ok}
	return nil
}

// tlsAddr returns thread t's instance of thread-local global gid, creating it
// from the global's initializer on first use.
func (m *Machine) tlsAddr(t *Thread, gid uint32) (uint64, error) {
	if id, ok := t.tls[gid]; ok {
		return ir.Addr(id, 0), nil
	}
	g := m.prog.GlobalOf[gid]
	if g == nil {
		return 0, unsupported("thread-local address of a non-global")
	}
	o := m.mem.alloc(ObjTLS, g.Size, g.Name, 0, t.ID)
	copy(o.bytes, g.Init)
	if t.tls == nil {
		t.tls = map[uint32]uint32{}
	}
	t.tls[gid] = o.ID
	return ir.Addr(o.ID, 0), nil
}

var _ = math.Float64bits
