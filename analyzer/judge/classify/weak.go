package classify

import (
	"augur/analyzer/exec/vm"
)

// maxWeakStates bounds the executions one race's classification forks at
// weak reads (shared by all its pairs).
const maxWeakStates = 4096

// maxWeakPaths bounds the executions of one order judged per pair.
const maxWeakPaths = 512

// exploreOrder runs every state an order forked (and theirs), up to
// maxWeakPaths, and returns all its executions, the order's own first.
// It keeps what judging needs of each, not the states themselves, so the
// memory of an execution goes as soon as it ends.
func exploreOrder(o outcome) []execution {
	path := func(m *vm.Machine, res *vm.Result) execution {
		e := execution{res: res}
		if m != nil {
			e.choices, e.observed = m.WeakChoices(), m.WeakObserved()
		}
		return e
	}
	paths := []execution{path(o.m, o.res)}
	work := append([]*vm.Machine(nil), o.spawned...)
	for len(work) > 0 && len(paths) < maxWeakPaths {
		s := work[0]
		work[0] = nil
		work = work[1:]
		res := s.Run()
		work = append(work, s.Spawned()...)
		paths = append(paths, path(s, res))
	}
	return paths
}
