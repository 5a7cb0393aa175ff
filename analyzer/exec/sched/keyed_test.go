package sched

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
)

// plainPlace is place as it was first written: a map by thread and
// location text, and hash/fnv. The faster form must draw the same.
type plainPlace struct {
	seed   uint64
	visits map[[2]string]uint64
}

func (pl *plainPlace) draw(p *Point, salt uint64) uint64 {
	k := [2]string{fmt.Sprint(p.Thread), p.Loc}
	n := pl.visits[k]
	pl.visits[k] = n + 1
	h := fnv.New64a()
	var b [32]byte
	for i, v := range []uint64{pl.seed, uint64(int64(p.Thread)), n, salt} {
		for j := 0; j < 8; j++ {
			b[8*i+j] = byte(v >> (8 * j))
		}
	}
	h.Write(b[:])
	h.Write([]byte(p.Loc))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// The cached, written-out draw gives the plain one's numbers: locations
// that are the same text in different strings count together, thread -1
// counts apart, and a fork goes on from the counts it was made with.
func TestKeyedDrawsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	texts := []string{"a.c:1:1", "a.c:2:3", "lib/b.c:40:12", "priority", ""}
	fast, plain := newPlace(9), &plainPlace{seed: 9, visits: map[[2]string]uint64{}}
	var forked place
	var plainForked *plainPlace
	for i := range 50_000 {
		loc := texts[rng.IntN(len(texts))]
		if rng.IntN(3) == 0 {
			loc = strings.Clone(loc) // the same text at another address
		}
		p := Point{Thread: rng.IntN(6) - 1, Loc: loc}
		salt := uint64(rng.IntN(3))
		if got, want := fast.draw(&p, salt), plain.draw(&p, salt); got != want {
			t.Fatalf("draw %d (thread %d at %q): %x, want %x", i, p.Thread, loc, got, want)
		}
		if i == 20_000 {
			forked = fast.fork()
			plainForked = &plainPlace{seed: 9, visits: map[[2]string]uint64{}}
			for k, v := range plain.visits {
				plainForked.visits[k] = v
			}
		}
	}
	for i := range 10_000 {
		p := Point{Thread: i % 4, Loc: texts[i%len(texts)]}
		if got, want := forked.draw(&p, 0), plainForked.draw(&p, 0); got != want {
			t.Fatalf("fork's draw %d: %x, want %x", i, got, want)
		}
	}
}
