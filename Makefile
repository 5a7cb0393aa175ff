# augur's build. Every target that needs the toolchain runs `setup` first, so a
# fresh Debian machine with Go, gcc and node needs nothing but `make test` or
# `make demo`.
#
# go-llvm must be built against LLVM 14 (the llvm14 build tag); GOFLAGS carries
# it so that plain `go test`, `go vet` and `go build` inside make need no flag.
#
# Inside make, LLVM is linked statically (go-llvm's byollvm tag, with the cgo
# flags below): loading the shared libLLVM-14.so, its symbol lookups and
# relocations, took about 18 ms of every augur process's start, a C hello
# world's `augur run` about 60 ms in all (docs/performance.md, "Start-up"). The
# flags are evaluated when a recipe runs, after setup has installed LLVM.
# Plain `GOFLAGS=-tags=llvm14 go ...` links the shared library and works too.

GO          ?= go
LLVM_CONFIG ?= llvm-config-14
LLVM_COMPONENTS := all-targets bitreader bitwriter core executionengine interpreter ipo irreader linker mcjit passes
export GOFLAGS := -tags=llvm14,byollvm
export CGO_CPPFLAGS = $(shell $(LLVM_CONFIG) --cppflags 2>/dev/null)
export CGO_CXXFLAGS = -std=c++14
export CGO_LDFLAGS = $(shell $(LLVM_CONFIG) --ldflags --link-static --libs $(LLVM_COMPONENTS) --system-libs 2>/dev/null) -lffi
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X augur/analyzer/version.Version=$(VERSION)

.PHONY: all setup build test vet lint demo bench clean vsix ext-test ext-e2e fuzz soak

all: build

setup:
	@bash scripts/setup.sh

build: setup
	@$(GO) build -ldflags '$(LDFLAGS)' -o bin/augur ./cmd/augur

vet: setup
	@$(GO) vet ./...

# The habits nobody has to remember: gofmt'd sources, a tidy go.mod, and
# no staticcheck finding (bin/tools/staticcheck, installed by setup).
lint: setup
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt -l: not formatted:"; echo "$$out"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	@bin/tools/staticcheck -tags llvm14 ./...

# The Go tests (the language server's start `augur lsp` themselves), those
# that wait on processes again beside two CPU-bound processes
# (scripts/loaded.sh), about ten seconds' worth of executions of each fuzz
# target, then the extension's
# unit tests and its flows through vscode-jsonrpc against the binary just
# built, the installable .vsix, and the .vsix in a real VS Code.
test: setup vet lint build
	AUGUR_SCREENSHOT_DIR=$(CURDIR)/bin/screenshots $(GO) test -count=1 -timeout 40m ./...
	@bash scripts/loaded.sh
	@bash scripts/fuzz.sh quick
	@$(MAKE) --no-print-directory ext-test vsix ext-e2e

# The language server through 1,000 saves over five documents (make test
# runs 120): its memory must stay flat and every analysis be answered.
soak: build
	AUGUR_SOAK_SAVES=1000 $(GO) test -count=1 -timeout 60m -run '^TestSoak$$' -v ./lsp

# The fuzz targets (loader and interpreter, evidence decoder, LSP
# transport) for longer than make test gives them.
fuzz: setup
	@bash scripts/fuzz.sh $${FUZZTIME:-5m}

ext-test: build
	cd vscode-extension && AUGUR_BIN=$(CURDIR)/bin/augur npm test --silent

# The extension in a real VS Code: the .vsix just built installed into
# code-server (make setup installs it) and driven through headless Chromium.
ext-e2e: build vsix
	cd vscode-extension/e2e && AUGUR_BIN=$(CURDIR)/bin/augur AUGUR_VSIX=$(CURDIR)/bin/augur.vsix \
		AUGUR_SCREENSHOT_DIR=$(CURDIR)/bin/screenshots node --test --test-reporter=spec vscode.test.mjs

# An installable VS Code extension: checked with tsc, bundled with esbuild (the npm dependencies are inside
# dist/extension.js, so none ships as node_modules), packaged with vsce.
vsix: setup
	@mkdir -p bin
	cd vscode-extension && npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license \
		-o $(CURDIR)/bin/augur.vsix >/dev/null
	@echo "built bin/augur.vsix (install: code --install-extension bin/augur.vsix)"

demo: build
	@echo '$$ augur run testdata/demo/bank.c'
	@bin/augur run testdata/demo/bank.c
	@echo
	@echo '$$ augur analyze testdata/race/stats_server.c testdata/classify/double_free.c ...'
	@bin/augur analyze testdata/race/stats_server.c
	@rm -rf bin/evidence
	@bin/augur analyze --evidence-dir bin/evidence testdata/classify/double_free.c
	@for f in bin/evidence/race-*.json; do echo "\$$ augur replay $$f"; bin/augur replay $$f || exit 1; echo; done
	@echo
	@echo '$$ augur analyze --memory-model weak testdata/weak/no_sync_bug.c   # a crash only a weak memory model allows'
	@bin/augur analyze --memory-model weak testdata/weak/no_sync_bug.c | head -20

bench: setup
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

clean:
	rm -rf bin vscode-extension/out vscode-extension/dist
