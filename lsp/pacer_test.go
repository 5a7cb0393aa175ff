package lsp

import (
	"context"
	"reflect"
	"sync"
	"testing"
)

// Files marked while a paced publication runs go out together in the
// next one, each once: verdicts that come faster than publishing are
// published with the newest snapshot, not one by one.
func TestPacerPublishesWhatCameMeanwhileTogether(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	entered := make(chan string)
	release := make(chan struct{})
	var mu sync.Mutex
	var rounds [][]string
	round := -1
	p := newPacer(ctx, func(path string) {
		mu.Lock()
		if path == "a.c" { // every round publishes a.c first
			rounds = append(rounds, nil)
			round++
		}
		rounds[round] = append(rounds[round], path)
		mu.Unlock()
		entered <- path
		<-release
	})

	p.mark([]string{"a.c"})
	if got := <-entered; got != "a.c" {
		t.Fatalf("first publication of %s, want a.c", got)
	}
	// While the first publication runs, three more verdicts arrive.
	p.mark([]string{"a.c", "b.h"})
	p.mark([]string{"a.c"})
	p.mark([]string{"b.h", "a.c"})
	release <- struct{}{}
	for _, want := range []string{"a.c", "b.h"} {
		if got := <-entered; got != want {
			t.Fatalf("second publication reached %s, want %s", got, want)
		}
		release <- struct{}{}
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	if want := [][]string{{"a.c"}, {"a.c", "b.h"}}; !reflect.DeepEqual(rounds, want) {
		t.Errorf("publications %v, want %v", rounds, want)
	}
}
