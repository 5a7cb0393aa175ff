package memo

import (
	"strconv"
	"sync"
	"testing"
)

func TestGetCallsTheFunctionOncePerKey(t *testing.T) {
	calls := 0
	m := New(func(k int) string { calls++; return strconv.Itoa(k * 2) })
	for i := 0; i < 3; i++ {
		if got := m.Get(21); got != "42" {
			t.Fatalf("Get(21) = %q, want 42", got)
		}
	}
	if calls != 1 {
		t.Errorf("f called %d times for one key, want 1", calls)
	}
}

// The memory is bounded: past Max answers the memo starts over, and
// still answers right.
func TestMemoStartsOverPastItsBound(t *testing.T) {
	m := New(func(k int) int { return k * k })
	for k := 0; k < Max+10; k++ {
		m.Get(k)
	}
	if n := len(m.seen); n > Max {
		t.Errorf("holds %d answers, bound %d", n, Max)
	}
	if got := m.Get(7); got != 49 {
		t.Errorf("Get(7) = %d after starting over, want 49", got)
	}
}

func TestGetIsSafeForConcurrentUse(t *testing.T) {
	m := New(func(k int) int { return k + 1 })
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 1000; k++ {
				if got := m.Get(k % 50); got != k%50+1 {
					t.Errorf("Get(%d) = %d", k%50, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
