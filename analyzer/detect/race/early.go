package race

import "augur/analyzer/exec/vm"

// directEarly runs race-directed executions while the work beside
// detection (the exploration of symbolic inputs) goes on, on the core the
// plan left idle: the candidates the plan on the analysis's own inputs
// found, in the directed stage's order (directedQueue), one at a time
// until the work is over. They come first in that stage's queue, and a
// directed execution depends on its candidate alone, so directed merges
// each at its turn as though it ran then, and drops those whose turn does
// not come (an explored input's plan raced the pair first, or the
// stage's count or share ran out). What detection finds is the same with
// them as without; only when it finds it changes (runAhead is the same
// idea within the stage).
//
// It stops once it has run as many executions as the stage has for one
// input (Options.Directed) or their instructions reach the stage's share:
// the stage would run no more of them.
func (d *detection) directEarly(b Beside) error {
	if d.opts.Directed < 1 {
		return nil
	}
	share := d.stageBudget()
	var ran uint64
	d.early = map[string]*execution{}
	for _, c := range d.directedQueue() {
		if b.Over() || d.stop || len(d.early) >= d.opts.Directed || (share != 0 && ran >= share) || d.opts.Run.Expired() != nil {
			return nil
		}
		runs, err := d.executeAll([]vm.Config{d.directedConfig(c)}, nil, 1)
		if err != nil {
			return err
		}
		d.early[c.ID] = runs[0]
		ran += runs[0].run.Instructions
	}
	return nil
}
