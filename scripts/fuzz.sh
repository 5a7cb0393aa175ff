#!/usr/bin/env bash
# Runs every fuzz target for the given time each (Go native fuzzing; one
# target per `go test -fuzz` run). Inputs that crash a target are written
# to its package's testdata/fuzz/ and from then on run as regression tests
# in every `go test`: commit them with the fix.
set -euo pipefail
time=${1:-10s}
targets=(
	"./analyzer FuzzLoadRun"
	"./analyzer/evidence FuzzDecode"
	"./lsp FuzzStream"
)
for t in "${targets[@]}"; do
	set -- $t
	echo "fuzz $2 ($1) for $time"
	go test -run '^$' -fuzz "^$2\$" -fuzztime "$time" "$1"
done
