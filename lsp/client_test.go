package lsp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"augur/lsp"
)

// This file is a small LSP client for the end-to-end tests: it starts
// `augur lsp` as a process and speaks JSON-RPC to it over pipes, with its
// own framing and plain JSON, so the tests check the wire, not the
// server's libraries.

var augurBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "augur-lsp-test-")
	if err != nil {
		panic(err)
	}
	augurBin = filepath.Join(dir, "augur")
	build := exec.Command("go", "build", "-tags=llvm14", "-o", augurBin, "augur/cmd/augur")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building augur:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// message is any JSON-RPC message.
type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *rpcError        `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Diagnostic and friends are the parts of LSP the tests read.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Diagnostic struct {
	Range           Range  `json:"range"`
	Severity        int    `json:"severity"`
	Code            string `json:"code"`
	Source          string `json:"source"`
	Message         string `json:"message"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	RelatedInformation []related       `json:"relatedInformation"`
	Data               json.RawMessage `json:"data"`
}

type related struct {
	Location struct {
		URI   string `json:"uri"`
		Range Range  `json:"range"`
	} `json:"location"`
	Message string `json:"message"`
}

// client is a test's connection to one server process.
type client struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	root   string
	cache  string
	tmp    string
	// noShowDocument leaves window/showDocument out of the capabilities;
	// timelineView declares that the client shows timelines itself.
	noShowDocument bool
	timelineView   bool
	// diffView declares that the client shows output differences as a
	// diff of two files itself.
	diffView bool
	// pulls declares pull diagnostics (textDocument/diagnostic with
	// workspace/diagnostic/refresh), as VS Code's client does.
	pulls bool
	// caps are the server's capabilities.
	caps map[string]any

	mu       sync.Mutex
	cond     *sync.Cond
	nextID   int
	replies  map[int]*message
	diags    map[string][]Diagnostic // latest per URI
	pubs     map[string]int          // publications per URI
	progress []map[string]any        // $/progress values, in order
	requests []*message              // requests the server sent us
	logs     []string
	closed   bool
	// applied decides how the client answers workspace/applyEdit;
	// applyNull makes it answer null, as some clients do.
	applied   bool
	applyNull bool
	// showNull makes it answer window/showDocument with null.
	showNull bool
	// choose is what the client answers window/showMessageRequest with:
	// the first action whose title contains it (none when empty).
	choose string
	// holdCreates keeps the answers to window/workDoneProgress/create
	// (in held) until releaseCreates, as a client too busy to answer.
	holdCreates bool
	held        []*message
	// done delivers Serve's status in the in-process mode.
	done chan int
}

