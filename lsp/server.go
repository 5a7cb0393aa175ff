// Package lsp is augur's language server: it keeps the editor's view of a
// workspace, rebuilds and re-analyzes targets when their files are saved,
// and publishes races as diagnostics with hovers, code actions and
// commands. It depends on the analyzer, never the other way round.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"augur/internal/safefile"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"augur/analyzer/frontend/build"
	"augur/analyzer/version"
	"augur/lsp/workspace"
)

// Options configure a server.
type Options struct {
	// CacheDir holds compiled bitcode, evidence and replay transcripts
	// (default: build.DefaultCacheDir(), under the user cache directory).
	CacheDir string
	// Workers classify races in parallel (default: one per CPU but one,
	// which is left to the editor; at least one).
	Workers int
	// Log receives the server's own log (default: standard error).
	Log io.Writer
	// BeforeAnalysis, when set, is called as each analysis starts, with
	// the target's name: a seam for tests (one that panics shows the
	// server survives a bug in an analysis).
	BeforeAnalysis func(target string)
	// DocsDir is the directory of augur's documentation, which race
	// diagnostics link to (codeDescription); none when empty.
	DocsDir string
	// MaxMessage bounds a message's body and a header line from the
	// client (default DefaultMaxMessage): past it the framing is broken
	// and the connection is dropped.
	MaxMessage int
}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

// Server is the language server. Its exported methods implement
// protocol.Server; those it does not embed answer "method not found".
type Server struct {
	protocol.UnimplementedServer

	opts   Options
	client protocol.Client
	logger *log.Logger

	// ctx ends at shutdown or exit; every analysis derives from it.
	// connCtx is the connection's, which outlives shutdown (the reply to
	// shutdown still has to be written).
	ctx     context.Context
	cancel  context.CancelFunc
	connCtx context.Context
	// analyses counts running analysis goroutines, so exit can wait for
	// them to notice the cancellation.
	analyses sync.WaitGroup
	// exited is closed by the exit notification.
	exited   chan struct{}
	exitOnce sync.Once

	// pubMu orders publications, so an older diagnostic set is never
	// sent after a newer one for the same file.
	pubMu sync.Mutex

	mu           sync.Mutex
	state        lifecycle
	progress     bool // the client accepts server-created progress tokens
	watch        bool // the client registers file watchers on request
	showDocument bool // the client implements window/showDocument
	// createFiles: the client applies workspace edits that create files
	// (documentChanges with the create resource operation).
	createFiles bool
	// timelineView: the client shows interleaving timelines itself
	// (experimental capability "augurTimelineView", the VS Code
	// extension's webview), so the server does not open them.
	timelineView bool
	// diffView: the client shows an output difference as a diff of two
	// files itself (experimental capability "augurDiffView", the VS Code
	// extension's diff editor), so the server writes the two outputs.
	diffView bool
	pull     pullState
	// lensRefresh asks for code lenses again; nil when the client does
	// not accept workspace/codeLens/refresh.
	lensRefresh *refresher
	// settleTimer asks the client once more after an analysis (settle).
	settleTimer   *time.Timer
	ws            *workspace.Workspace
	docs          map[string]*document    // open documents by path
	targets       map[string]*targetState // by target key
	published     map[string]publishedSet // what each file last got
	notInTarget   map[string]bool         // open files that belong to no target
	disk          map[string]diskFile     // lines of files not open, for ranges
	configProblem *configProblem          // a broken augur.toml, shown on the file
	paced         *pacer                  // publishes the snapshots of analyses in progress
}

// Serve runs a server on the given streams (stdin and stdout for `augur
// lsp`) until the client sends exit or closes the connection. It returns
// the process exit status: 0 after shutdown then exit, 1 otherwise, as
// the specification asks.
func Serve(ctx context.Context, in io.ReadCloser, out io.WriteCloser, opts Options) int {
	s := newServer(ctx, opts)
	st := newStream(in, out, func(msg string) { s.logger.Print(msg) }, opts.MaxMessage)
	conn := jsonrpc2.NewConn(st, jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(conn)
	conn.Go(s.connCtx, s.guard(s.cancelable(protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler))))
	select {
	case <-s.exited:
	case <-conn.Done():
		s.logger.Print("the client closed the connection")
	case <-ctx.Done():
	}
	s.stop(5 * time.Second)
	// Closing our end of the streams ends the read loop when they are
	// pipes; for a blocking standard input the process exit does it.
	_ = st.Close()
	s.mu.Lock()
	clean := s.state == stateShutdown
	s.mu.Unlock()
	if clean {
		return 0
	}
	return 1
}

