package lsp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// This file is the wire: LSP base-protocol framing that survives malformed
// input, the codec, and the handler middleware that keeps the server up
// whatever a client sends.

// DefaultMaxMessage bounds one message's body, and one header line, by
// default (Options.MaxMessage): a client that declares a longer body, or
// sends a longer header line, has broken framing (no editor sends 64 MiB
// in one message), and the server answers it, logs why and drops the
// connection rather than read or wait for that much.
const DefaultMaxMessage = 64 << 20

// maxHeaderLine bounds one header line when the message limit is larger:
// a header is "Content-Length: N" or "Content-Type: ...", tens of bytes.
const maxHeaderLine = 64 << 10

// errBroken is a framing error the stream cannot recover from: the
// connection is dropped.
type errBroken struct{ msg string }

func (e errBroken) Error() string { return "the client broke the framing: " + e.msg }

// stream reads LSP frames itself, so that a malformed frame (a bad header,
// a body that is not JSON-RPC) is answered with a parse error and
// skipped, rather than ending the connection as jsonrpc2's own reader
// does. Writes go through jsonrpc2's header framing.
type stream struct {
	r   *bufio.Reader
	in  io.Closer
	out jsonrpc2.Stream
	log func(string)
	// resync is set after a frame whose length is unknown (a bad or
	// missing Content-Length): the reader skips to the next
	// "Content-Length:" it sees, wherever it stands, and starts there.
	resync bool
	// pending is a header line already read, to be read again first.
	pending string
	// maxBody and maxLine bound a body and a header line (errBroken).
	maxBody, maxLine int
}

// newStream frames a connection; max bounds a message's body (0:
// DefaultMaxMessage).
func newStream(in io.ReadCloser, out io.WriteCloser, log func(string), max int) *stream {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &stream{r: bufio.NewReaderSize(in, 64<<10), in: in, out: jsonrpc2.NewHeaderStream(writeOnly{out}), log: log,
		maxBody: max, maxLine: min(max, maxHeaderLine)}
}

// writeOnly adapts a writer to the ReadWriteCloser the framer wants; the
// framer is only ever asked to write.
type writeOnly struct{ io.WriteCloser }

func (writeOnly) Read([]byte) (int, error) { return 0, io.EOF }

// errFrame is a framing error the stream can recover from.
type errFrame struct{ msg string }

func (e errFrame) Error() string { return e.msg }

// Read returns the next well-formed message, answering malformed ones.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, n, err := s.readFrame()
		var fe errFrame
		if errors.As(err, &fe) {
			s.reject(ctx, fe.msg)
			continue
		}
		var be errBroken
		if errors.As(err, &be) {
			s.reject(ctx, be.msg)
			if s.log != nil {
				s.log(be.Error() + "; dropping the connection")
			}
			return nil, n, err
		}
		if err != nil {
			return nil, n, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.reject(ctx, fmt.Sprintf("malformed JSON-RPC message: %v", err))
			continue
		}
		return msg, n, nil
	}
}

// reject answers a message that could not be read with a parse error
// (its id is unknown, so the response has a null id, as JSON-RPC says).
func (s *stream) reject(ctx context.Context, why string) {
	if s.log != nil {
		s.log("rejected a message: " + why)
	}
	_, _ = s.out.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(jsonrpc2.ParseError, why)))
}

// contentLength is the header that starts every frame.
const contentLength = "content-length:"

