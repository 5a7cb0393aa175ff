package race

import "augur/analyzer/exec/vm"

// Shadow memory. Each object the program accesses gets an objShadow on
// its first access, and the object's bytes are shadowed in chunks of
// chunkSize bytes, each made on the first access that touches it. A chunk
// keeps one cell per granule of 1<<shift bytes: as long as every access
// covers whole granules, the bytes of a granule share one history, so a
// cell holds exactly what a shadow per byte would hold for each of them.
// The first access to a chunk picks its granule when it covers a line or
// more (the whole chunk for a memset); an access that splits a granule
// splits every cell of that chunk into smaller ones first (see refine).
// The detector therefore finds the same races as one with a shadow per
// byte, and its memory follows what the program touched and how finely.
//
// Cells finer than a line (lineSize bytes) are made a line at a time: a
// chunk whose first access is finer (a byte, an int, a pointer), or
// whose line-sized cells an access splits, is split into lines (see
// split), each made, from the chunk's cell that covers it, when an access
// first touches it, and refined on its own. A byte read per 4 KiB of a
// 16 MiB table then costs one line's cells per chunk, 3.6 KB, not a
// chunk's 229 KB.

// chunkBits sets the bytes of an object one chunk shadows, lineBits the
// bytes of a line.
const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
	lineBits  = 6
	lineSize  = 1 << lineBits
)

// Costs of shadow memory, for the budget: per cell (hot and cold halves),
// per chunk and per object (with a pointer per chunk), and per list of
// reads a cell keeps and per read in it.
const (
	cellBytes   = 56
	chunkBytes  = 144
	shadowBytes = 88
	listBytes   = 32
	readBytes   = 32
)

// objShadow is the shadow of one object.
type objShadow struct {
	// gen is the generation of the detector that may change it in place;
	// a fork shares shadows and copies one before changing it (fork.go).
	gen    uint64
	serial uint64
	size   uint64
	chunks []*chunk // by offset >> chunkBits; nil until accessed
	bytes  uint64   // the memory it holds, chunks included
	// Private objects (private.go): owner is 1 + the thread that has the
	// object to itself (no chunks then), 0 once shared; from is 1 + the
	// thread that had it before (0: none), last its clock at its last
	// access then, and vouched the threads (below 64) checked against
	// that phase.
	owner, from int32
	last        uint64
	vouched     uint64
}

// chunk shadows chunkSize bytes of an object (fewer for its last chunk).
type chunk struct {
	gen   uint64 // as objShadow.gen
	shift uint8
	hot   []hot
	sites []sites
	// reads are the lists of reads of the cells marked listed, each
	// cell's found by the index it keeps in its sites.rCount (which such
	// a cell does not use otherwise): a slice, not a map by cell, as a
	// cell read at two sites in one epoch is listed too (readAgain), and
	// in compression code most cells are. free are the indices of lists
	// no cell holds.
	reads [][]sharedRead
	free  []uint64
	// lists is the memory the lists of reads hold: listBytes a slot,
	// readBytes a read its array has room for, in use or not.
	lists uint64
	// lines, when set, shadow the chunk by lineSize bytes each: the chunk
	// was split (split). A line not made yet is still what the chunk's
	// cell covering it says.
	lines []*chunk
}

// newObjShadow makes the shadow of an object of size bytes, private to
// thread owner-1 (no chunks yet) when owner is not 0.
func newObjShadow(serial, size uint64, gen uint64, owner int32) *objShadow {
	if owner != 0 {
		return &objShadow{gen: gen, serial: serial, size: size, bytes: shadowBytes, owner: owner}
	}
	n := (size + chunkSize - 1) >> chunkBits
	return &objShadow{gen: gen, serial: serial, size: size, chunks: make([]*chunk, n), bytes: shadowBytes + 8*n}
}

func newChunk(size uint64, shift uint8, gen uint64) *chunk {
	n := (size + 1<<shift - 1) >> shift
	return &chunk{gen: gen, shift: shift, hot: make([]hot, n), sites: make([]sites, n)}
}

// bytes is the memory the chunk holds, its lines included.
func (ch *chunk) bytes() uint64 {
	n := chunkBytes + uint64(len(ch.hot))*cellBytes + 8*uint64(len(ch.lines)) + ch.lists
	for _, ln := range ch.lines {
		if ln != nil {
			n += ln.bytes()
		}
	}
	return n
}

