package lsp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
)

// progress reports one analysis through $/progress work-done reports, on
// a token the server creates (window/workDoneProgress/create). Without
// client support it only logs the end.
//
// The analysis does not wait for the client to create the token: a
// client busy elsewhere (VS Code's extension host under load) may answer
// seconds later, and an analysis that waited a fixed time and then went
// on without progress left the status bar without it for good. The
// reports made before the answer are kept as the latest message and
// percentage; the answer sends begin with them, and end too when the
// analysis ended first, so every created token is closed.
type progress struct {
	s     *Server
	title string

	mu     sync.Mutex
	token  protocol.ProgressToken // nil until the client has created it
	last   string                 // the latest message
	pct    int                    // and percentage, -1 for none
	ended  bool
	endMsg string
}

var progressTokens atomic.Uint64

// progressCreateTimeout bounds the wait for the client's answer to
// window/workDoneProgress/create, which runs beside the analysis: a
// client that never answers leaves no goroutine behind for long.
const progressCreateTimeout = 2 * time.Minute

// beginProgress starts the report of an analysis of target.
func (s *Server) beginProgress(target string) *progress {
	p := &progress{s: s, title: "augur: " + target, last: "starting", pct: -1}
	s.mu.Lock()
	supported := s.progress
	s.mu.Unlock()
	if supported {
		go p.create(protocol.String(fmt.Sprintf("augur-%d", progressTokens.Add(1))))
	}
	return p
}

// create asks the client to create token and, once it has, begins the
// report with the analysis's latest state.
func (p *progress) create(token protocol.ProgressToken) {
	ctx, cancel := context.WithTimeout(p.s.connCtx, progressCreateTimeout)
	defer cancel()
	if err := p.s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
		p.s.logger.Printf("progress for %s refused: %v", p.title, err)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.token = token
	msg := p.last
	p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: p.title, Message: &msg, Percentage: p.percentage()})
	if p.ended {
		p.sendEnd()
	}
}

// report sends a message, and a percentage when pct >= 0.
func (p *progress) report(msg string, pct int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if msg == p.last || p.ended {
		return
	}
	p.last, p.pct = msg, min(pct, 100)
	if p.token == nil {
		return
	}
	p.send(&protocol.WorkDoneProgressReport{Kind: "report", Message: &msg, Percentage: p.percentage()})
}

// percentage is the latest percentage as the protocol carries it: nil for
// none. The caller holds p.mu.
func (p *progress) percentage() *uint32 {
	if p.pct < 0 {
		return nil
	}
	v := uint32(p.pct)
	return &v
}

// stage reports the analyzer's progress: "detecting: schedule 3/5",
// "classifying race 2/7", "exploring inputs". Detection is the first
// fifth of the bar, classification the rest.
func (p *progress) stage(stage string, done, total int) {
	switch stage {
	case "detecting":
		p.report(fmt.Sprintf("detecting: schedule %d/%d", min(done+1, total), total), 20*done/max(total, 1))
	case "classifying":
		p.report(fmt.Sprintf("classifying race %d/%d", min(done+1, total), total), 20+75*done/max(total, 1))
	case "exploring":
		p.report("exploring inputs", 95)
	default:
		p.report(stage, -1)
	}
}

// end closes the report with the outcome, and logs it: the one line each
// analysis leaves in the client's log, whatever it ended with.
func (p *progress) end(msg string) {
	p.s.logf(protocol.MessageTypeLog, "%s: %s", strings.TrimPrefix(p.title, "augur: "), msg)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended, p.endMsg = true, msg
	if p.token != nil {
		p.sendEnd()
	}
}

// sendEnd sends the end report. Caller holds mu.
func (p *progress) sendEnd() {
	msg := p.endMsg
	p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &msg})
}

// send sends one report on the token. Caller holds mu, so the reports
// reach the client in the order they were made.
func (p *progress) send(value any) {
	data, err := protocol.Marshal(value)
	if err != nil {
		p.s.logger.Printf("progress: %v", err)
		return
	}
	_ = p.s.client.Progress(p.s.connCtx, &protocol.ProgressParams{Token: p.token, Value: data})
}
