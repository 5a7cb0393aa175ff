#!/usr/bin/env bash
# Installs a real VS Code for the extension's end-to-end test: code-server
# 4.100.3 (VS Code 1.100 served to a browser; later versions need Node 24)
# and playwright-core, from the npm registry only. scripts/setup.sh runs it.
#
# code-server's own postinstall cannot run here: it downloads ripgrep from
# outside the registries and builds kerberos against libkrb5. So everything
# is installed with --ignore-scripts and this script does the rest of what
# that postinstall does:
#   - installs VS Code's own dependencies (lib/vscode, from its shrinkwrap);
#   - builds the native modules the server loads (argon2 for code-server,
#     spdlog, native-watchdog, node-pty and deviceid for VS Code) with npm's
#     node-gyp against the installed Node's headers, never downloaded ones;
#     kerberos (proxy authentication) is left out: nothing here uses it;
#   - points @vscode/ripgrep at Debian's rg (package ripgrep);
#   - makes the links the postinstall makes (node_modules.asar, bin scripts).
# Idempotent: a stamp of this script and the lock file skips a done install.
set -euo pipefail
cd "$(dirname "$0")"

stamp=node_modules/.augur-e2e
want=$(cat package-lock.json install.sh | sha256sum | cut -d' ' -f1)
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0

fail() {
	echo "augur setup (VS Code end-to-end): $*" >&2
	exit 1
}

node_prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
[ -f "$node_prefix/include/node/node_api.h" ] ||
	fail "Node.js headers not found under $node_prefix/include/node (install Node.js with its headers, e.g. Debian's nodejs or libnode-dev)"
node_gyp=$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js
[ -f "$node_gyp" ] || fail "npm's node-gyp not found at $node_gyp"
command -v rg >/dev/null || fail "rg not found (Debian package ripgrep)"

echo "augur setup: installing code-server and playwright-core for the VS Code end-to-end test" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
quiet() {
	"$@" >"$log" 2>&1 || {
		cat "$log" >&2
		fail "$* failed in $(pwd)"
	}
}

rm -f "$stamp"
quiet npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

cs=$PWD/node_modules/code-server
# Its shrinkwrap is not in sync with its package.json, so npm ci refuses it:
# npm install, as code-server's postinstall does.
(cd "$cs/lib/vscode" && quiet npm install --no-save --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)

# build DIR [ARG...]: compiles one native module in place, as its install
# script would.
build() {
	local dir=$1
	shift
	(cd "$dir" && quiet node "$node_gyp" rebuild --nodedir="$node_prefix" --jobs=2 "$@")
}
# argon2's binding.gyp takes node-pre-gyp's variables.
build node_modules/argon2 --module_name=argon2 --module_path=build/napi --napi_build_version=3
mkdir -p node_modules/argon2/lib/binding/napi-v3
cp node_modules/argon2/build/Release/argon2.node node_modules/argon2/lib/binding/napi-v3/
for m in @vscode/spdlog native-watchdog node-pty @vscode/deviceid; do
	build "$cs/lib/vscode/node_modules/$m"
done

mkdir -p "$cs/lib/vscode/node_modules/@vscode/ripgrep/bin"
ln -sfn "$(command -v rg)" "$cs/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
ln -sfn node_modules "$cs/lib/vscode/node_modules.asar"
ln -sfn code-linux.sh "$cs/lib/vscode/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$cs/lib/vscode/bin/helpers/browser.sh"

echo "$want" >"$stamp"
echo "augur setup: code-server installed" >&2