// granuleShift returns the largest granule (as a shift, at most max) that
// an access of size bytes at off covers whole, in a chunk of chunkLen
// bytes: the access starts on a granule and ends on one or at the
// chunk's end.
func granuleShift(off, size, chunkLen uint64, max uint8) uint8 {
	sh := max
	for sh > 0 {
		g := uint64(1) << sh
		if off%g == 0 && ((off+size)%g == 0 || off+size >= chunkLen) {
			break
		}
		sh--
	}
	return sh
}

// refine splits every cell into cells of 1<<shift bytes, each a copy of
// the one it came from, in a chunk of size bytes.
func (ch *chunk) refine(shift uint8, size uint64) {
	f := uint64(1) << (ch.shift - shift)
	n := (size + 1<<shift - 1) >> shift
	hots, sts := make([]hot, n), make([]sites, n)
	for i := uint64(0); i < n; i++ {
		hots[i], sts[i] = ch.hot[i/f], ch.sites[i/f]
	}
	old := ch.reads
	ch.hot, ch.sites, ch.shift, ch.reads, ch.free, ch.lists = hots, sts, shift, nil, nil, 0
	for i := range hots {
		if hots[i].r&listed != 0 {
			ch.keepReads(uint64(i), old[sts[i].rCount]...)
		}
	}
}

// keepReads marks cell i as one of concurrent reads, the reads rs, the
// last of which its hot.r and hot.rs name. The list goes into a slot a
// write freed when there is one, reusing the array it kept: on code that
// reads a buffer at several sites and then refills it, most lists are
// made and dropped again and again.
func (ch *chunk) keepReads(i uint64, rs ...sharedRead) {
	var k uint64
	if n := len(ch.free); n > 0 {
		k, ch.free = ch.free[n-1], ch.free[:n-1]
		ch.setList(k, append(ch.reads[k][:0], rs...))
	} else {
		k, ch.reads = uint64(len(ch.reads)), append(ch.reads, nil)
		ch.lists += listBytes
		ch.setList(k, append([]sharedRead(nil), rs...))
	}
	ch.hot[i].r |= listed
	ch.sites[i].rCount = k
}

// keepAlso lists cell i, a cell of one read, with the read it holds and
// r, which becomes its last.
func (ch *chunk) keepAlso(i uint64, r sharedRead) {
	x, st := &ch.hot[i], &ch.sites[i]
	first := sharedRead{x.r, x.rs, st.rCount, st.rLS}
	x.r, x.rs = r.e, r.site
	ch.keepReads(i, first, r)
}

// setList makes rs the list in slot k, counting the array it holds.
func (ch *chunk) setList(k uint64, rs []sharedRead) {
	ch.lists += readBytes * (uint64(cap(rs)) - uint64(cap(ch.reads[k])))
	ch.reads[k] = rs
}

// readsOf returns the reads of cell i, one of concurrent reads.
func (ch *chunk) readsOf(i uint64) []sharedRead { return ch.reads[ch.sites[i].rCount] }

// setReads makes rs the reads of cell i, one of concurrent reads.
func (ch *chunk) setReads(i uint64, rs []sharedRead) { ch.setList(ch.sites[i].rCount, rs) }

// dropReads forgets the reads of cell i, one of concurrent reads that a
// write ends; its slot keeps the array for the next list (keepReads).
func (ch *chunk) dropReads(i uint64) {
	k := ch.sites[i].rCount
	ch.reads[k] = ch.reads[k][:0]
	ch.free = append(ch.free, k)
}

// split divides a chunk of size bytes, whose granule is a line or more,
// into lines, none made yet: its cells stay, as what the lines not made
// hold.
func (ch *chunk) split(size uint64) {
	ch.lines = make([]*chunk, (size+lineSize-1)>>lineBits)
}

// newLine makes the line of ch at byte off, of size bytes, from the cell
// that covers it.
func (ch *chunk) newLine(off, size uint64, gen uint64) *chunk {
	ln := newChunk(size, lineBits, gen)
	c := off >> ch.shift
	ln.hot[0], ln.sites[0] = ch.hot[c], ch.sites[c]
	if ch.hot[c].r&listed != 0 {
		ln.keepReads(0, ch.readsOf(c)...)
	}
	return ln
}

