# augur's build. Every target that needs the toolchain runs `setup` first, so a
# fresh Debian machine with Go, gcc and node needs nothing but `make test` or
# `make demo`.
#
# go-llvm must be built against LLVM 14 (the llvm14 build tag); GOFLAGS carries
# it so that plain `go test`, `go vet` and `go build` inside make need no flag.

GO      ?= go
export GOFLAGS := -tags=llvm14
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X augur/analyzer/version.Version=$(VERSION)

.PHONY: all setup build test vet demo bench clean

all: build

setup:
	@bash scripts/setup.sh

build: setup
	@$(GO) build -ldflags '$(LDFLAGS)' -o bin/augur ./cmd/augur

vet: setup
	@$(GO) vet ./...

test: setup vet
	$(GO) test -count=1 ./...

demo: build
	@echo '$$ augur run testdata/demo/bank.c'
	@bin/augur run testdata/demo/bank.c
	@echo
	@echo '$$ augur analyze testdata/race/stats_server.c testdata/classify/double_free.c ...'
	@bin/augur analyze testdata/race/stats_server.c
	@bin/augur analyze --evidence-dir bin/evidence testdata/classify/double_free.c
	@echo '$$ augur replay bin/evidence/race-*.json'
	@bin/augur replay bin/evidence/race-*.json

bench: setup
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

clean:
	rm -rf bin
