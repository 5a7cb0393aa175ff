package ir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The program cache's encoding. encoding/gob, and flate under it, took
// about 23 ms of every warm `augur run` to decode a hello world with augur's
// C library (10,600 instructions, each a struct of two dozen fields read
// through reflection): a third of the run. This encoding writes the same
// fields in a fixed order as varints, each instruction's optional fields
// behind a bitmask, and decodes in about 4 ms (BenchmarkDecodeProgram). Every field of
// Function, Inst, Global and Loc is written: TestCodecKeepsEveryField fills
// each with a value that is not zero and fails on a field this file does
// not know, so a new field cannot be forgotten. A change of the layout
// changes cacheFormat.
//
// The encoder is also the program's fingerprint (fingerprint.go): the
// same walk over the same fields, with the locations left out and, for a
// function's own hash, the functions and globals the code refers to
// written by name. So a field the cache keeps is a field the fingerprint
// covers (TestFingerprintCoversEveryField), and neither can forget one
// the other knows.

// programImage is what the cache holds of a Program: its functions
// (callees as ids), globals, locations, messages and the names that lead
// to a function besides its own.
type programImage struct {
	Funcs     []*Function
	Globals   []*Global
	Locs      []Loc
	Messages  []string
	NumStatic uint32
	Aliases   map[string]uint32
}

// The bits of an instruction's optional fields (instFlags).
const (
	hasSub = 1 << iota
	hasOrdering
	hasOrdering2
	isVolatile
	hasTy
	hasSrc
	hasN
	hasA
	hasB
	hasC
	hasImm
	hasMask
	isYield
	isRaw
	isPair
	hasLayout
	hasTerms
	hasArgs
	hasArgTys
	hasTargets
	hasCases
	hasCallee
)

// encodeProgram appends img's encoding to buf.
func encodeProgram(buf []byte, img *programImage) []byte {
	e := encoder{b: buf}
	e.uint(uint64(img.NumStatic))
	e.uint(uint64(len(img.Funcs)))
	for _, fn := range img.Funcs {
		e.function(fn)
	}
	e.uint(uint64(len(img.Globals)))
	for _, g := range img.Globals {
		e.global(g)
	}
	e.uint(uint64(len(img.Locs)))
	for _, l := range img.Locs {
		e.loc(l)
	}
	e.uint(uint64(len(img.Messages)))
	for _, m := range img.Messages {
		e.str(m)
	}
	names := make([]string, 0, len(img.Aliases))
	for name := range img.Aliases {
		names = append(names, name)
	}
	slices.Sort(names) // the same program gives the same bytes
	e.uint(uint64(len(names)))
	for _, name := range names {
		e.str(name)
		e.uint(uint64(img.Aliases[name]))
	}
	return e.b
}

func (e *encoder) global(g *Global) {
	e.str(g.Name)
	e.object(g.ID)
	e.uint(g.Size)
	e.int(int64(g.Align))
	e.bytes(g.Init)
	e.bools(g.ThreadLocal, g.Constant, g.External)
	e.loc(g.Loc)
}

func (e *encoder) function(fn *Function) {
	e.str(fn.Name)
	e.object(fn.ID)
	e.bools(fn.Decl, fn.Variadic, fn.Atomic)
	e.scalars(fn.Params)
	e.scalars(fn.Ret)
	e.int(int64(fn.NumSlots))
	e.int(int64(fn.FrameSize))
	e.uint(uint64(len(fn.Consts)))
	for _, c := range fn.Consts {
		if name, ok := e.names[uint32(c>>AddrShift)]; ok {
			e.str(name) // the address of a named object, plus an offset
			e.uint(c & (1<<AddrShift - 1))
			continue
		}
		e.uint(c)
	}
	e.loc(fn.Loc)
	e.uint(uint64(len(fn.Insts)))
	for i := range fn.Insts {
		e.inst(&fn.Insts[i])
	}
}

