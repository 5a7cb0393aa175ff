package vm

import (
	"errors"
	"fmt"

	"augur/analyzer/frontend/ir"
)

// memErr turns an access error into a crash termination.
func memErr(err error) error {
	var ae *AccessError
	if errors.As(err, &ae) {
		return terminate(TermCrash, SIGSEGV, "%s", ae.Error())
	}
	return err
}

// failedAccess turns an access error into a crash termination. A use
// after free of an object still in the quarantine is shown to the monitor
// first, as an access to the freed object: when the free and the use are
// concurrent, that is a data race (whose one order crashes), and the
// detector can only see it now.
func (m *Machine) failedAccess(t *Thread, err error, addr, size uint64, kind AccessKind, loc ir.LocID) error {
	var ae *AccessError
	if m.mon != nil && errors.As(err, &ae) && ae.Object != nil && ae.Object.Freed {
		m.note(t, ae.Object, addr&(1<<ir.AddrShift-1), size, kind, ir.NotAtomic, loc)
	}
	if errors.As(err, &ae) && ae.Object != nil && ae.Object.Freed {
		return m.freedAt(memErr(err), ae.Object)
	}
	if ae != nil {
		if hint := m.truncationHint(ae); hint != "" {
			return terminate(TermCrash, SIGSEGV, "%s (%s)", ae.Error(), hint)
		}
	}
	return memErr(err)
}

// truncation is where the program last converted a pointer to an
// integer of fewer than 64 bits, and the object it pointed into. Code
// written for a 32-bit or non-PIE address space does so to align or
// compare addresses (SPLASH-2's `(unsigned) x`) and converts the result
// back: natively that works only while the heap lies below 4 GiB, and
// under augur never, since an address's upper half names its object.
type truncation struct {
	at   ir.LocID
	id   uint32
	bits uint32
}

// truncationHint explains a wild access through an address with no
// object (its upper half zero, past the null page) that lies within the
// extent of the object whose pointer was last truncated: most likely what is left of that pointer
// or of another truncated the same way (each object starts at offset 0,
// so their lower halves look alike, and the hint names the conversion
// as an example). It is empty for any other failed access, and for one
// in the null page: a program that truncates pointers only to hash them
// and then dereferences a null pointer would be misled by it.
func (m *Machine) truncationHint(ae *AccessError) string {
	tr := m.truncated
	if tr.at == 0 || ae.Object != nil || ae.Addr>>ir.AddrShift != 0 || ae.Kind != "wild pointer" {
		return ""
	}
	o := m.mem.Object(tr.id)
	if o == nil || ae.Addr >= o.Size+truncationSlack {
		return ""
	}
	return fmt.Sprintf("a pointer converted to a %d-bit integer, as at %s, keeps only its lower half, and this address looks like one: "+
		"augur's addresses need 64 bits, as a position-independent build's do", tr.bits, m.prog.LocString(tr.at))
}

// truncationSlack is how far past the truncated object's end an address
// may lie and still be taken for what is left of its pointer: the
// alignment code that truncates adds up to a page.
const truncationSlack = 64 << 10

