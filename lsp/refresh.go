package lsp

import (
	"context"
	"time"
)

// refresher is one of the requests by which the server asks the client to
// ask again (workspace/diagnostic/refresh, workspace/codeLens/refresh).
// Requests are coalesced: while one is waiting to be sent, asking again
// adds nothing; once it is on its way, a change asks for another.
type refresher struct {
	method  string
	send    func(ctx context.Context) error
	pending bool
}

// refresh sends r's request on its own goroutine: the read loop must be
// free to deliver the client's answer. Caller holds mu.
func (s *Server) refresh(r *refresher) {
	if r.pending {
		return
	}
	r.pending = true
	go func() {
		s.mu.Lock()
		r.pending = false
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(s.connCtx, 10*time.Second)
		defer cancel()
		if err := r.send(ctx); err != nil {
			s.logger.Printf("%s: %v", r.method, err)
		}
	}()
}

// settleDelay is how long after an analysis's last change the server asks
// the client once more to pull what it shows of it.
const settleDelay = 2 * time.Second

// settle asks the client, settleDelay after an analysis ended, once more
// for the diagnostics it pulls and for the code lenses. Every change asked
// already, and a client that is up to date answers this with "unchanged"
// (a hash) and lenses it has; but the last of a burst of changes is the
// one that must not be lost, and the server cannot see an answer the
// client threw away: VS Code drops a pull's answer that arrives while it
// switches tabs or after it canceled the pull, and on a loaded machine a
// refresh may wait past its timeout. Once, in the VS Code end-to-end
// test, a document kept the "classifying…" diagnostics of an analysis
// whose verdicts its hover already showed. Caller holds mu.
func (s *Server) settle() {
	if !s.pull.on && s.lensRefresh == nil {
		return
	}
	if s.settleTimer != nil {
		s.settleTimer.Stop()
	}
	s.settleTimer = time.AfterFunc(settleDelay, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.ctx.Err() != nil {
			return
		}
		if s.pull.on {
			s.refresh(s.pull.refresh)
		}
		s.lensesChanged()
	})
}
