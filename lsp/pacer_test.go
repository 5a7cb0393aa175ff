package lsp

import (
	"context"
	"reflect"
	"strings"
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
	p := newPacer(ctx, func(files []string) {
		mu.Lock()
		rounds = append(rounds, files)
		mu.Unlock()
		entered <- strings.Join(files, " ")
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
	if got := <-entered; got != "a.c b.h" {
		t.Fatalf("second publication of %q, want a.c and b.h", got)
	}
	release <- struct{}{}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	if want := [][]string{{"a.c"}, {"a.c", "b.h"}}; !reflect.DeepEqual(rounds, want) {
		t.Errorf("publications %v, want %v", rounds, want)
	}
}
