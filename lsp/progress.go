package lsp

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
)

// progress reports one analysis through $/progress work-done reports, on
// a token the server creates (window/workDoneProgress/create). Without
// client support it only logs the end.
type progress struct {
	s     *Server
	title string
	token protocol.ProgressToken // nil: the client takes no progress
	last  string
}

var progressTokens atomic.Uint64

// beginProgress starts the report of an analysis of target.
func (s *Server) beginProgress(target string) *progress {
	p := &progress{s: s, title: "augur: " + target}
	s.mu.Lock()
	supported := s.progress
	s.mu.Unlock()
	if !supported {
		return p
	}
	token := protocol.String(fmt.Sprintf("augur-%d", progressTokens.Add(1)))
	ctx, cancel := context.WithTimeout(s.connCtx, 5*time.Second)
	defer cancel()
	if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
		s.logger.Printf("progress for %s refused: %v", target, err)
		return p
	}
	p.token = token
	msg := "starting"
	p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: p.title, Message: &msg})
	return p
}

// report sends a message, and a percentage when pct >= 0.
func (p *progress) report(msg string, pct int) {
	if p.token == nil || msg == p.last {
		return
	}
	p.last = msg
	r := &protocol.WorkDoneProgressReport{Kind: "report", Message: &msg}
	if pct >= 0 {
		v := uint32(min(pct, 100))
		r.Percentage = &v
	}
	p.send(r)
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

// end closes the report with the outcome.
func (p *progress) end(msg string) {
	p.s.logger.Printf("%s: %s", p.title, msg)
	if p.token == nil {
		return
	}
	p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &msg})
}

func (p *progress) send(value any) {
	data, err := protocol.Marshal(value)
	if err != nil {
		p.s.logger.Printf("progress: %v", err)
		return
	}
	_ = p.s.client.Progress(p.s.connCtx, &protocol.ProgressParams{Token: p.token, Value: data})
}