func newServer(ctx context.Context, opts Options) *Server {
	if opts.CacheDir == "" {
		opts.CacheDir = build.DefaultCacheDir()
	}
	if opts.Workers <= 0 {
		opts.Workers = max(1, runtime.NumCPU()-1)
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	s := &Server{opts: opts, logger: log.New(opts.Log, "augur lsp: ", log.LstdFlags|log.Lmicroseconds),
		exited: make(chan struct{}), docs: map[string]*document{}, targets: map[string]*targetState{},
		published: map[string]publishedSet{}, pull: pullState{given: map[string]string{}}, notInTarget: map[string]bool{}, disk: map[string]diskFile{}}
	s.connCtx = ctx
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.paced = newPacer(s.ctx, s.publishRound)
	return s
}

// stop cancels every analysis and waits up to wait for them to end.
func (s *Server) stop(wait time.Duration) {
	s.cancel()
	s.mu.Lock()
	for _, t := range s.targets {
		s.halt(t)
	}
	if s.settleTimer != nil {
		s.settleTimer.Stop()
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.analyses.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
		s.logger.Printf("analyses did not stop within %s of the request to stop; going on", wait)
	}
}

func (s *Server) lifecycle() lifecycle {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// logf writes to the client's output (window/logMessage) once the
// server runs, at the level kind, and to the server's own log before
// then. Not both: a client shows the server's standard error in the same
// output, every line of it as an error, so each message would appear
// twice and at the wrong level.
func (s *Server) logf(kind protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.client != nil && s.lifecycle() != stateNew {
		_ = s.client.LogMessage(s.connCtx, &protocol.LogMessageParams{Type: kind, Message: msg})
		return
	}
	s.logger.Print(msg)
}

// Initialize records the client's capabilities and workspace, applies
// its initializationOptions and announces what the server does.
func (s *Server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	root := rootOf(params)
	s.mu.Lock()
	if s.state != stateNew {
		s.mu.Unlock()
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already called")
	}
	s.state = stateRunning
	caps := params.Capabilities
	if w := caps.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.watch = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	if w := caps.Workspace; w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.DocumentChanges != nil && *w.WorkspaceEdit.DocumentChanges {
		s.createFiles = slices.Contains(w.WorkspaceEdit.ResourceOperations, protocol.ResourceOperationKindCreate)
	}
	if caps.Window != nil {
		s.progress = caps.Window.WorkDoneProgress != nil && *caps.Window.WorkDoneProgress
		s.showDocument = caps.Window.ShowDocument != nil && caps.Window.ShowDocument.Support
	}
	var exp struct {
		TimelineView bool `json:"augurTimelineView"`
		DiffView     bool `json:"augurDiffView"`
	}
	if len(caps.Experimental) > 0 && json.Unmarshal(caps.Experimental, &exp) == nil {
		s.timelineView, s.diffView = exp.TimelineView, exp.DiffView
	}
	s.pull.on = pullCapable(caps)
	s.pull.refresh = &refresher{method: protocol.MethodWorkspaceDiagnosticRefresh, send: s.client.DiagnosticRefresh}
	if w := caps.Workspace; w != nil && w.CodeLens != nil && w.CodeLens.RefreshSupport != nil {
		if *w.CodeLens.RefreshSupport {
			s.lensRefresh = &refresher{method: protocol.MethodWorkspaceCodeLensRefresh, send: s.client.CodeLensRefresh}
		}
	}
	pull := s.pull.on
	s.ws = workspace.New(root)
	s.mu.Unlock()
	if len(params.InitializationOptions) > 0 {
		s.applySettings(json.RawMessage(params.InitializationOptions))
	}
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	var pullProvider protocol.DiagnosticProvider
	if pull {
		// A save of one file changes the races of others.
		pullProvider = &protocol.DiagnosticOptions{InterFileDependencies: true}
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &incremental,
				Save: &protocol.SaveOptions{}},
			HoverProvider:          protocol.Boolean(true),
			CodeActionProvider:     &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: commandNames()},
			DiagnosticProvider:     pullProvider,
			CodeLensProvider:       &protocol.CodeLensOptions{},
		},
		ServerInfo: protocol.ServerInfo{Name: "augur", Version: protocol.NewOptional(version.Version)},
	}, nil
}

// rootOf picks the workspace root: the first workspace folder, else
// rootUri, else rootPath, else the current directory.
func rootOf(params *protocol.InitializeParams) string {
	if folders, ok := params.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		return folders[0].URI.FsPath()
	}
	// Deprecated in LSP 3.18, but older clients send only these.
	//lint:ignore SA1019 older clients send only rootUri
	if params.RootURI != nil && !params.RootURI.IsZero() {
		return params.RootURI.FsPath() //lint:ignore SA1019 see above
	}
	//lint:ignore SA1019 the oldest clients send only rootPath
	if p, ok := params.RootPath.Get(); ok && p != "" {
		return p
	}
	wd, _ := os.Getwd()
	return wd
}

