module augur

go 1.26

require (
	github.com/aclements/go-z3 v0.0.0-20220809013456-4675d5f90ca5
	github.com/ianlancetaylor/demangle v0.0.0-20260724033716-83e58baca724
	go.lsp.dev/jsonrpc2 v1.0.1
	go.lsp.dev/protocol v1.0.1
	go.lsp.dev/uri v1.0.1
	tinygo.org/x/go-llvm v0.0.0-20250929104024-00fb4309ddd2
)

require github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
