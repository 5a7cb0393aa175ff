package fix

import (
	"strings"
	"testing"
)

func TestFlagUsesBecomeReleaseStoresAndAcquireLoads(t *testing.T) {
	for _, c := range []struct {
		line              string
		member, bare, cxx bool
		want              string
	}{
		{"\tdone = 1; // done", false, true, false, "\tatomic_store_explicit(&done, 1, memory_order_release); // done"},
		{"\twhile (!done)", false, true, false, "\twhile (!atomic_load_explicit(&done, memory_order_acquire))"},
		{"\tj->ready = 1;", true, false, false, "\tatomic_store_explicit(&j->ready, 1, memory_order_release);"},
		{"\twhile (!jobs[i].ready && !stop)", true, false, false,
			"\twhile (!atomic_load_explicit(&jobs[i].ready, memory_order_acquire) && !stop)"},
		{"\t\tdone_ = true;", true, true, true, "\t\tdone_.store(true, std::memory_order_release);"},
		{"\treturn done_ && ok;", true, true, true, "\treturn done_.load(std::memory_order_acquire) && ok;"},
		// Left alone: another variable's member, a string, a compound
		// assignment, an increment, the address, a call.
		{"\tother.done = 1;", false, true, false, "\tother.done = 1;"},
		{"\tputs(\"done\");", false, true, false, "\tputs(\"done\");"},
		{"\tdone += 1;", false, true, false, "\tdone += 1;"},
		{"\tdone++;", false, true, false, "\tdone++;"},
		{"\twait_on(&done);", false, true, false, "\twait_on(&done);"},
		{"\tdone(x);", false, true, false, "\tdone(x);"},
	} {
		name := "done"
		if strings.Contains(c.line, "ready") {
			name = "ready"
		} else if strings.Contains(c.line, "done_") {
			name = "done_"
		}
		got, _ := flagUses(c.line, name, c.member, c.bare, c.cxx)
		if got != c.want {
			t.Errorf("flagUses(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
