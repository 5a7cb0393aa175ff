package ir

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"strings"
)

// CodeHash fingerprints everything about the program that can change how
// it runs, leaving out source locations. Two programs with the same hash
// behave the same; they differ at most in where their instructions say
// they come from (comments, blank lines or formatting moved), so results
// of one apply to the other once their locations are mapped (LocMap).
func (p *Program) CodeHash() string {
	w := &hasher{h: sha256.New()}
	w.int(int64(p.NumStatic))
	w.int(int64(len(p.Funcs)))
	for _, f := range p.Funcs {
		w.str(f.Name)
		w.int(int64(f.ID))
		w.function(f)
	}
	w.int(int64(len(p.Globals)))
	for _, g := range p.Globals {
		w.str(g.Name)
		w.int(int64(g.ID))
		w.int(int64(g.Size))
		w.int(int64(g.Align))
		w.str(string(g.Init))
		w.bool(g.ThreadLocal)
		w.bool(g.Constant)
		w.bool(g.External)
	}
	w.int(int64(len(p.Messages)))
	for _, m := range p.Messages {
		w.str(m)
	}
	return hex.EncodeToString(w.h.Sum(nil))
}

// FuncHash fingerprints one function's code (not its locations), or ""
// when the program has no function of that name: a result about code in
// the function holds as long as the hash does. References to other
// functions and globals are by id, so an edit that renumbers them changes
// it too, which errs on the safe side; callees are hashed by name, so
// functions added or removed elsewhere do not.
func (p *Program) FuncHash(name string) string {
	f := p.Func(name)
	if f == nil {
		return ""
	}
	w := &hasher{h: sha256.New(), calleeNames: true, objects: p.objectNames()}
	w.str(f.Name)
	w.function(f)
	return hex.EncodeToString(w.h.Sum(nil)[:12])
}

// Key fingerprints the program whole: its code (CodeHash) and every source
// location it carries. Two programs with the same key give the same
// results, locations included, so a result made for one (in another
// process, say) is a result for the other. It is computed once.
func (p *Program) Key() string {
	p.keyOnce.Do(func() {
		w := &hasher{h: sha256.New()}
		w.str(p.CodeHash())
		loc := func(l Loc) {
			w.str(l.File)
			w.int(int64(l.Line))
			w.int(int64(l.Col))
		}
		w.int(int64(len(p.Locs)))
		for _, l := range p.Locs {
			loc(l)
		}
		for _, f := range p.Funcs {
			loc(f.Loc)
			for i := range f.Insts {
				w.int(int64(f.Insts[i].Loc))
			}
		}
		for _, g := range p.Globals {
			loc(g.Loc)
		}
		p.key = hex.EncodeToString(w.h.Sum(nil))
	})
	return p.key
}

// hasher writes values unambiguously (lengths before contents).
type hasher struct {
	h   hash.Hash
	buf [8]byte
	// calleeNames hashes direct callees by name rather than id, and
	// objects names the functions and globals whose addresses appear as
	// constants (FuncHash).
	calleeNames bool
	objects     map[uint32]string
}

func (w *hasher) int(v int64) {
	binary.LittleEndian.PutUint64(w.buf[:], uint64(v))
	w.h.Write(w.buf[:])
}

func (w *hasher) bool(b bool) {
	if b {
		w.int(1)
	} else {
		w.int(0)
	}
}

func (w *hasher) str(s string) {
	w.int(int64(len(s)))
	w.h.Write([]byte(s))
}

func (w *hasher) scalar(s Scalar) { w.int(int64(s.Kind)<<16 | int64(s.Bits)) }

func (w *hasher) scalars(ss []Scalar) {
	w.int(int64(len(ss)))
	for _, s := range ss {
		w.scalar(s)
	}
}

func (w *hasher) operands(ops []Operand) {
	w.int(int64(len(ops)))
	for _, o := range ops {
		w.int(int64(o))
	}
}

// function writes a function's code: its signature, frame, constants and
// instructions.
func (w *hasher) function(f *Function) {
	w.bool(f.Decl)
	w.bool(f.Variadic)
	w.bool(f.Atomic)
	w.scalars(f.Params)
	w.scalars(f.Ret)
	w.int(int64(f.NumSlots))
	w.int(int64(f.FrameSize))
	w.int(int64(len(f.Consts)))
	for _, c := range f.Consts {
		if name, ok := w.objects[uint32(c>>AddrShift)]; ok {
			w.str(name) // the address of a named object, plus an offset
			w.int(int64(c & (1<<AddrShift - 1)))
			continue
		}
		w.int(int64(c))
	}
	w.int(int64(len(f.Insts)))
	for i := range f.Insts {
		w.inst(&f.Insts[i])
	}
}