// load reads the value of a load instruction from addr into dst.
func (m *Machine) load(t *Thread, in *ir.Inst, addr uint64, dst []Value) error {
	o, off, err := m.mem.resolve(addr, uint64(in.Imm), false)
	if err != nil {
		return m.failedAccess(t, err, addr, uint64(in.Imm), Read, in.Loc)
	}
	if m.mon != nil {
		kind := Read
		if in.Ordering != ir.NotAtomic {
			kind = AtomicRead
		}
		m.note(t, o, off, uint64(in.Imm), kind, in.Ordering, in.Loc)
	}
	if acquires(in.Ordering) {
		m.atomicSync(t, Acquire, addr, in.Loc)
	}
	b := o.bytes[off:]
	if m.weak != nil && in.Ordering == ir.NotAtomic && in.Layout == nil && in.Raw && o.sym == nil && buffered(o) {
		v, handled, err := m.weakRead(t, o, off, uint64(in.Imm), ir.LoadLE(b, int(in.Imm)), in.Loc)
		if err != nil {
			return err
		}
		if handled {
			dst[0] = Value{Bits: v}
			return nil
		}
	}
	if in.Layout == nil {
		dst[0] = Value{Bits: ir.GetScalar(b, in.Ty)}
		if o.sym != nil && m.sym != nil {
			v, ok, err := m.loadSym(o, off, in.Ty)
			if err != nil {
				return err
			}
			if ok {
				dst[0] = v
			}
		}
		return nil
	}
	for i, f := range in.Layout {
		dst[i] = Value{Bits: ir.GetScalar(b[f.Off:], f.Scalar)}
		if o.sym != nil && m.sym != nil {
			v, ok, err := m.loadSym(o, off+uint64(f.Off), f.Scalar)
			if err != nil {
				return err
			}
			if ok {
				dst[i] = v
			}
		}
	}
	return nil
}

