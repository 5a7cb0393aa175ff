package sched

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
)

// plainPlace is place without its cache: a map by thread and location
// text, and the text hashed with hash/fnv at every draw. The cached form
// must draw the same.
type plainPlace struct {
	seed   uint64
	visits map[[2]string]uint64
}

func (pl *plainPlace) draw(p *Point, salt uint64) uint64 {
	k := [2]string{fmt.Sprint(p.Thread), p.Loc}
	n := pl.visits[k]
	pl.visits[k] = n + 1
	h := fnv.New64a()
	h.Write([]byte(p.Loc))
	return placeDraw(pl.seed, p.Thread, n, salt, h.Sum64())
}

// The cached draw gives the plain one's numbers: locations
// that are the same text in different strings count together, thread -1
// counts apart, and a fork goes on from the counts it was made with.
func TestKeyedDrawsAsPlainForm(t *testing.T) {
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

// Draws are taken modulo small counts (the runnable threads, PCT's steps):
// over the successive visits of one thread to one place, and over threads
// and seeds at one visit, each residue of 2, 3 and 7 comes up about as
// often as the others (a chi-square bound far above the 0.1% quantile for
// up to 6 degrees of freedom, 22.5), and a draw's neighbouring visit
// agrees with it in its lowest bit about half the time.
func TestKeyedDrawsAreUniform(t *testing.T) {
	series := map[string]func(pl *place, i int) uint64{
		"visits":  func(pl *place, _ int) uint64 { return pl.draw(&Point{Thread: 1, Loc: "a.c:3:4"}, 0) },
		"threads": func(_ *place, i int) uint64 { return placeDraw(4, i, 0, 0, textHash("a.c:3:4")) },
		"seeds":   func(_ *place, i int) uint64 { return placeDraw(uint64(i), 0, 0, 2, textHash("x")) },
	}
	const draws = 60_000
	for name, draw := range series {
		pl := newPlace(11)
		counts := map[uint64][]int{2: make([]int, 2), 3: make([]int, 3), 7: make([]int, 7)}
		same, prev := 0, uint64(0)
		for i := range draws {
			x := draw(&pl, i)
			for m, c := range counts {
				c[x%m]++
			}
			if i > 0 && x&1 == prev&1 {
				same++
			}
			prev = x
		}
		for m, c := range counts {
			want := float64(draws) / float64(m)
			chi := 0.0
			for _, got := range c {
				chi += (float64(got) - want) * (float64(got) - want) / want
			}
			if chi > 25 {
				t.Errorf("%s: residues modulo %d %v (chi-square %.1f)", name, m, c, chi)
			}
		}
		if f := float64(same) / draws; f < 0.48 || f > 0.52 {
			t.Errorf("%s: the lowest bit repeats in %.3f of neighbouring draws", name, f)
		}
	}
}