// inst hashes every field of an instruction but its location.
func (w *hasher) inst(in *Inst) {
	if name, ok := w.objects[uint32(in.Imm)]; ok && in.Op == OpTLSAddr {
		// A thread-local's id, named (FuncHash).
		c := *in
		c.Imm >>= 32
		w.str(name)
		in = &c
	}
	w.int(int64(in.Op)<<24 | int64(in.Sub)<<16 | int64(in.Ordering)<<8 | int64(in.Ordering2))
	w.bool(in.Volatile)
	w.bool(in.Yield)
	w.bool(in.Raw)
	w.bool(in.Pair)
	w.scalar(in.Ty)
	w.scalar(in.Src)
	w.int(int64(in.Dst))
	w.int(int64(in.N))
	w.int(int64(in.A))
	w.int(int64(in.B))
	w.int(int64(in.C))
	w.int(in.Imm)
	w.int(int64(in.Mask))
	w.int(int64(len(in.Layout)))
	for _, f := range in.Layout {
		w.int(int64(f.Off))
		w.scalar(f.Scalar)
	}
	w.int(int64(len(in.Terms)))
	for _, t := range in.Terms {
		w.int(int64(t.Index))
		w.int(int64(t.Width))
		w.int(t.Scale)
	}
	w.operands(in.Args)
	w.scalars(in.ArgTys)
	w.int(int64(len(in.Targets)))
	for _, e := range in.Targets {
		w.int(int64(e.PC))
		w.bool(e.Parallel)
		w.int(int64(len(e.Moves)))
		for _, m := range e.Moves {
			w.int(int64(m.Dst))
			w.int(int64(m.Src))
			w.int(int64(m.N))
		}
	}
	w.int(int64(len(in.Cases)))
	for _, c := range in.Cases {
		w.int(int64(c.Value))
		w.int(int64(c.Target))
	}
	if in.Callee != nil && w.calleeNames {
		w.str(in.Callee.Name)
	} else if in.Callee != nil {
		w.int(int64(in.Callee.ID))
	} else {
		w.int(-1)
	}
}

// LocMap maps the locations of old to those of cur, two programs with the
// same CodeHash: instruction by instruction, function by function, and
// the definitions of functions and globals. A location that several
// instructions share maps to where the first of them went.
type LocMap struct {
	Locs map[Loc]Loc
	IDs  map[LocID]LocID
}

// MapLocs builds the LocMap from old to cur. It returns nil when the
// programs do not have the same shape (different code).
func MapLocs(old, cur *Program) *LocMap {
	if len(old.Funcs) != len(cur.Funcs) || len(old.Globals) != len(cur.Globals) {
		return nil
	}
	m := &LocMap{Locs: map[Loc]Loc{}, IDs: map[LocID]LocID{}}
	add := func(a, b Loc) {
		if _, ok := m.Locs[a]; !ok && a.File != "" {
			m.Locs[a] = b
		}
	}
	for i, f := range old.Funcs {
		g := cur.Funcs[i]
		if f.Name != g.Name || len(f.Insts) != len(g.Insts) {
			return nil
		}
		add(f.Loc, g.Loc)
		for j := range f.Insts {
			a, b := f.Insts[j].Loc, g.Insts[j].Loc
			if _, ok := m.IDs[a]; !ok {
				m.IDs[a] = b
			}
			add(old.Locs[a], cur.Locs[b])
		}
	}
	for i, g := range old.Globals {
		add(g.Loc, cur.Globals[i].Loc)
	}
	return m
}

// Loc maps one location; one it does not know (a line of a runtime
// header, say) stays as it is.
func (m *LocMap) Loc(l Loc) Loc {
	if n, ok := m.Locs[l]; ok {
		return n
	}
	return l
}

// ID maps a location id.
func (m *LocMap) ID(id LocID) LocID {
	if n, ok := m.IDs[id]; ok {
		return n
	}
	return id
}

// objectNames names each function and global by its object id, for
// FuncHash: functions and globals by name, string literals (which clang
// names .str, .str.1, ... in the order it meets them) by their contents.
func (p *Program) objectNames() map[uint32]string {
	names := make(map[uint32]string, len(p.Funcs)+len(p.Globals))
	for _, f := range p.Funcs {
		names[f.ID] = "func " + f.Name
	}
	for _, g := range p.Globals {
		if g.Constant && strings.HasPrefix(g.Name, ".str") {
			// A string literal by its bytes: the linker renames
			// literals (.str.1.2) as the program's own come and go. An
			// all-zero one ("") has no Init.
			init := g.Init
			if init == nil {
				init = make([]byte, g.Size)
			}
			names[g.ID] = "const " + string(init)
		} else {
			names[g.ID] = "global " + g.Name
		}
	}
	delete(names, 0) // the null object: a constant 0 is a number
	return names
}
