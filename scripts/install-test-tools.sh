#!/usr/bin/env bash
# Installs the Debian packages the test suite needs: mandoc lints the man pages; zsh and fish run
# the completion scripts; tmux drives the terminal tests; chromium the browser tests; jq reads JSON in
# the README's blocks (test/readme-in-order.test.ts runs them); postgresql's server binaries run the
# throwaway server of the PostgreSQL engine's tests (test/helpers/postgres.ts). `npm test` runs
# this first (its `pretest`), so the README's test command passes on a fresh machine with only Node
# and npm. Each tool is checked first: a machine that has them all never touches apt.
set -euo pipefail
need=()
for pair in mandoc:mandoc zsh:zsh fish:fish tmux:tmux chromium:chromium jq:jq; do
  cmd=${pair%%:*}; pkg=${pair##*:}
  command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
# The server binaries live off PATH (/usr/lib/postgresql/<version>/bin); the tests find them there.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then need+=(postgresql); fi
if [ ${#need[@]} -eq 0 ]; then echo "test tools present"; exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; fi
fi
if ! command -v apt-get >/dev/null 2>&1 || { [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; }; then
  echo "the tests need these Debian packages: ${need[*]}" >&2
  echo "install them (as root: apt-get install ${need[*]}), or run: sudo bash scripts/install-test-tools.sh" >&2
  exit 1
fi
echo "installing: ${need[*]}"
$SUDO apt-get update -qq
# policy-rc.d answering 101 keeps apt from starting services while it installs (Debian's postgresql
# package would start a cluster on port 5432): the tests start their own throwaway server.
policy=/usr/sbin/policy-rc.d
added_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod +x "$policy" && added_policy=1
fi
trap '[ -n "$added_policy" ] && $SUDO rm -f "$policy"' EXIT
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
