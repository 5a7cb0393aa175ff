#!/usr/bin/env bash
# Runs every fuzz target (Go native fuzzing; one target per `go test -fuzz`
# run). Inputs that crash a target are written to its package's
# testdata/fuzz/ and from then on run as regression tests in every
# `go test`: commit them with the fix.
#
# `fuzz.sh quick` (make test) gives each target a number of executions
# (about ten seconds' worth on a quiet two-core machine), not a duration:
# a duration's deadline races Go's fuzzing coordinator (golang/go#75804,
# fixed in Go 1.27; go1.26 still has it), which on a loaded machine fails
# the target with a bare "context deadline exceeded" and no failing input.
# `fuzz.sh 5m` (make fuzz) gives each the duration.
set -euo pipefail
budget=${1:-quick}
targets=(
	"./analyzer FuzzLoadRun 40x"
	"./analyzer/output/evidence FuzzDecode 100000x"
	"./lsp FuzzStream 5000x"
)
for t in "${targets[@]}"; do
	set -- $t
	time=$budget
	[ "$budget" = quick ] && time=$3
	echo "fuzz $2 ($1) for $time"
	go test -run '^$' -fuzz "^$2\$" -fuzztime "$time" "$1"
done