// store writes src (one value, or the fields of an aggregate) to addr.
func (m *Machine) store(t *Thread, in *ir.Inst, addr uint64, src []Value) error {
	o, off, err := m.mem.resolve(addr, uint64(in.Imm), true)
	if err != nil {
		return m.failedAccess(t, err, addr, uint64(in.Imm), Write, in.Loc)
	}
	if o.gen != m.mem.gen {
		o = m.mem.writable(o)
	}
	b := o.bytes[off : off+uint64(in.Imm)]
	if m.sym != nil {
		if in.Layout == nil {
			m.storeSym(o, off, in.Ty, src[0])
		} else {
			for i, f := range in.Layout {
				m.storeSym(o, off+uint64(f.Off), f.Scalar, src[i])
			}
		}
	}
	if releases(in.Ordering) {
		m.atomicSync(t, Release, addr, in.Loc)
	}
	if m.mon != nil {
		kind := Write
		if in.Ordering != ir.NotAtomic {
			kind = AtomicWrite
		}
		m.noteAddr(t, addr, uint64(in.Imm), kind, in.Ordering, in.Loc)
	}
	if m.weak != nil && buffered(o) {
		if in.Ordering == ir.NotAtomic && in.Layout == nil && in.Raw && src[0].Sym == nil && o.sym == nil {
			old := ir.LoadLE(b, int(in.Imm))
			ir.PutScalar(b, in.Ty, src[0].Bits)
			m.weak.Write(t.ID, o.ID, off, uint64(in.Imm), old, src[0].Bits, in.Loc)
			return nil
		}
		m.weak.Forget(o.ID, off, uint64(in.Imm)) // atomic, aggregate or symbolic: sequentially consistent
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

// acquires and releases say which side of synchronization an atomic
// ordering has.
func acquires(o ir.Ordering) bool { return o == ir.Acquire || o == ir.AcqRel || o == ir.SeqCst }
func releases(o ir.Ordering) bool { return o == ir.Release || o == ir.AcqRel || o == ir.SeqCst }

// atomicSync reports the synchronization of an atomic access at addr: the
// location's release clock.
func (m *Machine) atomicSync(t *Thread, op SyncOp, addr uint64, loc ir.LocID) {
	if m.mon == nil && m.weak == nil {
		return
	}
	m.emitSync(SyncEvent{Op: op, Thread: t.ID, Key: SyncKey{Kind: keyAtomic, Addr: addr}, Site: m.site(t, loc)})
}

// emitSync hands a synchronization event to the weak memory model's clocks
// and to the monitor, whichever the run has.
func (m *Machine) emitSync(ev SyncEvent) {
	m.syncs++
	if m.weak != nil {
		m.weak.Sync(ev.Op, ev.Thread, ev.Other, ev.Key)
	}
	if m.mon != nil {
		m.renewMarks(ev)
		m.mon.Sync(ev)
	}
}

// noteAddr reports an access at an address already checked valid.
func (m *Machine) noteAddr(t *Thread, addr, size uint64, kind AccessKind, ord ir.Ordering, loc ir.LocID) {
	o := m.mem.Object(uint32(addr >> ir.AddrShift))
	m.note(t, o, addr&(1<<ir.AddrShift-1), size, kind, ord, loc)
}

// noteRMW reports an atomic read-modify-write with its synchronization:
// acquire before, release (merging, to continue release sequences) after.
func (m *Machine) noteRMW(t *Thread, in *ir.Inst, addr uint64, ord ir.Ordering) {
	if m.weak != nil {
		if o := m.mem.Object(uint32(addr >> ir.AddrShift)); o != nil && buffered(o) {
			m.weak.Forget(o.ID, addr&(1<<ir.AddrShift-1), uint64(in.Imm))
		}
	}
	if m.mon == nil && m.weak == nil {
		return
	}
	if m.mon != nil {
		m.noteAddr(t, addr, uint64(in.Imm), AtomicRMW, ord, in.Loc)
	}
	if acquires(ord) {
		m.atomicSync(t, Acquire, addr, in.Loc)
	}
	if releases(ord) {
		m.atomicSync(t, ReleaseMerge, addr, in.Loc)
	}
}

// atomic executes an atomicrmw or a cmpxchg: read the old value, write the
// new one, with the access and its synchronization reported once for both.
func (m *Machine) atomic(t *Thread, in *ir.Inst, regs []Value) error {
	addr, x := get(regs, in.A).Bits, get(regs, in.B).Bits
	b, err := m.mem.writeSlice(addr, uint64(in.Imm))
	if err != nil {
		return memErr(err)
	}
	m.noteRMW(t, in, addr, in.Ordering)
	if in.Ty.Bits > 64 {
		return m.atomicWide(in, regs, b)
	}
	old := ir.GetScalar(b, in.Ty)
	if in.Op == ir.OpCmpXchg {
		swapped := old == x
		if swapped {
			ir.PutScalar(b, in.Ty, get(regs, in.C).Bits)
		}
		regs[in.Dst] = Value{Bits: old}
		regs[in.Dst+1] = Value{Bits: b2u(swapped)}
		return nil
	}
	r, err := rmw(int(in.Sub), old, x, in.Ty)
	if err != nil {
		return err
	}
	ir.PutScalar(b, in.Ty, r)
	regs[in.Dst] = Value{Bits: old}
	return nil
}

// rmw computes the value an atomicrmw of operation op stores.
func rmw(op int, old, x uint64, ty ir.Scalar) (uint64, error) {
	w := ty.Bits
	var r uint64
	switch op {
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
		if (a > c) == (op == ir.RMWMax) {
			r = old
		} else {
			r = x
		}
	case ir.RMWUMax, ir.RMWUMin:
		if (old > x) == (op == ir.RMWUMax) {
			r = old
		} else {
			r = x
		}
	case ir.RMWFAdd, ir.RMWFSub:
		f, g := FloatOf(old, ty.Kind), FloatOf(x, ty.Kind)
		if op == ir.RMWFSub {
			g = -g
		}
		return FloatBits(f+g, ty.Kind), nil
	default:
		return 0, unsupported("atomicrmw operation %d", op)
	}
	return r & ir.Mask(w), nil
}

// tlsAddr returns thread t's instance of thread-local global gid, creating it
// from the global's initializer on first use.
func (s *state) tlsAddr(t *Thread, gid uint32) (uint64, error) {
	if id, ok := t.tls[gid]; ok {
		return ir.Addr(id, 0), nil
	}
	g := s.prog.GlobalOf[gid]
	if g == nil {
		return 0, unsupported("thread-local address of a non-global")
	}
	o := s.mem.alloc(ObjTLS, g.Size, g.Name, 0, t.ID)
	copy(o.bytes, g.Init)
	if t.tls == nil {
		t.tls = map[uint32]uint32{}
	}
	t.tls[gid] = o.ID
	return ir.Addr(o.ID, 0), nil
}
