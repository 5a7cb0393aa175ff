#!/usr/bin/env bash
# Installs the system packages augur needs, and nothing else from outside the
# package registries. Idempotent: when everything is present it prints nothing
# and exits 0. Go modules come from the module proxy through `go build`, and
# the VS Code extension's packages from npm through its own Makefile target.
set -euo pipefail

packages=(clang-14 llvm-14-dev libclang-rt-14-dev libz3-dev valgrind)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "augur setup: installing ${missing[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
	echo "augur setup: apt-get not found; install ${missing[*]} with your system's package manager" >&2
	exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo="sudo"
	else
		echo "augur setup: need root (or sudo) to install ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get update -qq >/dev/null; then
	echo "augur setup: apt-get update failed; cannot install ${missing[*]}" >&2
	exit 1
fi
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
	echo "augur setup: apt-get install ${missing[*]} failed" >&2
	exit 1
fi
echo "augur setup: done" >&2
