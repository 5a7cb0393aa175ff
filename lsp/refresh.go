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
