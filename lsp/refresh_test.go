package lsp

import (
	"context"
	"io"
	"testing"
	"time"
)

// After an analysis ended, a pulling client is asked to pull once more
// (settle), even though nothing changed since the last refresh: the last
// one may have been lost, or its pull's answer thrown away, and the
// server cannot tell. A client that neither pulls diagnostics nor
// refreshes lenses gets no such request.
func TestSettleAsksOnceMore(t *testing.T) {
	s := newServer(context.Background(), Options{Log: io.Discard})
	asked := make(chan struct{}, 8)
	s.pull.refresh = &refresher{method: "workspace/diagnostic/refresh", send: func(context.Context) error {
		asked <- struct{}{}
		return nil
	}}

	s.mu.Lock()
	s.settle() // the client does not pull
	pushing := s.settleTimer
	s.pull.on = true
	s.settle()
	s.mu.Unlock()
	if pushing != nil {
		t.Error("a client that does not pull was to be asked to pull")
	}
	select {
	case <-asked:
	case <-time.After(60 * time.Second): // only catches a refresh that never comes
		t.Fatal("no refresh after the analysis ended")
	}

	// Once the server stops, a pending settle asks nothing.
	s.mu.Lock()
	s.settle()
	timer := s.settleTimer
	s.mu.Unlock()
	s.stop(time.Second)
	if timer.Stop() {
		t.Error("the settle's refresh was still due after the server stopped")
	}
}