// Initialized shows a broken augur.toml as soon as the client listens, and
// asks the client to report changes to augur.toml and compilation
// databases made outside the editor.
func (s *Server) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	s.checkConfig()
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if watch {
		go s.registerWatchers()
	}
	return nil
}

// registerWatchers registers file watchers for the files that change
// targets and flags. It runs on its own goroutine: it waits for the
// client's answer, which the read loop must be free to deliver.
func (s *Server) registerWatchers() {
	opts := protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{
		{GlobPattern: protocol.Pattern("**/" + workspace.ConfigName)},
		{GlobPattern: protocol.Pattern("**/" + workspace.CompDBName)},
	}}
	data, err := protocol.Marshal(opts)
	if err == nil {
		ctx, cancel := context.WithTimeout(s.connCtx, 10*time.Second)
		defer cancel()
		err = s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID: "augur-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: data}}})
	}
	if err != nil {
		s.logger.Printf("file watchers not registered: %v", err)
	}
}

// SetTrace accepts the client's trace level; the server logs to its
// standard error whatever the level.
func (s *Server) SetTrace(ctx context.Context, params *protocol.SetTraceParams) error { return nil }

// Shutdown cancels every analysis and answers within half a second: an
// analysis stops at its next budget check (within a millisecond of
// interpretation), the compiler's process group is killed, Z3 is
// interrupted; exit waits for any straggler. The server answers nothing
// but exit afterwards.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stop(500 * time.Millisecond)
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	return nil
}

// Exit ends Serve.
func (s *Server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// DidChangeConfiguration applies the client's new settings and
// re-analyzes the open targets with them.
func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	if s.applySettings(json.RawMessage(params.Settings)) {
		s.reanalyzeAll(0)
	}
	return nil
}

// applySettings applies client settings (JSON); a bad value is shown to
// the user and changes nothing. It reports whether settings changed.
func (s *Server) applySettings(raw json.RawMessage) bool {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		if string(raw) != "null" {
			s.showError("augur: settings are not a JSON object: %s", raw)
		}
		return false
	}
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	warnings, err := ws.SetClientSettings(m)
	for _, w := range warnings {
		s.logf(protocol.MessageTypeWarning, "%s", w)
	}
	if err != nil {
		s.showError("augur: %v", err)
		return false
	}
	return true
}

// showError tells the user (window/showMessage) and logs.
func (s *Server) showError(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logger.Print(msg)
	_ = s.client.ShowMessage(s.connCtx, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
}

// DidOpen starts tracking a document and analyzes its targets.
func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	d := newDocument(path, params.TextDocument.Version, params.TextDocument.Text)
	d.saved()
	s.docs[path] = d
	s.mu.Unlock()
	s.fileSaved(path, []byte(params.TextDocument.Text), onOpen)
	return nil
}

// DidChange applies edits and moves the file's diagnostics with them.
func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		s.mu.Unlock()
		return fmt.Errorf("didChange for %s, which is not open", path)
	}
	for _, ch := range params.ContentChanges {
		if err := d.applyChange(ch); err != nil {
			// The client's view and ours no longer agree: take the
			// change as lost and ask for nothing more of this document's
			// positions until it is saved or reopened.
			s.mu.Unlock()
			return fmt.Errorf("didChange for %s: %w", path, err)
		}
	}
	d.version = params.TextDocument.Version
	s.mu.Unlock()
	s.publish(path)
	return nil
}

// DidSave re-analyzes what the saved file belongs to.
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	var text []byte
	if d := s.docs[path]; d != nil {
		if params.Text != nil {
			d.setText(*params.Text)
		}
		d.saved()
		text = []byte(d.text)
	}
	s.mu.Unlock()
	if text == nil {
		text, _ = safefile.Read(path, safefile.Rules{Max: safefile.MaxSource})
	}
	s.fileSaved(path, text, onSave)
	return nil
}

// DidClose forgets the document; its diagnostics stay while some target
// still holds it (a closed file's races are still races).
func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.docs, path)
	delete(s.notInTarget, path)
	delete(s.pull.given, path)
	s.mu.Unlock()
	s.publish(path)
	return nil
}

// DidChangeWatchedFiles re-reads augur.toml when it changes on disk, and
// re-analyzes when a compilation database does.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	config, compdb := false, false
	for _, ev := range params.Changes {
		switch filepath.Base(ev.URI.FsPath()) {
		case workspace.ConfigName:
			config = true
		case workspace.CompDBName:
			compdb = true
		}
	}
	switch {
	case config:
		s.configChanged()
	case compdb:
		s.reanalyzeAll(0)
	}
	return nil
}

// filePath converts a document URI to a clean absolute path.
func filePath(u uri.URI) (string, error) {
	if !u.IsFile() {
		return "", fmt.Errorf("augur only analyzes files, not %s", u)
	}
	return filepath.Clean(u.FsPath()), nil
}
