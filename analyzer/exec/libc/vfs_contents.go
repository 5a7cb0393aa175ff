package libc

import "slices"

// contentBits sets the bytes of a file's contents one chunk holds.
const (
	contentBits  = 16
	contentChunk = 1 << contentBits
)

// contents is what a file of the virtual file system (or a memory
// stream) holds, in chunks of contentChunk bytes. A file that grows by
// appends adds chunks and never copies what it holds: a contiguous slice
// would be reallocated as it grows, briefly holding the old copy and the
// new, so a file under a 256 MiB budget could take 600 MiB of the
// process. A fork shares every chunk, and either side copies a chunk
// before its first write to it, so what a schedule's fork copies is what
// it writes.
//
// Every chunk but the last is contentChunk bytes long; the last holds the
// rest. A nil *contents reads as empty.
type contents struct {
	chunks [][]byte
	own    []bool // chunk i may be written in place: no fork or caller shares it
	n      int
}

// newContents holds b without copying it: b is copied chunk by chunk
// before the first write to it, so the caller's slice is never changed.
func newContents(b []byte) *contents {
	c := &contents{n: len(b)}
	for lo := 0; lo < len(b); lo += contentChunk {
		hi := min(lo+contentChunk, len(b))
		c.chunks = append(c.chunks, b[lo:hi:hi])
		c.own = append(c.own, false)
	}
	return c
}

// len is the size of the contents in bytes.
func (c *contents) len() int {
	if c == nil {
		return 0
	}
	return c.n
}

// at is the byte at offset i, which is below len.
func (c *contents) at(i int) byte { return c.chunks[i>>contentBits][i&(contentChunk-1)] }

// slice returns a copy of the bytes [lo, hi), which are within the
// contents.
func (c *contents) slice(lo, hi int) []byte {
	out := make([]byte, 0, hi-lo)
	for lo < hi {
		ch := c.chunks[lo>>contentBits]
		off := lo & (contentChunk - 1)
		k := min(hi-lo, len(ch)-off)
		out = append(out, ch[off:off+k]...)
		lo += k
	}
	return out
}

// bytes returns a copy of all of the contents.
func (c *contents) bytes() []byte { return c.slice(0, c.len()) }

// writeAt writes b at offset pos, extending the contents with zeros up to
// pos first when it is past their end.
func (c *contents) writeAt(pos int, b []byte) {
	end := pos + len(b)
	if end > c.n {
		c.resize(end)
	}
	for len(b) > 0 {
		i := pos >> contentBits
		off := pos & (contentChunk - 1)
		ch := c.owned(i)
		k := copy(ch[off:], b)
		b, pos = b[k:], pos+k
	}
}

// owned returns chunk i, copied first when it is shared.
func (c *contents) owned(i int) []byte {
	if !c.own[i] {
		c.chunks[i] = slices.Clone(c.chunks[i])
		c.own[i] = true
	}
	return c.chunks[i]
}

// resize makes the contents n bytes long: cut, or extended with zeros.
func (c *contents) resize(n int) {
	if n <= c.n {
		k := (n + contentChunk - 1) >> contentBits
		clear(c.chunks[k:])
		c.chunks, c.own = c.chunks[:k], c.own[:k]
		if k > 0 {
			last := n - (k-1)<<contentBits
			c.chunks[k-1] = c.chunks[k-1][:last:last] // so an extension cannot see the bytes cut
		}
		c.n = n
		return
	}
	if k := len(c.chunks); k > 0 && len(c.chunks[k-1]) < contentChunk {
		want := min(contentChunk, n-(k-1)<<contentBits)
		last := c.chunks[k-1]
		if !c.own[k-1] || cap(last) < want { // doubled, as append would, but never past a chunk
			grown := make([]byte, len(last), min(contentChunk, max(want, 2*cap(last))))
			copy(grown, last)
			last, c.own[k-1] = grown, true
		}
		c.chunks[k-1] = last[:want]
	}
	for have := len(c.chunks) << contentBits; have < n; have += contentChunk {
		c.chunks = append(c.chunks, make([]byte, min(contentChunk, n-have)))
		c.own = append(c.own, true)
	}
	c.n = n
}

// fork returns a copy of the contents that shares every chunk with c;
// both copy a chunk before writing it.
func (c *contents) fork() *contents {
	if c == nil {
		return nil
	}
	clear(c.own)
	return &contents{chunks: slices.Clone(c.chunks), own: make([]bool, len(c.own)), n: c.n}
}

// footprint is the memory the contents hold, shared chunks included.
func (c *contents) footprint() uint64 {
	if c == nil {
		return 0
	}
	n := uint64(24 * len(c.chunks))
	for _, ch := range c.chunks {
		n += uint64(cap(ch))
	}
	return n
}
