package libc

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestContentsMatchASlice writes, cuts and extends contents at random and
// checks them against a plain slice after every step, across chunk
// boundaries, with a fork taken midway whose contents must not change
// when the original is written (nor the original when the fork is).
func TestContentsMatchASlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	given := bytes.Repeat([]byte("abc"), contentChunk) // 3 chunks, shared with the caller
	keep := bytes.Clone(given)
	c, want := newContents(given), bytes.Clone(given)
	var fork *contents
	var forkWant []byte
	for step := 0; step < 400; step++ {
		switch op := rng.IntN(10); {
		case op < 6: // write somewhere, maybe past the end
			pos := rng.IntN(len(want) + contentChunk)
			b := make([]byte, rng.IntN(2*contentChunk))
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			c.writeAt(pos, b)
			if end := pos + len(b); end > len(want) {
				want = append(want, make([]byte, end-len(want))...)
			}
			copy(want[pos:], b)
		case op < 8: // resize
			n := rng.IntN(len(want) + contentChunk)
			c.resize(n)
			if n <= len(want) {
				want = want[:n:n]
			} else {
				want = append(want, make([]byte, n-len(want))...)
			}
		case op == 8 && fork == nil:
			fork, forkWant = c.fork(), bytes.Clone(want)
		case fork != nil: // the fork writes too
			pos := rng.IntN(fork.len() + 1)
			fork.writeAt(pos, []byte("fork"))
			if end := pos + 4; end > len(forkWant) {
				forkWant = append(forkWant, make([]byte, end-len(forkWant))...)
			}
			copy(forkWant[pos:], "fork")
		}
		if got := c.bytes(); !bytes.Equal(got, want) {
			t.Fatalf("step %d: contents differ from the slice (len %d, want %d)", step, len(got), len(want))
		}
		if fork != nil && !bytes.Equal(fork.bytes(), forkWant) {
			t.Fatalf("step %d: the fork's contents changed with the original's", step)
		}
	}
	if !bytes.Equal(given, keep) {
		t.Fatal("the slice the contents were made from was written")
	}
	if len(want) > 0 && c.at(len(want)-1) != want[len(want)-1] {
		t.Fatal("at disagrees with bytes")
	}
}

// TestContentsAppendHoldsWhatItHas checks that appending a file a
// kilobyte at a time holds about its size, never a doubled slice.
func TestContentsAppendHoldsWhatItHas(t *testing.T) {
	var c contents
	b := make([]byte, 1024)
	for c.len() < 64<<20 {
		c.writeAt(c.len(), b)
	}
	if fp := c.footprint(); fp > uint64(c.len())+uint64(c.len())/64 {
		t.Fatalf("64 MiB of contents hold %d bytes", fp)
	}
}
