package vm

import "testing"

// A thread that goes round a loop of 50 places with the same state each
// time is seen to loop, and the state is hashed only where the
// thread is where the reference was taken, or when a new one is taken:
// not at every step.
func TestCycleHashesOnlyWhereTheStateCanRepeat(t *testing.T) {
	var c cycle
	hashes := 0
	looped := false
	steps := 0
	for ; steps < 1000 && !looped; steps++ {
		at := place{fn: 1, pc: steps % 50, depth: 1}
		looped = c.see(at, func() uint64 { hashes++; return uint64(at.pc) })
	}
	if !looped {
		t.Fatal("a loop of 50 places with the same state each time was not seen to repeat")
	}
	if hashes*10 > steps {
		t.Errorf("hashed %d of %d states; want only those at the reference's place or at a new reference", hashes, steps)
	}
	// The same places with a state that changes every time (a counter in
	// a register) never repeat.
	c, looped = cycle{}, false
	for i := 0; i < 1000 && !looped; i++ {
		looped = c.see(place{fn: 1, pc: i % 50, depth: 1}, func() uint64 { return uint64(i) })
	}
	if looped {
		t.Error("a loop whose state changes every time was taken for one that repeats")
	}
}
