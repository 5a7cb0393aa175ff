//go:build pin

// Package pin keeps the project's decided dependencies (design.md) in go.mod
// at their exact versions before the packages that use them exist: go-z3 for
// the solver and go.lsp.dev for the language server. The pin build tag is
// never set, so nothing here is compiled; `go mod tidy` still sees the
// imports.
package pin

import (
	_ "github.com/aclements/go-z3/z3"
	_ "go.lsp.dev/jsonrpc2"
	_ "go.lsp.dev/protocol"
	_ "go.lsp.dev/uri"
)