func newClient(t testing.TB, root string) *client {
	c := &client{t: t, root: root, cache: t.TempDir(), tmp: t.TempDir(), replies: map[int]*message{},
		diags: map[string][]Diagnostic{}, pubs: map[string]int{}, applied: true}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// startInProcess runs the server in this process, over pipes, so a test
// can watch its goroutines.
func startInProcess(t testing.TB, root string, initOptions map[string]any) *client {
	t.Helper()
	return startInProcessWith(t, root, initOptions, lsp.Options{})
}

// startInProcessWith is startInProcess with server options (test seams).
func startInProcessWith(t testing.TB, root string, initOptions map[string]any, opts lsp.Options) *client {
	t.Helper()
	return startInProcessClient(t, newClient(t, root), initOptions, opts)
}

// startInProcessClient is startInProcessWith for a client made by
// newClient and set up by the caller (one that pulls diagnostics, say).
func startInProcessClient(t testing.TB, c *client, initOptions map[string]any, opts lsp.Options) *client {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c.stdin = fromClient
	c.done = make(chan int, 1)
	go func() {
		opts.CacheDir, opts.Log = c.cache, io.Discard
		c.done <- lsp.Serve(context.Background(), toServer, fromServer, opts)
		fromServer.Close()
	}()
	go c.read(bufio.NewReader(toClient))
	t.Cleanup(func() { fromClient.Close() })
	c.initialize(initOptions)
	return c
}

// start launches `augur lsp` in a fresh workspace and initializes it with
// the given initializationOptions (nil for none).
func start(t testing.TB, root string, initOptions map[string]any, env ...string) *client {
	t.Helper()
	return startClient(t, newClient(t, root), initOptions, env...)
}

// startPlain is start for a client that cannot open documents on the
// server's request (no window/showDocument), as many editors' clients.
func startPlain(t testing.TB, root string) *client {
	t.Helper()
	c := newClient(t, root)
	c.noShowDocument = true
	return startClient(t, c, nil)
}

func startClient(t testing.TB, c *client, initOptions map[string]any, env ...string) *client {
	t.Helper()
	docs, _ := filepath.Abs(filepath.Join("..", "docs"))
	c.cmd = exec.Command(augurBin, "lsp", "--docs", docs)
	c.cmd.Env = append(append(os.Environ(), "AUGUR_CACHE_DIR="+c.cache, "TMPDIR="+c.tmp), env...)
	c.cmd.Stderr = &c.stderr
	var err error
	c.stdin, err = c.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(bufio.NewReader(stdout))
	t.Cleanup(func() {
		c.stdin.Close()
		done := make(chan struct{})
		go func() { c.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			c.cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("server log:\n%s", c.stderr.String())
		}
	})
	c.initialize(initOptions)
	return c
}

// initialize runs the initialize handshake.
func (c *client) initialize(initOptions map[string]any) {
	t := c.t
	t.Helper()
	window := map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}}
	if c.noShowDocument {
		delete(window, "showDocument")
	}
	caps := map[string]any{
		"window": window,
		"workspace": map[string]any{"applyEdit": true, "didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
			"codeLens":      map[string]any{"refreshSupport": true},
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}}},
	}
	if c.timelineView || c.diffView {
		caps["experimental"] = map[string]any{"augurTimelineView": c.timelineView, "augurDiffView": c.diffView}
	}
	if c.pulls {
		caps["textDocument"] = map[string]any{"diagnostic": map[string]any{"relatedDocumentSupport": false}}
		caps["workspace"].(map[string]any)["diagnostics"] = map[string]any{"refreshSupport": true}
	}
	params := map[string]any{
		"processId":    os.Getpid(),
		"rootUri":      fileURI(c.root),
		"capabilities": caps,
	}
	if initOptions != nil {
		params["initializationOptions"] = initOptions
	}
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
		ServerInfo   struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if err := c.call("initialize", params, &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != "augur" || res.Capabilities["hoverProvider"] != true {
		t.Fatalf("initialize result: %+v", res)
	}
	c.caps = res.Capabilities
	c.notify("initialized", map[string]any{})
}

func fileURI(path string) string { return "file://" + path }

// read dispatches the server's messages.
func (c *client) read(r *bufio.Reader) {
	for {
		body, err := readFrame(r)
		if err != nil {
			c.mu.Lock()
			c.closed = true
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			continue
		}
		c.mu.Lock()
		switch {
		case m.Method != "" && m.ID != nil:
			c.requests = append(c.requests, &m)
			c.answer(&m)
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string       `json:"uri"`
				Diagnostics []Diagnostic `json:"diagnostics"`
			}
			json.Unmarshal(m.Params, &p)
			c.diags[p.URI] = p.Diagnostics
			c.pubs[p.URI]++
		case m.Method == "$/progress":
			var p struct {
				Value map[string]any `json:"value"`
			}
			json.Unmarshal(m.Params, &p)
			c.progress = append(c.progress, p.Value)
		case m.Method == "window/logMessage" || m.Method == "window/showMessage":
			var p struct {
				Message string `json:"message"`
			}
			json.Unmarshal(m.Params, &p)
			c.logs = append(c.logs, p.Message)
		case m.Method == "":
			var id int
			if m.ID != nil {
				json.Unmarshal(*m.ID, &id)
			}
			c.replies[id] = &m
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// answer replies to a request from the server. Caller holds mu.
func (c *client) answer(m *message) {
	var result any
	switch m.Method {
	case "window/workDoneProgress/create":
		if c.holdCreates {
			c.held = append(c.held, m)
			return
		}
	case "window/showDocument":
		if !c.showNull {
			result = map[string]any{"success": true}
		}
	case "workspace/applyEdit":
		if !c.applyNull {
			result = map[string]any{"applied": c.applied}
		}
	case "window/showMessageRequest":
		var p struct {
			Actions []struct {
				Title string `json:"title"`
			} `json:"actions"`
		}
		json.Unmarshal(m.Params, &p)
		for _, a := range p.Actions {
			if c.choose != "" && strings.Contains(a.Title, c.choose) {
				result = map[string]any{"title": a.Title}
				break
			}
		}
	}
	go c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

var sendMu sync.Mutex

func (c *client) send(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(data), data))
}

// raw writes bytes as they are (for malformed messages).
func (c *client) raw(s string) {
	sendMu.Lock()
	defer sendMu.Unlock()
	c.stdin.Write([]byte(s))
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its response.
func (c *client) call(method string, params, result any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	var reply *message
	c.waitFor(fmt.Sprintf("the reply to %s", method), func() bool {
		reply = c.replies[id]
		return reply != nil
	})
	if reply.Error != nil {
		return fmt.Errorf("%d: %s", reply.Error.Code, reply.Error.Message)
	}
	if result != nil {
		return json.Unmarshal(reply.Result, result)
	}
	return nil
}

// waitFor blocks until cond (called with mu held) holds. The generous
// limit only catches a server that never answers; no test depends on
// how fast anything happens.
func (c *client) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	timer := time.AfterFunc(time.Until(deadline), func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if c.closed {
			c.t.Fatalf("the server closed the connection while waiting for %s", what)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("gave up waiting for %s", what)
		}
		c.cond.Wait()
	}
}

// open sends didOpen for a file of the workspace, with its text on disk.
func (c *client) open(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "c", "version": 1, "text": string(data)}})
}