// shadowPage holds the shadows of 1<<shadowPageBits consecutive object
// ids; n counts those in use, and a page with none is dropped, so shadow
// follows the objects the program holds, not every id it ever allocated.
type shadowPage struct {
	s   [1 << shadowPageBits]*objShadow
	n   int
	gen uint64 // as objShadow.gen
}

const shadowPageBits = 10

// shadow returns the shadow of the accessed object, made on first access
// (or when the id now names a newer object), for changing.
func (d *Detector) shadow(o *vm.Object) *objShadow { return d.shadowOf(o, 0) }

// shadowOf is shadow that makes a new shadow private to thread owner-1
// (none when owner is 0).
func (d *Detector) shadowOf(o *vm.Object, owner int32) *objShadow {
	pg := int(o.ID >> shadowPageBits)
	for pg >= len(d.shadows) {
		d.shadows = append(d.shadows, nil)
	}
	p := d.page(pg)
	slot := &p.s[o.ID&(1<<shadowPageBits-1)]
	s := *slot
	switch {
	case s == nil || s.serial != o.Serial:
		if s == nil {
			p.n++
		} else {
			d.shadowBytes -= s.bytes
		}
		s = newObjShadow(o.Serial, o.Size, d.gen, owner)
		d.shadowBytes += s.bytes
		*slot = s
	case s.gen != d.gen:
		s = s.clone(d.gen) // shared with a fork: this access may change it
		*slot = s
	}
	return s
}

// chunk returns the chunk of sh that starts at base, for an access of the
// bytes [lo, hi) within it: made on first access, copied first when a
// fork shares it, and refined so that its cells are no larger than the
// access covers whole.
func (d *Detector) chunk(sh *objShadow, base, lo, hi uint64) *chunk {
	k := base >> chunkBits
	size := min(chunkSize, sh.size-base)
	ch := sh.chunks[k]
	switch {
	case ch == nil:
		g := granuleShift(lo-base, hi-lo, size, chunkBits)
		if g >= lineBits || size <= lineSize {
			ch = newChunk(size, g, d.gen)
		} else {
			// Cells finer than a line are made a line at a time: one
			// cell for the chunk, none accessed yet, split into lines.
			ch = newChunk(size, chunkBits, d.gen)
			ch.split(size)
		}
		sh.chunks[k] = ch
		d.grow(sh, ch.bytes())
		return ch
	case ch.gen != d.gen:
		ch = ch.clone(d.gen)
		sh.chunks[k] = ch
	}
	if ch.lines == nil && ch.shift > 0 && ((lo-base)|(hi-lo))&(1<<ch.shift-1) != 0 {
		if g := granuleShift(lo-base, hi-lo, size, ch.shift); g < ch.shift {
			was := ch.bytes()
			if g < lineBits && ch.shift >= lineBits && size > lineSize {
				ch.split(size) // then the line refines (line)
			} else {
				ch.refine(g, size)
			}
			d.grow(sh, ch.bytes()-was)
		}
	}
	return ch
}

// line returns the line of the split chunk ch (of sh, at offset base)
// that starts at lineBase, for an access of the bytes [lo, hi) within it:
// made on first access, copied first when a fork shares it, and refined
// as chunk refines.
func (d *Detector) line(sh *objShadow, ch *chunk, base, lineBase, lo, hi uint64) *chunk {
	k := (lineBase - base) >> lineBits
	size := min(lineSize, sh.size-lineBase)
	ln := ch.lines[k]
	switch {
	case ln == nil:
		ln = ch.newLine(lineBase-base, size, d.gen)
		ch.lines[k] = ln
		d.grow(sh, ln.bytes())
	case ln.gen != d.gen:
		ln = ln.clone(d.gen)
		ch.lines[k] = ln
	}
	if ln.shift > 0 && ((lo-lineBase)|(hi-lo))&(1<<ln.shift-1) != 0 {
		if g := granuleShift(lo-lineBase, hi-lo, size, ln.shift); g < ln.shift {
			was := ln.bytes()
			ln.refine(g, size)
			d.grow(sh, ln.bytes()-was)
		}
	}
	return ln
}

// grow counts n more bytes of shadow in sh.
func (d *Detector) grow(sh *objShadow, n uint64) {
	sh.bytes += n
	d.shadowBytes += n
}
