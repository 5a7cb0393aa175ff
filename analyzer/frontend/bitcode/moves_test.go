package bitcode

import (
	"slices"
	"testing"

	"augur/analyzer/frontend/ir"
)

// run makes the moves one after another, or in parallel when the edge
// says so, on registers regs, as the interpreter does.
func run(e ir.Edge, regs []int) []int {
	out := slices.Clone(regs)
	src := regs
	if !e.Parallel {
		src = out
	}
	for _, mv := range e.Moves {
		for k := int32(0); k < mv.N; k++ {
			out[mv.Dst+k] = src[int32(mv.Src)+k]
		}
	}
	return out
}

// TestSequenceMoves checks that ordered moves, made one after another,
// give the parallel assignment's result, and that a swap stays parallel.
func TestSequenceMoves(t *testing.T) {
	cases := []struct {
		name     string
		moves    []ir.Move
		parallel bool
	}{
		{"chain", []ir.Move{{Dst: 2, Src: 3, N: 1}, {Dst: 1, Src: 2, N: 1}}, false},
		{"independent", []ir.Move{{Dst: 1, Src: 4, N: 1}, {Dst: 2, Src: 5, N: 1}}, false},
		{"aggregate", []ir.Move{{Dst: 4, Src: 6, N: 2}, {Dst: 0, Src: 4, N: 2}}, false},
		{"self", []ir.Move{{Dst: 1, Src: 1, N: 1}, {Dst: 2, Src: 1, N: 1}}, false},
		{"swap", []ir.Move{{Dst: 1, Src: 2, N: 1}, {Dst: 2, Src: 1, N: 1}}, true},
		{"rotation", []ir.Move{{Dst: 1, Src: 2, N: 1}, {Dst: 2, Src: 3, N: 1}, {Dst: 3, Src: 1, N: 1}}, true},
	}
	regs := []int{10, 11, 12, 13, 14, 15, 16, 17}
	for _, c := range cases {
		want := run(ir.Edge{Moves: c.moves, Parallel: true}, regs)
		e := ir.Edge{Moves: slices.Clone(c.moves)}
		sequenceMoves(&e)
		if e.Parallel != c.parallel {
			t.Errorf("%s: Parallel %v, want %v", c.name, e.Parallel, c.parallel)
		}
		if got := run(e, regs); !slices.Equal(got, want) {
			t.Errorf("%s: moves %v give %v, want %v", c.name, e.Moves, got, want)
		}
	}
}