// save writes text to path and sends didSave.
func (c *client) save(path, text string) {
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}})
}

// releaseCreates answers the held window/workDoneProgress/create
// requests and answers the next ones at once.
func (c *client) releaseCreates() {
	c.mu.Lock()
	held := c.held
	c.held, c.holdCreates = nil, false
	c.mu.Unlock()
	for _, m := range held {
		c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
	}
}

// ends counts finished analyses (progress "end" reports). Caller holds mu.
func (c *client) ends() int { return c.progressCount("end", "") }

// reports counts the progress reports whose message is msg. Caller holds
// mu.
func (c *client) reports(msg string) int { return c.progressCount("report", msg) }

// progressCount counts the $/progress values of the kind given, with the
// message given unless that is "". Caller holds mu.
func (c *client) progressCount(kind, msg string) int {
	n := 0
	for _, v := range c.progress {
		if v["kind"] == kind && (msg == "" || v["message"] == msg) {
			n++
		}
	}
	return n
}

// waitAnalyses waits until n analyses have ended in total.
func (c *client) waitAnalyses(n int) {
	c.t.Helper()
	c.waitFor(fmt.Sprintf("%d finished analyses", n), func() bool { return c.ends() >= n })
}

// diagnostics returns the latest diagnostics of path.
func (c *client) diagnostics(path string) []Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Diagnostic(nil), c.diags[fileURI(path)]...)
}

// lastEnd is the message of the latest progress end.
func (c *client) lastEnd() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.progress) - 1; i >= 0; i-- {
		if c.progress[i]["kind"] == "end" {
			m, _ := c.progress[i]["message"].(string)
			return m
		}
	}
	return ""
}

// shutdown ends the session properly and returns the exit status.
func (c *client) shutdown() int {
	c.t.Helper()
	if err := c.call("shutdown", nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notify("exit", nil)
	return c.wait()
}

// wait waits for the process to end and returns its status.
func (c *client) wait() int {
	c.t.Helper()
	if c.done != nil {
		select {
		case code := <-c.done:
			return code
		case <-time.After(30 * time.Second):
			c.t.Fatal("Serve did not return within 30s of exit")
		}
	}
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			c.t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		c.t.Fatal("the server did not exit within 30s of exit")
	}
	return -1
}

// workspaceWith copies testdata/lsp files (or testdata/DIR/FILE for
// "DIR/FILE") into a fresh workspace.
func workspaceWith(t testing.TB, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	for _, f := range files {
		src := filepath.Join("..", "testdata", "lsp", f)
		if strings.Contains(f, "/") { // another testdata directory: "weak/x.c"
			src = filepath.Join("..", "testdata", f)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
