// Package symex explores the paths of a program with symbolic inputs: it
// runs execution states of the VM to their end, collects the states they
// fork, and picks the next with a searcher, within budgets, turning each
// failing path's constraints into concrete inputs that reproduce it.
package symex

import (
	"fmt"
	"math/rand/v2"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// Searcher chooses which pending state runs next.
type Searcher interface {
	Add(states ...*vm.Machine)
	Next() *vm.Machine // nil when empty
	Len() int
}

// NewSearcher returns the searcher named dfs, bfs, random-path or
// coverage (prefer states forked where exploration has been least).
func NewSearcher(name string, seed uint64) (Searcher, error) {
	switch name {
	case "", "dfs":
		return &dfs{}, nil
	case "bfs":
		return &bfs{}, nil
	case "random-path":
		return &randomPath{rng: rand.New(rand.NewPCG(seed, 0x72616e64))}, nil
	case "coverage":
		return &coverage{seen: map[ir.LocID]int{}}, nil
	}
	return nil, fmt.Errorf("unknown searcher %q (want dfs, bfs, random-path or coverage)", name)
}

// dfs runs the most recently forked state first.
type dfs struct{ states []*vm.Machine }

func (s *dfs) Add(st ...*vm.Machine) {
	for i := len(st) - 1; i >= 0; i-- { // the first fork is explored first
		s.states = append(s.states, st[i])
	}
}
func (s *dfs) Len() int { return len(s.states) }
func (s *dfs) Next() *vm.Machine {
	if len(s.states) == 0 {
		return nil
	}
	m := s.states[len(s.states)-1]
	s.states = s.states[:len(s.states)-1]
	return m
}

// bfs runs states in the order they were forked.
type bfs struct{ states []*vm.Machine }

func (s *bfs) Add(st ...*vm.Machine) { s.states = append(s.states, st...) }
func (s *bfs) Len() int              { return len(s.states) }
func (s *bfs) Next() *vm.Machine {
	if len(s.states) == 0 {
		return nil
	}
	m := s.states[0]
	s.states = s.states[1:]
	return m
}

// randomPath picks a pending state uniformly with a seeded generator.
type randomPath struct {
	rng    *rand.Rand
	states []*vm.Machine
}

func (s *randomPath) Add(st ...*vm.Machine) { s.states = append(s.states, st...) }
func (s *randomPath) Len() int              { return len(s.states) }
func (s *randomPath) Next() *vm.Machine {
	if len(s.states) == 0 {
		return nil
	}
	i := s.rng.IntN(len(s.states))
	m := s.states[i]
	s.states[i] = s.states[len(s.states)-1]
	s.states = s.states[:len(s.states)-1]
	return m
}

// coverage prefers the state forked at the site explored least so far, so
// new code is reached before known code is explored again.
type coverage struct {
	states []*vm.Machine
	seen   map[ir.LocID]int
}

func (s *coverage) Add(st ...*vm.Machine) { s.states = append(s.states, st...) }
func (s *coverage) Len() int              { return len(s.states) }
func (s *coverage) Next() *vm.Machine {
	if len(s.states) == 0 {
		return nil
	}
	best := 0
	for i, m := range s.states {
		if s.seen[m.ForkSite()] < s.seen[s.states[best].ForkSite()] {
			best = i
		}
	}
	m := s.states[best]
	s.seen[m.ForkSite()]++
	s.states = append(s.states[:best], s.states[best+1:]...)
	return m
}
