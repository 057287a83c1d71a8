#!/usr/bin/env bash
# Installs the Debian packages the test suite needs (CI runs this; a developer may too, as root).
# Each is checked first, so a machine that has them all skips apt entirely.
set -euo pipefail
need=()
for pair in mandoc:mandoc zsh:zsh fish:fish tmux:tmux chromium:chromium; do
  cmd=${pair%%:*}; pkg=${pair##*:}
  command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -eq 0 ]; then echo "test tools present"; exit 0; fi
echo "installing: ${need[*]}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