// inst writes an instruction: its op, destination and location, then the
// bitmask of the fields that are not zero, then those fields.
func (e *encoder) inst(in *Inst) {
	e.b = append(e.b, byte(in.Op))
	e.int(int64(in.Dst))
	if !e.noLocs {
		e.uint(uint64(in.Loc))
	}
	imm := in.Imm
	if in.Op == OpTLSAddr && e.names != nil {
		if name, ok := e.names[uint32(imm)]; ok {
			e.str(name) // a thread-local's id (the low half), named
			imm >>= 32
		}
	}
	f := instFlags(in)
	e.uint(f)
	if f&hasSub != 0 {
		e.b = append(e.b, in.Sub)
	}
	if f&hasOrdering != 0 {
		e.b = append(e.b, byte(in.Ordering))
	}
	if f&hasOrdering2 != 0 {
		e.b = append(e.b, byte(in.Ordering2))
	}
	if f&hasTy != 0 {
		e.scalar(in.Ty)
	}
	if f&hasSrc != 0 {
		e.scalar(in.Src)
	}
	if f&hasN != 0 {
		e.int(int64(in.N))
	}
	if f&hasA != 0 {
		e.int(int64(in.A))
	}
	if f&hasB != 0 {
		e.int(int64(in.B))
	}
	if f&hasC != 0 {
		e.int(int64(in.C))
	}
	if f&hasImm != 0 {
		e.int(imm)
	}
	if f&hasMask != 0 {
		e.uint(in.Mask)
	}
	if f&hasLayout != 0 {
		e.uint(uint64(len(in.Layout)))
		for _, l := range in.Layout {
			e.uint(uint64(l.Off))
			e.scalar(l.Scalar)
		}
	}
	if f&hasTerms != 0 {
		e.uint(uint64(len(in.Terms)))
		for _, t := range in.Terms {
			e.int(int64(t.Index))
			e.b = append(e.b, t.Width)
			e.int(t.Scale)
		}
	}
	if f&hasArgs != 0 {
		e.uint(uint64(len(in.Args)))
		for _, a := range in.Args {
			e.int(int64(a))
		}
	}
	if f&hasArgTys != 0 {
		e.scalars(in.ArgTys)
	}
	if f&hasTargets != 0 {
		e.uint(uint64(len(in.Targets)))
		for _, t := range in.Targets {
			e.int(int64(t.PC))
			e.bools(t.Parallel)
			e.uint(uint64(len(t.Moves)))
			for _, m := range t.Moves {
				e.int(int64(m.Dst))
				e.int(int64(m.Src))
				e.int(int64(m.N))
			}
		}
	}
	if f&hasCases != 0 {
		e.uint(uint64(len(in.Cases)))
		for _, c := range in.Cases {
			e.uint(c.Value)
			e.int(int64(c.Target))
		}
	}
	if f&hasCallee != 0 {
		e.object(in.Callee.ID)
	}
}

// instFlags is the bitmask of in's fields that are not zero (empty, for
// slices: a decoded empty slice is nil, as gob made it).
func instFlags(in *Inst) uint64 {
	var f uint64
	set := func(bit uint64, on bool) {
		if on {
			f |= bit
		}
	}
	set(hasSub, in.Sub != 0)
	set(hasOrdering, in.Ordering != 0)
	set(hasOrdering2, in.Ordering2 != 0)
	set(isVolatile, in.Volatile)
	set(hasTy, in.Ty != Scalar{})
	set(hasSrc, in.Src != Scalar{})
	set(hasN, in.N != 0)
	set(hasA, in.A != 0)
	set(hasB, in.B != 0)
	set(hasC, in.C != 0)
	set(hasImm, in.Imm != 0)
	set(hasMask, in.Mask != 0)
	set(isYield, in.Yield)
	set(isRaw, in.Raw)
	set(isPair, in.Pair)
	set(hasLayout, len(in.Layout) != 0)
	set(hasTerms, len(in.Terms) != 0)
	set(hasArgs, len(in.Args) != 0)
	set(hasArgTys, len(in.ArgTys) != 0)
	set(hasTargets, len(in.Targets) != 0)
	set(hasCases, len(in.Cases) != 0)
	set(hasCallee, in.Callee != nil)
	return f
}

// encoder appends varints, strings and small structs to b.
type encoder struct {
	b     []byte
	files map[string]int // the files of the locations written, numbered from 1
	// noLocs leaves every location out, and names, when set, has the
	// functions and globals it names (by object id) written by name
	// rather than id: a fingerprint's encoding, never decoded.
	noLocs bool
	names  map[uint32]string
}

// object writes a function's or global's id, or its name (names).
func (e *encoder) object(id uint32) {
	if name, ok := e.names[id]; ok {
		e.str(name)
		return
	}
	e.uint(uint64(id))
}

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *encoder) bytes(p []byte) {
	e.uint(uint64(len(p)))
	e.b = append(e.b, p...)
}