// indexHeader finds "Content-Length:" in line, in any case, as bytes (the
// line may not be UTF-8, and lowering it as text would move the index).
func indexHeader(line string) int {
	for i := 0; i+len(contentLength) <= len(line); i++ {
		j := 0
		for ; j < len(contentLength); j++ {
			c := line[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != contentLength[j] {
				break
			}
		}
		if j == len(contentLength) {
			return i
		}
	}
	return -1
}

// readFrame reads headers up to the blank line, then Content-Length bytes.
func (s *stream) readFrame() ([]byte, int64, error) {
	length := -1
	var read int64
	sawHeader := false
	for {
		var line string
		var err error
		if s.pending != "" {
			line, s.pending = s.pending, ""
		} else {
			line, err = s.readLine()
			read += int64(len(line))
		}
		if !s.resync && err == nil {
			// Junk glued to a frame's header (a body without a newline
			// runs into the next frame's first line): answer the frame
			// broken so far, keep the header.
			if i := indexHeader(line); i > 0 && strings.TrimSpace(line[:i]) != "" {
				s.pending = line[i:]
				return nil, read, errFrame{fmt.Sprintf("garbage before a frame: %q", line[:i])}
			}
		}
		if s.resync && err == nil {
			// Skip what is left of the broken frame, its body included
			// (a body often has no newline, so the next frame's header
			// may follow it on the same line).
			i := indexHeader(line)
			if i < 0 {
				continue
			}
			line, s.resync = line[i:], false
		}
		if err != nil {
			if err == io.EOF && !sawHeader && line == "" {
				return nil, read, io.EOF
			}
			if err == io.EOF {
				return nil, read, io.ErrUnexpectedEOF
			}
			return nil, read, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			s.resync = true
			return nil, read, errFrame{fmt.Sprintf("malformed header line %q", line)}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				s.resync = true
				return nil, read, errFrame{fmt.Sprintf("bad Content-Length %q", strings.TrimSpace(value))}
			}
			length = n
		}
	}
	if length < 0 {
		s.resync = true
		return nil, read, errFrame{"message without a Content-Length header"}
	}
	if length > s.maxBody {
		return nil, read, errBroken{fmt.Sprintf("a message of %d bytes is over the %d-byte limit", length, s.maxBody)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, read, io.ErrUnexpectedEOF
	}
	return body, read + int64(length), nil
}

// readLine reads a line up to its newline, at most maxLine bytes: a
// longer one is errBroken, read no further.
func (s *stream) readLine() (string, error) {
	var b []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(b)+len(chunk) > s.maxLine {
			return "", errBroken{fmt.Sprintf("a header line longer than %d bytes", s.maxLine)}
		}
		b = append(b, chunk...)
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

func (s *stream) Close() error {
	err := s.in.Close()
	if e := s.out.Close(); err == nil {
		err = e
	}
	return err
}

// codec marshals LSP payloads with the protocol package's union-aware
// encoder, as protocol.NewServer's own (unexported) codec does.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// guard wraps the protocol handler: a panic becomes an internal error (and
// a log line) instead of a dead connection; a notification that fails
// (bad parameters) is logged instead of failing the connection, as
// jsonrpc2 would; requests other than initialize before initialize, and
// any after shutdown, get the errors the specification names. Requests
// that may call back into the client (executeCommand) run concurrently;
// everything else runs in wire order, so edits are applied in sequence.
func (s *Server) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := req.Method()
		isCall := req.IsCall()
		defer func() {
			if p := recover(); p != nil {
				s.logf(protocol.MessageTypeError, "internal error handling %s: %v\n%s", method, p, debug.Stack())
				result = nil
				err = jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error handling %s: %v", method, p)
			}
			if err != nil && !isCall {
				s.logf(protocol.MessageTypeWarning, "%s: %v", method, err)
				err = nil
			}
		}()
		switch state := s.lifecycle(); {
		case method == protocol.MethodExit:
		case state == stateNew && method != protocol.MethodInitialize:
			if isCall {
				return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized yet")
			}
			return nil, nil // notifications before initialize are dropped
		case state == stateShutdown:
			if isCall {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down")
			}
			return nil, nil
		}
		if method == protocol.MethodWorkspaceExecuteCommand {
			jsonrpc2.Async(ctx)
		}
		result, err = next(ctx, req)
		if errors.Is(err, jsonrpc2.ErrParse) {
			// The message was JSON (the stream parsed it); what failed is
			// fitting its params to the method's (a negative line, a
			// string for a number): JSON-RPC calls that invalid params.
			why := strings.TrimPrefix(err.Error(), jsonrpc2.ErrParse.Error()+": ")
			err = jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params for %s: %s", method, why)
		}
		return result, err
	}
}

// cancelable supports $/cancelRequest. It does not use jsonrpc2's
// CancelHandler: that derives a context.WithCancel from the pooled request
// context, and the goroutine the context package starts to watch such a
// parent can call its Done after the request was recycled, which panics
// (jsonrpc2 v1.0.1). Here each call gets a context detached from the
// request's (context.WithoutCancel: its Done is nil, so no watcher
// goroutine), canceled by the server itself.
func (s *Server) cancelable(next jsonrpc2.Handler) jsonrpc2.Handler {
	var mu sync.Mutex
	inflight := map[string]context.CancelFunc{}
	key := func(id jsonrpc2.ID) string { return fmt.Sprint(id) }
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodCancelRequest {
			var p protocol.CancelParams
			if err := protocol.Unmarshal(req.Params(), &p); err != nil {
				return nil, err
			}
			var id jsonrpc2.ID
			switch v := p.ID.(type) {
			case protocol.Integer:
				id = jsonrpc2.NewNumberID(int64(v))
			case protocol.String:
				id = jsonrpc2.NewStringID(string(v))
			}
			mu.Lock()
			cancel := inflight[key(id)]
			mu.Unlock()
			if cancel != nil {
				cancel()
			}
			return nil, nil
		}
		if !req.IsCall() {
			return next(ctx, req)
		}
		k := key(req.ID())
		cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		mu.Lock()
		inflight[k] = cancel
		mu.Unlock()
		defer func() {
			mu.Lock()
			delete(inflight, k)
			mu.Unlock()
			cancel()
		}()
		return next(cctx, req)
	}
}
