package lsp

import (
	"context"
	"sort"
	"sync"
	"time"
)

// Publishing a file's diagnostics costs time in proportion to its races,
// and an analysis in progress changes them after every verdict: a program
// with hundreds of races spent most of its classification publishing the
// same diagnostics again. The pacer publishes the files of an analysis in
// progress beside it, at most a fixed share of the time: after a
// publication that took d it waits pacingFactor×d (at most maxPause)
// before the next, and publishes the newest snapshot then, so verdicts
// that came meanwhile go out together. An analysis's last snapshot (the
// complete one) is published at once, with the files still waiting for
// the pacer (an earlier snapshot may have named a file the last one does
// not: a race the save fixed).
const (
	pacingFactor = 4
	maxPause     = 2 * time.Second
)

// pacer publishes marked files in the background, paced as above.
type pacer struct {
	ctx     context.Context // the pacer stops with it
	publish func(files []string)

	start sync.Once
	round sync.Mutex // held while a paced publication runs
	mu    sync.Mutex
	files map[string]bool // waiting for the next publication
	wake  chan struct{}   // buffered: files are waiting
}

func newPacer(ctx context.Context, publish func([]string)) *pacer {
	return &pacer{ctx: ctx, publish: publish, wake: make(chan struct{}, 1)}
}

// mark asks for files to be published by the next paced publication.
func (p *pacer) mark(files []string) {
	p.start.Do(func() { go p.run() })
	p.mu.Lock()
	if p.files == nil {
		p.files = map[string]bool{}
	}
	for _, f := range files {
		p.files[f] = true
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default: // already woken
	}
}

// flush waits for a paced publication in progress to end, then returns
// the files still waiting, forgetting them: the caller publishes them
// with an analysis's last snapshot, which is then out when the analysis
// is said to have ended.
func (p *pacer) flush() []string {
	p.round.Lock()
	defer p.round.Unlock()
	return p.take()
}

// take returns the files waiting for a publication, sorted, and forgets
// them.
func (p *pacer) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	files := make([]string, 0, len(p.files))
	for f := range p.files {
		files = append(files, f)
	}
	p.files = nil
	sort.Strings(files)
	return files
}

// run publishes the marked files until the pacer's context ends.
func (p *pacer) run() {
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-p.wake:
		}
		began := time.Now()
		p.round.Lock()
		p.publish(p.take())
		p.round.Unlock()
		pause := time.NewTimer(min(pacingFactor*time.Since(began), maxPause))
		select {
		case <-p.ctx.Done():
			pause.Stop()
			return
		case <-pause.C:
		}
	}
}
