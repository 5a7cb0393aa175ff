package sched

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// A stored event holds no pointer, so the collector skips a trace's
// events, and is a third of an Event's size.
func TestStoredEventIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(event{}); n != 24 {
		t.Errorf("a stored event takes %d bytes, want 24", n)
	}
}

// Forks of one trace share its table of names while they record in
// parallel, each new texts of its own, and each reads back exactly what
// it recorded; far more texts than the memo's slots read back right too.
func TestForksShareNamesInParallel(t *testing.T) {
	tr := NewTrace("bounded", 1)
	var prefix []Event
	for i := range 50 {
		e := Event{Thread: i % 3, Loc: fmt.Sprintf("a.c:%d:1", i), What: "lock", Insts: uint64(i), Next: (i + 1) % 3}
		tr.Append(e)
		prefix = append(prefix, e)
	}
	const forks = 8
	got := make([][]Event, forks)
	want := make([][]Event, forks)
	var wg sync.WaitGroup
	for f := range forks {
		c := tr.Fork()
		want[f] = append([]Event(nil), prefix...)
		for i := range 3 * memoSlots {
			// Texts shared by the forks and texts of this fork alone,
			// a few of them long and alike but for a middle byte.
			loc := fmt.Sprintf("b.c:%d:%d", i%40, f*(i%2))
			if i%7 == 0 {
				loc = strings.Repeat("x", 30) + fmt.Sprint(f) + strings.Repeat("y", 30)
			}
			want[f] = append(want[f], Event{Thread: f % 2, Loc: loc, What: fmt.Sprint("op", i%5), Insts: uint64(100 + i), Next: i % 2})
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, e := range want[f][len(prefix):] {
				c.Append(e)
			}
			got[f] = c.Events()
		}()
	}
	wg.Wait()
	for f := range forks {
		sameDecisions(t, got[f], want[f])
	}
	sameDecisions(t, tr.Events(), prefix)
}

// MapLocs gives the copy texts of its own: two locations mapped to one
// text are then the same decision, and the original keeps its texts.
func TestMapLocsRenumbers(t *testing.T) {
	tr := NewTrace("round-robin", 1)
	for i := range 6 {
		tr.Append(Event{Thread: 0, Loc: fmt.Sprintf("a.c:%d:1", i%2), What: "x", Insts: uint64(i), Next: 1})
	}
	moved := tr.MapLocs(func(string) string { return "b.c:9:1" })
	for _, e := range moved.Events() {
		if e.Loc != "b.c:9:1" || e.What != "x" {
			t.Fatalf("moved event %+v", e)
		}
	}
	if es := tr.Events(); es[1].Loc != "a.c:1:1" {
		t.Errorf("the original's event 1 is at %s", es[1].Loc)
	}
	// Recording goes on in the copy with the new numbers: the same text
	// is the same decision, so the loop folds.
	for i := range 100 {
		moved.Append(Event{Thread: 0, Loc: "b.c:9:1", What: "x", Insts: uint64(10 + i), Next: 1})
	}
	if moved.Stored() > 8 {
		t.Errorf("the copy stores %d events of one repeated decision", moved.Stored())
	}
}

// A file whose thread numbers do not fit the stored form is refused, not
// read as another thread.
func TestTraceJSONRefusesHugeThread(t *testing.T) {
	data := []byte(`{"policy":"x","seed":1,"events":[{"thread":4294967296,"loc":"a.c:1:1","what":"x","insts":0,"next":0}]}`)
	var tr Trace
	if err := json.Unmarshal(data, &tr); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("got %v, want an out-of-range error", err)
	}
}
