#!/usr/bin/env bash
# Runs the tests that wait on processes, servers and clients again, with
# two CPU-bound processes beside them (make test, once): the suite must
# pass on a busy machine, and a test that leans on timing shows here
# rather than on someone else's loaded CI runner.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=${GOFLAGS:--tags=llvm14} # as the Makefile sets it
spin() { while :; do :; done; }
spin &
a=$!
spin &
b=$!
trap 'kill $a $b 2>/dev/null || true' EXIT
echo "loaded pass: the language server, the farm and the budgets beside two CPU-bound processes"
go test -count=1 -timeout 40m -skip TestSoak ./lsp ./analyzer/judge/farm # the soak ran in the first pass
go test -count=1 -timeout 40m -run 'TestBudgets|TestFarm|TestInterrupt' ./cmd/augur