// bools writes up to eight booleans as one byte.
func (e *encoder) bools(bs ...bool) {
	var v byte
	for i, b := range bs {
		if b {
			v |= 1 << i
		}
	}
	e.b = append(e.b, v)
}

func (e *encoder) scalar(s Scalar) {
	e.b = append(e.b, byte(s.Kind))
	e.uint(uint64(s.Bits))
}

func (e *encoder) scalars(ss []Scalar) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.scalar(s)
	}
}

// loc writes a location (nothing, with noLocs); its file as a number when
// an earlier location named it, else as 0 and the name (a program's
// thousands of locations are in a few dozen files).
func (e *encoder) loc(l Loc) {
	if e.noLocs {
		return
	}
	if n, ok := e.files[l.File]; ok {
		e.uint(uint64(n))
	} else {
		if e.files == nil {
			e.files = map[string]int{}
		}
		e.files[l.File] = len(e.files) + 1
		e.uint(0)
		e.str(l.File)
	}
	e.int(int64(l.Line))
	e.int(int64(l.Col))
}

// errCorrupt is what decoding a truncated or damaged cache file gives;
// bitcode.LoadCached then lowers the program afresh.
var errCorrupt = errors.New("cached program: corrupt encoding")

// decodeProgram decodes encodeProgram's bytes. Callees are left nil, with
// their ids in callees (per function, per instruction: 0 for none).
func decodeProgram(b []byte) (img *programImage, callees [][]uint32, err error) {
	d := decoder{b: b}
	img = &programImage{NumStatic: d.u32()}
	if uint64(img.NumStatic) > uint64(len(b)) {
		// Every static object (a function or a global) takes bytes, and
		// DecodeProgram makes tables NumStatic long.
		d.fail("%d static objects in %d bytes", img.NumStatic, len(b))
	}
	img.Funcs = make([]*Function, d.count())
	callees = make([][]uint32, len(img.Funcs))
	for i := range img.Funcs {
		img.Funcs[i], callees[i] = d.function()
	}
	img.Globals = make([]*Global, d.count())
	for i := range img.Globals {
		g := &Global{Name: d.str(), ID: d.u32(), Size: d.uint(), Align: int(d.int())}
		g.Init = d.bytes()
		bs := d.byte()
		g.ThreadLocal, g.Constant, g.External = bs&1 != 0, bs&2 != 0, bs&4 != 0
		g.Loc = d.loc()
		img.Globals[i] = g
	}
	img.Locs = make([]Loc, d.count())
	for i := range img.Locs {
		img.Locs[i] = d.loc()
	}
	if n := d.count(); n > 0 {
		img.Messages = make([]string, n)
		for i := range img.Messages {
			img.Messages[i] = d.str()
		}
	}
	n := d.count()
	img.Aliases = make(map[string]uint32, n)
	for range n {
		name := d.str()
		img.Aliases[name] = d.u32()
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%w: %d bytes past the end", errCorrupt, len(d.b))
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return img, callees, nil
}

func (d *decoder) function() (*Function, []uint32) {
	fn := &Function{Name: d.str(), ID: d.u32()}
	bs := d.byte()
	fn.Decl, fn.Variadic, fn.Atomic = bs&1 != 0, bs&2 != 0, bs&4 != 0
	fn.Params = d.scalars()
	fn.Ret = d.scalars()
	fn.NumSlots = int(d.int())
	fn.FrameSize = int(d.int())
	if n := d.count(); n > 0 {
		fn.Consts = make([]uint64, n)
		for i := range fn.Consts {
			fn.Consts[i] = d.uint()
		}
	}
	fn.Loc = d.loc()
	n := d.count()
	if n == 0 {
		return fn, nil
	}
	fn.Insts = make([]Inst, n)
	callees := make([]uint32, n)
	for i := range fn.Insts {
		callees[i] = d.inst(&fn.Insts[i])
	}
	return fn, callees
}

// inst decodes one instruction into in and returns its callee's id.
func (d *decoder) inst(in *Inst) (callee uint32) {
	in.Op = Op(d.byte())
	in.Dst = d.i32()
	in.Loc = LocID(d.u32())
	f := d.uint()
	if f&hasSub != 0 {
		in.Sub = d.byte()
	}
	if f&hasOrdering != 0 {
		in.Ordering = Ordering(d.byte())
	}
	if f&hasOrdering2 != 0 {
		in.Ordering2 = Ordering(d.byte())
	}
	in.Volatile, in.Yield, in.Raw, in.Pair = f&isVolatile != 0, f&isYield != 0, f&isRaw != 0, f&isPair != 0
	if f&hasTy != 0 {
		in.Ty = d.scalar()
	}
	if f&hasSrc != 0 {
		in.Src = d.scalar()
	}
	if f&hasN != 0 {
		in.N = d.i32()
	}
	if f&hasA != 0 {
		in.A = Operand(d.i32())
	}
	if f&hasB != 0 {
		in.B = Operand(d.i32())
	}
	if f&hasC != 0 {
		in.C = Operand(d.i32())
	}
	if f&hasImm != 0 {
		in.Imm = d.int()
	}
	if f&hasMask != 0 {
		in.Mask = d.uint()
	}
	if f&hasLayout != 0 {
		in.Layout = make([]Field, d.count())
		for i := range in.Layout {
			in.Layout[i] = Field{Off: d.u32(), Scalar: d.scalar()}
		}
	}
	if f&hasTerms != 0 {
		in.Terms = make([]GEPTerm, d.count())
		for i := range in.Terms {
			in.Terms[i] = GEPTerm{Index: Operand(d.i32()), Width: d.byte(), Scale: d.int()}
		}
	}
	if f&hasArgs != 0 {
		in.Args = make([]Operand, d.count())
		for i := range in.Args {
			in.Args[i] = Operand(d.i32())
		}
	}
	if f&hasArgTys != 0 {
		in.ArgTys = d.scalars()
	}
	if f&hasTargets != 0 {
		in.Targets = make([]Edge, d.count())
		for i := range in.Targets {
			t := &in.Targets[i]
			t.PC = int(d.int())
			t.Parallel = d.byte()&1 != 0
			if n := d.count(); n > 0 {
				t.Moves = make([]Move, n)
				for k := range t.Moves {
					t.Moves[k] = Move{Dst: d.i32(), Src: Operand(d.i32()), N: d.i32()}
				}
			}
		}
	}
	if f&hasCases != 0 {
		in.Cases = make([]Case, d.count())
		for i := range in.Cases {
			in.Cases[i] = Case{Value: d.uint(), Target: int(d.int())}
		}
	}
	if f&hasCallee != 0 {
		callee = d.u32()
	}
	if f >= hasCallee<<1 {
		d.fail("instruction flags %#x", f)
	}
	return callee
}

// decoder reads what encoder wrote. The first error sticks: later reads
// return zeros, and decodeProgram reports it.
type decoder struct {
	b     []byte
	err   error
	files []string // the files of the locations read (see encoder.loc)
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{errCorrupt}, args...)...)
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1) // binary.AppendVarint's zigzag
}

