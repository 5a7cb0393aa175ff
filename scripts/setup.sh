#!/usr/bin/env bash
# Installs what augur needs, and nothing from outside the package registries:
# Debian packages with apt-get, the VS Code extension's npm packages with
# `npm ci --ignore-scripts` (from its package-lock.json; none of them needs
# its install script), and a real VS Code for the extension's end-to-end test
# (code-server, through vscode-extension/e2e/install.sh). Idempotent: when
# everything is present
# it prints nothing and exits 0. Go modules come from the module proxy through
# `go build`.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and LLVM build and load programs; z3 solves path constraints;
# valgrind (Helgrind) and neovim are a baseline and a client of the tests;
# chromium renders the interleaving timeline in its test and drives the real
# VS Code (code-server) of the extension's end-to-end test, whose search
# needs ripgrep; m4 makes SPLASH-2's sources for scripts/sctbench.sh.
packages=(clang-14 llvm-14-dev libclang-rt-14-dev libz3-dev valgrind neovim chromium ripgrep patch m4)

apt_deps() {
	local missing=() p
	for p in "${packages[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			missing+=("$p")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0

	echo "augur setup: installing ${missing[*]}" >&2
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "augur setup: apt-get not found; install ${missing[*]} with your system's package manager" >&2
		exit 1
	fi
	local sudo=""
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
}

# npm_deps installs the extension's packages when package-lock.json changed
# since the last install.
npm_deps() {
	local dir=vscode-extension
	local stamp=$dir/node_modules/.augur-lock want
	want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
	if ! command -v npm >/dev/null 2>&1; then
		echo "augur setup: npm not found; install Node.js 20 or later (with npm) for the VS Code extension" >&2
		exit 1
	fi
	echo "augur setup: installing the VS Code extension's npm packages" >&2
	if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null 2>&1); then
		echo "augur setup: npm ci in $dir failed; run it there to see why" >&2
		exit 1
	fi
	echo "$want" >"$stamp"
}

# staticcheck, which make test runs, from the module proxy at a pinned
# version, into bin/tools (GOFLAGS' build tag is augur's, not its).
staticcheck_version=v0.8.2
go_tools() {
	local bin=bin/tools/staticcheck
	if [ -x "$bin" ] && "$bin" -version 2>/dev/null | grep -q "${staticcheck_version#v}"; then
		return 0
	fi
	echo "augur setup: installing staticcheck $staticcheck_version" >&2
	if ! GOFLAGS= GOBIN="$PWD/bin/tools" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version" >/dev/null 2>&1; then
		echo "augur setup: go install staticcheck@$staticcheck_version failed" >&2
		exit 1
	fi
}

apt_deps
npm_deps
go_tools
bash vscode-extension/e2e/install.sh
