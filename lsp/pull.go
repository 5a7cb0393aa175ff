package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"go.lsp.dev/protocol"
)

// Pull diagnostics (textDocument/diagnostic, LSP 3.17). A client that
// pulls and accepts workspace/diagnostic/refresh pulls the diagnostics of
// the documents it has open; the server pushes (publishDiagnostics) only
// the files such a client does not pull: the closed ones, whose races are
// races too. Pushing an open document's diagnostics as well would show
// them twice in VS Code, which keeps pushed and pulled diagnostics apart.
// When an analysis changes an open document's diagnostics, the server
// asks the client to pull again.

// pullState is what the server knows of a pulling client. Callers hold
// the server's mu.
type pullState struct {
	on bool // the client pulls, and accepts refresh requests
	// given is the result id each open document last pulled.
	given map[string]string
	// refresh asks the client to pull again.
	refresh *refresher
}

// pullCapable says whether the client's capabilities let the server rely
// on pulls: the request, and the refresh the server needs after an
// analysis.
func pullCapable(caps protocol.ClientCapabilities) bool {
	td, ws := caps.TextDocument, caps.Workspace
	return td != nil && td.Diagnostic != nil && ws != nil && ws.Diagnostics != nil &&
		ws.Diagnostics.RefreshSupport != nil && *ws.Diagnostics.RefreshSupport
}

// pulls says whether the client pulls path's diagnostics. Caller holds mu.
func (s *Server) pulls(path string) bool { return s.pull.on && s.docs[path] != nil }

// resultID names a diagnostic set by its content.
func resultID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// pulledChanged notes that a pulled document's diagnostics are now the
// set whose result id is id, and asks the client to pull again if it last
// pulled another set. Caller holds mu.
func (s *Server) pulledChanged(path, id string) {
	given, ok := s.pull.given[path]
	if !ok || given == id {
		return // not pulled yet (the client pulls on open), or up to date
	}
	s.refresh(s.pull.refresh)
}

// Diagnostic answers a pull: the document's diagnostics, or "unchanged"
// when they are the set the client pulled last.
func (s *Server) Diagnostic(ctx context.Context, params *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	diags := s.diagnostics(path)
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	data, err := protocol.Marshal(diags)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	id := resultID(data)
	if s.docs[path] != nil {
		s.pull.given[path] = id
	}
	s.mu.Unlock()
	if prev := params.PreviousResultID; prev != nil && *prev == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id}}, nil
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
		Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: diags}}, nil
}