func (d *decoder) u32() uint32 {
	v := d.uint()
	if v > math.MaxUint32 {
		d.fail("%d is not a uint32", v)
	}
	return uint32(v)
}

func (d *decoder) i32() int32 {
	v := d.int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail("%d is not an int32", v)
	}
	return int32(v)
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail("truncated")
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// count reads a length. Every element takes at least a byte, so a length
// past the bytes left is corruption, refused before it is allocated.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail("length %d with %d bytes left", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.count()
	if n == 0 {
		return nil
	}
	p := slices.Clone(d.b[:n])
	d.b = d.b[n:]
	return p
}

func (d *decoder) str() string {
	n := d.count()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) scalar() Scalar {
	k := Kind(d.byte())
	bits := d.uint()
	if bits > math.MaxUint16 {
		d.fail("scalar of %d bits", bits)
	}
	return Scalar{Kind: k, Bits: uint16(bits)}
}

func (d *decoder) scalars() []Scalar {
	n := d.count()
	if n == 0 {
		return nil
	}
	ss := make([]Scalar, n)
	for i := range ss {
		ss[i] = d.scalar()
	}
	return ss
}

func (d *decoder) loc() Loc {
	var file string
	if n := d.uint(); n == 0 {
		file = d.str()
		d.files = append(d.files, file)
	} else if n <= uint64(len(d.files)) {
		file = d.files[n-1]
	} else {
		d.fail("location in file %d of %d", n, len(d.files))
	}
	return Loc{File: file, Line: int(d.int()), Col: int(d.int())}
}
