package ir

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strings"
)

// CodeHash fingerprints everything about the program that can change how
// it runs, leaving out source locations. Two programs with the same hash
// behave the same; they differ at most in where their instructions say
// they come from (comments, blank lines or formatting moved), so results
// of one apply to the other once their locations are mapped (LocMap).
// It hashes the cache's encoding of the code (codec.go) without its
// locations.
func (p *Program) CodeHash() string {
	w := fingerprint{h: sha256.New(), e: encoder{noLocs: true}}
	w.e.uint(uint64(p.NumStatic))
	w.e.uint(uint64(len(p.Funcs)))
	for _, f := range p.Funcs {
		w.e.function(f)
		w.flush() // a function at a time: a large program is never encoded whole
	}
	w.e.uint(uint64(len(p.Globals)))
	for _, g := range p.Globals {
		w.e.global(g)
	}
	w.e.uint(uint64(len(p.Messages)))
	for _, m := range p.Messages {
		w.e.str(m)
	}
	return hex.EncodeToString(w.sum())
}

// FuncHash fingerprints one function's code (not its locations), or ""
// when the program has no function of that name: a result about code in
// the function holds as long as the hash does. The functions and globals
// it refers to (callees, addresses, thread-locals) are hashed by name, so
// functions and globals added or removed elsewhere, which renumber them,
// do not change it.
func (p *Program) FuncHash(name string) string {
	f := p.Func(name)
	if f == nil {
		return ""
	}
	w := fingerprint{h: sha256.New(), e: encoder{noLocs: true, names: p.objectNames()}}
	w.e.function(f)
	return hex.EncodeToString(w.sum()[:12])
}

// Key fingerprints the program whole: its code (CodeHash) and every source
// location it carries. Two programs with the same key give the same
// results, locations included, so a result made for one (in another
// process, say) is a result for the other. It is computed once.
func (p *Program) Key() string {
	p.keyOnce.Do(func() {
		w := fingerprint{h: sha256.New()}
		w.e.str(p.CodeHash())
		w.e.uint(uint64(len(p.Locs)))
		for _, l := range p.Locs {
			w.e.loc(l)
		}
		for _, f := range p.Funcs {
			w.e.loc(f.Loc)
			for i := range f.Insts {
				w.e.uint(uint64(f.Insts[i].Loc))
			}
			w.flush()
		}
		for _, g := range p.Globals {
			w.e.loc(g.Loc)
		}
		p.key = hex.EncodeToString(w.sum())
	})
	return p.key
}

// fingerprint hashes what its encoder writes (lengths before contents,
// so the bytes are unambiguous).
type fingerprint struct {
	h hash.Hash
	e encoder
}

// flush hashes what the encoder holds and empties it.
func (w *fingerprint) flush() {
	w.h.Write(w.e.b)
	w.e.b = w.e.b[:0]
}

func (w *fingerprint) sum() []byte {
	w.flush()
	return w.h.Sum(nil)
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
